/**
 * Build and parse for the single-shape DGII documents (RFCE, ARECF, ACECF, ANECF, Semilla) over their
 * generated tables: the same writer and reader as the e-CF, the same shape checks.
 */
import { EcfValidationError } from '../errors/validation-error.js';
import type { Issue } from '../issues.js';
import type { DocTable } from '../spec/model.js';
import { checkShapeOf } from '../validate/shape.js';
import { renderXml } from '../xml/render.js';
import { parseXmlRoot, pruneEmpty, readTree, XmlSyntaxError } from '../xml/parse.js';

/** Validates `model` against the table (shape and formats) plus `extra` issues; throws on any error. */
export function buildDocXml(table: DocTable, model: Record<string, unknown>, extra: Issue[] = []): string {
  const { issues } = checkShapeOf(table, '*', model, 'doc');
  const all = [...issues, ...extra];
  if (all.length) throw new EcfValidationError(all);
  return renderXml(table, '*', model);
}

export interface ParsedDoc<T> {
  data: T;
  signed: boolean;
  issues: Issue[];
}

/** Parses a document of `table`'s root; throws EcfValidationError when malformed or of another root. */
export function parseDocXml<T>(table: DocTable, xml: string): ParsedDoc<T> {
  let root;
  try {
    root = parseXmlRoot(xml);
  } catch (e) {
    const msg = e instanceof XmlSyntaxError ? e.message : String(e);
    throw new EcfValidationError([{ code: 'invalid_type', path: '', message: `XML mal formado: ${msg}`, severity: 'error' }]);
  }
  const name = root.localName ?? root.nodeName;
  if (name !== table.root) {
    throw new EcfValidationError([{ code: 'invalid_type', path: '', message: `Se esperaba un documento ${table.root}; el elemento raíz es ${name}.`, severity: 'error' }]);
  }
  const t = readTree(table, '*', root);
  const data = { ...(pruneEmpty(t.doc) ?? {}), ...(t.context.version !== undefined ? { version: t.context.version } : {}) };
  return { data: data as T, signed: t.signed, issues: t.issues };
}

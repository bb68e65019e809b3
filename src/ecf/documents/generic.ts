/**
 * Build and parse for the single-shape DGII documents (RFCE, ARECF, ACECF, ANECF, Semilla) over their
 * generated tables: the same writer and reader as the e-CF, the same shape checks.
 */
import { EcfValidationError } from '../../shared/errors/validation-error.js';
import type { Issue } from '../../shared/issues.js';
import type { DocTable } from '../spec/model.js';
import { checkShapeOf } from '../validate/shape.js';
import { renderXml } from '../xml/render.js';
import type { Element } from '@xmldom/xmldom';
import { parseXmlRoot, pruneEmpty, readTree, XmlSyntaxError } from '../xml/parse.js';

/** Shape and format issues of `model` against the table (paths relative to the model). */
export function checkDocShape(table: DocTable, model: Record<string, unknown>): Issue[] {
  return checkShapeOf(table, '*', model, 'doc').issues;
}

/** Validates `model` against the table (shape and formats) plus `extra` issues; throws on any error. */
export function buildDocXml(table: DocTable, model: Record<string, unknown>, extra: Issue[] = []): string {
  const all = [...checkDocShape(table, model), ...extra];
  if (all.length) throw new EcfValidationError(all);
  return renderXml(table, '*', model);
}

export interface ParsedDoc<T> {
  /** The values, shaped like the builder's input (the fixed `Version` is not part of it). */
  data: T;
  /** Text of the fixed `Version` element (`1.0`), when the document has one. */
  version?: string;
  /** True when the document element carries a `Signature` child. */
  signed: boolean;
  /** Unknown elements, unconvertible values and broken document rules, with XML element paths. */
  issues: Issue[];
}

/** Parses a document of `table`'s root; throws EcfValidationError when malformed or of another root. */
export function parseDocXml<T>(table: DocTable, xml: string): ParsedDoc<T> {
  let root: Element;
  try {
    root = parseXmlRoot(xml);
  } catch (e) {
    const msg = e instanceof XmlSyntaxError ? e.message : String(e);
    throw new EcfValidationError([{ code: 'invalid_type', path: '', message: `XML mal formado: ${msg}`, severity: 'error' }]);
  }
  const name = root.localName ?? root.nodeName;
  if (name !== table.root || root.namespaceURI) {
    throw new EcfValidationError([
      {
        code: 'invalid_type',
        path: '',
        message: `Se esperaba un documento ${table.root} sin espacio de nombres; el elemento raíz es ${root.nodeName}.`,
        severity: 'error',
      },
    ]);
  }
  const t = readTree(table, '*', root);
  const out: ParsedDoc<T> = { data: (pruneEmpty(t.doc) ?? {}) as T, signed: t.signed, issues: t.issues };
  const version = versionText(root);
  if (version !== undefined) out.version = version;
  return out;
}

/** Text of `Version` as a child of the root or of one of its children (ARECF, ACECF, ANECF, RFCE). */
function versionText(root: Element): string | undefined {
  for (let c = root.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 1) continue;
    if (((c as Element).localName ?? c.nodeName) === 'Version') return (c.textContent ?? '').trim();
    for (let g = c.firstChild; g; g = g.nextSibling) {
      if (g.nodeType === 1 && ((g as Element).localName ?? g.nodeName) === 'Version') return (g.textContent ?? '').trim();
    }
  }
  return undefined;
}

/**
 * e-CF build and parse: canonical JSON + context → unsigned XML, and back.
 *
 * `FechaHoraFirma` is the signing time: the builder never writes it; signing (`signEcf`) inserts it from an
 * injected clock just before the signature (docs/architecture.md).
 */
import type { Element } from '@xmldom/xmldom';
import { parseEncf } from '../spec/encf.js';
import { EcfValidationError } from '../../shared/errors/validation-error.js';
import type { Issue } from '../../shared/issues.js';
import { ECF_TABLE } from '../spec/ecf-table.gen.js';
import { isEcfType, type EcfType } from '../spec/model.js';
import { parseDate } from '../spec/formats.js';
import { checkShapeOf } from '../validate/shape.js';
import { safeValidateEcfJson } from '../validate/index.js';
import type { EcfDocument } from '../spec/ecf-types.gen.js';
import { renderXml } from './render.js';
import { parseXmlRoot, pruneEmpty, readTree, XmlSyntaxError } from './parse.js';

/** The issuer profile (the `Emisor` block without the per-document fields). */
export interface IssuerProfile {
  rnc: string;
  razon_social: string;
  direccion: string;
  nombre_comercial?: string;
  sucursal?: string;
  municipio?: string;
  provincia?: string;
  telefonos?: string[];
  correo?: string;
  web_site?: string;
  actividad_economica?: string;
}

/** What the caller does not send in the document: who issues it, its number and dates. */
export interface BuildContext {
  emisor: IssuerProfile;
  /** Assigned e-NCF: `E` + type + 10 digits. */
  encf: string;
  /** Issue date `dd-MM-yyyy` (America/Santo_Domingo). */
  fecha_emision: string;
  /** Sequence expiry `dd-MM-yyyy`; required by every type except 32 and 34, whose XSDs have no such element. */
  fecha_vencimiento_secuencia?: string;
}

export type CanonicalDocument = Record<string, unknown>;

const CONTEXT_DATE_ROWS = ECF_TABLE.rows.filter((r) => r.source === 'context' && r.jsonKind === 'date');

/** Checks the build context for a type; issues carry paths under `context.`. */
export function checkContext(tipo: EcfType, context: unknown): Issue[] {
  const issues: Issue[] = [];
  if (typeof context !== 'object' || context === null) {
    return [{ code: 'invalid_type', path: 'context', message: 'El contexto de emisión debe ser un objeto.', severity: 'error' }];
  }
  const c = context as Record<string, unknown>;
  issues.push(...checkShapeOf(ECF_TABLE, tipo, { emisor: c.emisor }, 'issuer', {}, 'context').issues);
  const m = typeof c.encf === 'string' ? parseEncf(c.encf) : null;
  if (!m)
    issues.push({
      code: 'pattern',
      path: 'context.encf',
      message: 'e-NCF inválido: debe ser E + tipo (2 dígitos) + secuencia (10 dígitos).',
      severity: 'error',
    });
  else if (m.tipo !== tipo)
    issues.push({
      code: 'rule',
      path: 'context.encf',
      message: `El e-NCF ${c.encf} no corresponde al tipo ${tipo}.`,
      severity: 'error',
      ruleId: 'ECF-ENCF-TIPO',
    });
  // The dates of the context are the table's `context` rows: required where the type's XSD requires them.
  for (const row of CONTEXT_DATE_ROWS) {
    const occ = row.occurs[tipo];
    const key = row.json!.split('.').pop()!;
    const v = c[key];
    if (!occ || (v === undefined && occ[0] === 0)) continue;
    if (typeof v !== 'string' || !parseDate(v)) {
      issues.push({
        code: v === undefined ? 'required' : 'date',
        path: `context.${key}`,
        message: `Fecha requerida en formato dd-MM-yyyy (${row.name}).`,
        severity: 'error',
      });
    }
  }
  return issues;
}

/**
 * Builds the unsigned e-CF XML of type `tipo` from canonical JSON and the build context. Validates first
 * (all rules, collected) and throws `EcfValidationError` on any error.
 * @example
 * `doc` is typed per type (`EcfDocument<'31'>` …): unknown fields, fields of another type and a wrong type code
 * are compile errors. For untyped input (JSON from outside), use `buildEcfXmlFromJson`.
 * @example
 * buildEcfXml('31', doc, { emisor, encf: 'E310000000001', fecha_emision: '01-04-2026', fecha_vencimiento_secuencia: '31-12-2027' })
 * //=> '<?xml version="1.0" encoding="utf-8"?><ECF><Encabezado><Version>1.0</Version>…</ECF>'
 */
export function buildEcfXml<T extends EcfType>(tipo: T, doc: EcfDocument<T>, context: BuildContext): string {
  return buildEcfXmlFromJson(tipo, doc, context);
}

/**
 * `buildEcfXml` for untyped input (untrusted JSON, a type code read at run time): the same run-time validation,
 * and an unknown `tipo` throws `EcfValidationError` with an `enum` issue at path `tipo`.
 */
export function buildEcfXmlFromJson(tipo: string, json: unknown, context: BuildContext): string {
  if (!isEcfType(tipo)) {
    const bad = safeValidateEcfJson(tipo, json);
    throw new EcfValidationError(bad.success ? [] : bad.issues);
  }
  const ctxIssues = checkContext(tipo, context);
  const r = safeValidateEcfJson(tipo, json, { fechaEmision: context?.fecha_emision });
  const issues = [...ctxIssues, ...(r.success ? [] : r.issues)];
  if (issues.length) throw new EcfValidationError(issues);
  return renderEcfXml(tipo, json as CanonicalDocument, context);
}

/** Renders without validating (for already-validated documents and benchmarks of the writer alone). */
export function renderEcfXml(tipo: EcfType, doc: CanonicalDocument, context: BuildContext): string {
  return renderXml(ECF_TABLE, tipo, doc, {
    tipo,
    issuer: context.emisor as unknown as Record<string, unknown>,
    context: context as unknown as Record<string, unknown>,
  });
}

export interface ParsedEcf {
  tipo: EcfType;
  /** The canonical JSON (request body) the XML represents. */
  document: CanonicalDocument;
  /** Issuer profile, e-NCF and dates found in the XML. */
  context: BuildContext;
  /** `FechaHoraFirma`, when present. */
  fecha_hora_firma?: string;
  signed: boolean;
  /** Elements the table does not know or values that could not be converted (XML paths). */
  issues: Issue[];
}

/**
 * Parses e-CF XML (signed or not) back to canonical JSON: `parseEcfXml(buildEcfXml(t, x, c)).document`
 * deep-equals `x` for every valid `x`. Throws `EcfValidationError` when the XML is not an e-CF at all.
 */
export function parseEcfXml(xml: string): ParsedEcf {
  let root;
  try {
    root = parseXmlRoot(xml);
  } catch (e) {
    const msg = e instanceof XmlSyntaxError ? e.message : String(e);
    throw new EcfValidationError([{ code: 'invalid_type', path: '', message: `XML mal formado: ${msg}`, severity: 'error' }]);
  }
  if ((root.localName ?? root.nodeName) !== 'ECF' || root.namespaceURI) {
    throw new EcfValidationError([
      { code: 'invalid_type', path: '', message: `El elemento raíz debe ser ECF sin espacio de nombres (se encontró ${root.nodeName}).`, severity: 'error' },
    ]);
  }
  // From the tree, not the text: a commented-out <TipoeCF> must not choose the type table.
  const tipo = childText(root, ['Encabezado', 'IdDoc', 'TipoeCF']);
  if (!isEcfType(tipo)) {
    throw new EcfValidationError([{ code: 'enum', path: '/ECF/Encabezado/IdDoc/TipoeCF', message: 'TipoeCF ausente o inválido.', severity: 'error' }]);
  }
  const t = readTree(ECF_TABLE, tipo, root);
  const ctx = t.context;
  const context: BuildContext = {
    emisor: (pruneEmpty(t.issuer) ?? {}) as unknown as IssuerProfile,
    encf: String(ctx.encf ?? ''),
    fecha_emision: String(ctx.fecha_emision ?? ''),
  };
  if (ctx.fecha_vencimiento_secuencia !== undefined) context.fecha_vencimiento_secuencia = String(ctx.fecha_vencimiento_secuencia);
  const out: ParsedEcf = { tipo, document: (pruneEmpty(t.doc) ?? {}) as CanonicalDocument, context, signed: t.signed, issues: t.issues };
  if (ctx.fecha_hora_firma !== undefined) out.fecha_hora_firma = String(ctx.fecha_hora_firma);
  return out;
}

/** Trimmed text of the no-namespace element at `path` below `root` (first match per step), or undefined. */
function childText(root: Element, path: readonly string[]): string | undefined {
  let el: Element | null = root;
  for (const name of path) {
    let found: Element | null = null;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1 && !(c as Element).namespaceURI && ((c as Element).localName ?? c.nodeName) === name) {
        found = c as Element;
        break;
      }
    }
    if (!found) return undefined;
    el = found;
  }
  return (el.textContent ?? '').trim();
}

/**
 * Renders everything derived from the DIAN request description (src/dian/spec/fields.ts, DIAN_FIELDS):
 *   schemas/dian-<kind>.schema.json  JSON Schema 2020-12 of each endpoint's request body
 *   src/dian/spec/types.gen.ts        one TypeScript interface per kind, DianRequestByKind and DianRequest
 *   docs/dian-fields.md               the field reference (one table per object, a column per kind)
 *
 * Pure: returns paths (relative to the repo root) and texts; scripts/dian/gen.ts writes or checks them.
 * Kinds differ only by the rows' `kinds` and `required` columns; nothing here names an endpoint.
 */
import { DIAN_FIELDS, type FieldDef, fieldOn, fieldRequired } from '../../src/dian/spec/fields.js';
import { DIAN_KIND_IDS, DIAN_KINDS, type DianKindId } from '../../src/dian/spec/kinds.js';
import { DIAN_REQUEST_RULES, DIAN_SUPERSEDED } from '../../src/dian/validate/request.js';

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const TIME_PATTERN = '^([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$';

/** `credit-note-equivalent` → `DianCreditNoteEquivalentRequest`. */
export function dianRequestTypeName(kind: DianKindId): string {
  return `Dian${kind.replace(/(^|-)([a-z])/g, (_, __, ch: string) => ch.toUpperCase())}Request`;
}

// ---------------------------------------------------------------------------------------------------------
// JSON Schema

type Json = Record<string, unknown>;

function enumValues(f: FieldDef): Array<string | number> | undefined {
  if (!f.enum) return undefined;
  return f.type === 'integer' || f.type === 'number' ? f.enum.map(Number) : [...f.enum];
}

function schemaOfType(f: FieldDef, type: Exclude<FieldDef['type'], 'array'>, kind: DianKindId): Json {
  switch (type) {
    case 'string': {
      const s: Json = { type: 'string' };
      if (f.maxLength !== undefined) s.maxLength = f.maxLength;
      if (f.pattern) s.pattern = f.pattern;
      if (f.enum) s.enum = enumValues(f);
      return s;
    }
    case 'integer':
    case 'number':
      return f.enum ? { type, enum: enumValues(f) } : { type };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date', pattern: DATE_PATTERN };
    case 'time':
      return { type: 'string', pattern: TIME_PATTERN };
    case 'object':
      return f.open ? { type: 'object' } : objectSchema(f.fields ?? [], kind, false);
  }
}

function fieldSchema(f: FieldDef, kind: DianKindId): Json {
  const head: Json = { description: f.doc };
  if (f.obsolete) head.deprecated = true;
  if (f.default !== undefined) head.default = f.default;
  if (f.type === 'array') {
    const s: Json = { ...head, type: 'array', items: schemaOfType(f, f.items ?? 'string', kind) };
    if (f.maxItems !== undefined) s.maxItems = f.maxItems;
    return s;
  }
  return { ...head, ...schemaOfType(f, f.type, kind) };
}

function objectSchema(fields: readonly FieldDef[], kind: DianKindId, top: boolean): Json {
  const on = fields.filter((f) => fieldOn(f, kind));
  const properties: Json = {};
  for (const f of on) properties[f.key] = fieldSchema(f, kind);
  const alternates = top ? Object.entries(DIAN_SUPERSEDED).filter(([old]) => on.some((f) => f.key === old)) : [];
  const required = on.filter((f) => fieldRequired(f, kind) && !alternates.some(([, now]) => now === f.key)).map((f) => f.key);
  const s: Json = { type: 'object', properties };
  if (required.length) s.required = required;
  // An obsolete field standing for a required one: exactly one of the two.
  if (alternates.length) s.allOf = alternates.map(([old, now]) => ({ oneOf: [{ required: [now] }, { required: [old] }] }));
  s.additionalProperties = false;
  return s;
}

function jsonSchemaOf(kind: DianKindId): string {
  const k = DIAN_KINDS[kind];
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://ecf-kit.dev/schemas/dian-${kind}.schema.json`,
    title: `DIAN request body: ${k.name} (POST ${k.path})`,
    description:
      'Generated from src/dian/spec/fields.ts by scripts/dian/gen.ts. Conditional rules (check digit, credit terms, signing dates, …) are checked by validateDianRequest, not by this schema.',
    ...objectSchema(DIAN_FIELDS, kind, true),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

// ---------------------------------------------------------------------------------------------------------
// TypeScript

function jsdoc(f: FieldDef, indent: string): string[] {
  const parts = [f.doc];
  if (f.default !== undefined) parts.push(`Default: \`${String(f.default)}\`.`);
  if (f.unwritten) parts.push('Not written to the XML.');
  const text = parts.join(' ').replace(/\*\//g, '*\\/');
  if (f.obsolete) return [`${indent}/**`, `${indent} * ${text}`, `${indent} * @deprecated ${f.obsolete.replace(/\*\//g, '*\\/')}`, `${indent} */`];
  return [`${indent}/** ${text} */`];
}

function tsOfType(f: FieldDef, type: Exclude<FieldDef['type'], 'array'>, kind: DianKindId, indent: string): string {
  switch (type) {
    case 'string':
      return f.enum ? f.enum.map((v) => `'${v}'`).join(' | ') : 'string';
    case 'integer':
    case 'number':
      return f.enum ? f.enum.join(' | ') : 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
    case 'time':
      return 'string';
    case 'object':
      return f.open ? 'Record<string, unknown>' : tsObject(f.fields ?? [], kind, indent);
  }
}

function tsObject(fields: readonly FieldDef[], kind: DianKindId, indent: string): string {
  const inner = `${indent}  `;
  const lines = ['{'];
  for (const f of fields) {
    if (!fieldOn(f, kind)) continue;
    lines.push(...jsdoc(f, inner));
    const t = f.type === 'array' ? `Array<${tsOfType(f, f.items ?? 'string', kind, inner)}>` : tsOfType(f, f.type, kind, inner);
    lines.push(`${inner}${f.key}${fieldRequired(f, kind) ? '' : '?'}: ${t};`);
  }
  lines.push(`${indent}}`);
  return lines.join('\n');
}

function typesModule(): string {
  const out = [
    '/**',
    ' * GENERATED by scripts/dian/gen.ts from src/dian/spec/fields.ts (DIAN_FIELDS) — do not edit.',
    ' * The request body of each DIAN document endpoint (dian-service.md "Resources and fields").',
    ' */',
    "import type { DianKindId } from './kinds.js';",
    '',
  ];
  for (const kind of DIAN_KIND_IDS) {
    const k = DIAN_KINDS[kind];
    out.push(`/** Request body of \`POST ${k.path}\` (${k.name}). */`);
    out.push(`export interface ${dianRequestTypeName(kind)} ${tsObject(DIAN_FIELDS, kind, '')}`, '');
  }
  out.push('/** The request body type of each kind. */');
  out.push('export interface DianRequestByKind {');
  for (const kind of DIAN_KIND_IDS) out.push(`  ${/^[a-z_$][\w$]*$/i.test(kind) ? kind : `'${kind}'`}: ${dianRequestTypeName(kind)};`);
  out.push('}', '');
  out.push('/** Any DIAN document request body. */');
  out.push('export type DianRequest = DianRequestByKind[DianKindId];', '');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// Markdown field reference

interface Group {
  fields: readonly FieldDef[];
  /** Path of each occurrence and the kinds its object exists on. */
  at: Array<{ path: string; kinds: Set<DianKindId> }>;
}

function collectGroups(): Group[] {
  const groups: Group[] = [];
  const visit = (fields: readonly FieldDef[], path: string, kinds: Set<DianKindId>) => {
    let g = groups.find((x) => x.fields === fields);
    if (!g) groups.push((g = { fields, at: [] }));
    g.at.push({ path, kinds });
    for (const f of fields) {
      if (!f.fields || f.open) continue;
      const own = new Set([...kinds].filter((k) => fieldOn(f, k)));
      if (own.size === 0) continue;
      visit(f.fields, `${path ? `${path}.` : ''}${f.key}${f.type === 'array' ? '[]' : ''}`, own);
    }
  };
  visit(DIAN_FIELDS, '', new Set(DIAN_KIND_IDS));
  return groups;
}

function typeText(f: FieldDef): string {
  const base = f.type === 'array' ? `${f.items ?? 'string'}[]` : f.type;
  return f.open ? `${base} (open)` : base;
}

function notes(f: FieldDef): string {
  const n: string[] = [f.doc];
  if (f.maxLength !== undefined) n.push(`Max ${f.maxLength} characters.`);
  if (f.pattern) n.push(`Pattern \`${f.pattern}\`${f.patternText ? ` (${f.patternText})` : ''}.`);
  if (f.enum) n.push(`One of ${f.enum.map((v) => `\`${v}\``).join(', ')}.`);
  if (f.maxItems !== undefined) n.push(`At most ${f.maxItems} item(s).`);
  if (f.default !== undefined) n.push(`Default \`${String(f.default)}\`.`);
  if (f.obsolete) n.push('**Obsolete.**');
  if (f.unwritten) n.push('*Not written to the XML.*');
  return n.join(' ').replace(/\|/g, '\\|');
}

function fieldsDoc(): string {
  const out = [
    '# DIAN request fields',
    '',
    '<!-- GENERATED by scripts/dian/gen.ts from src/dian/spec/fields.ts — do not edit. -->',
    '',
    'The request body of each DIAN document endpoint (dian-service.md "Resources and fields"), from the one',
    'description in `src/dian/spec/fields.ts`. Each table is one object; a column per kind says whether the',
    'field is **req** (required), opt (optional) or — (absent: sending it is an error, `not_allowed`). Unknown',
    'fields are errors too (`unknown_field`). The conditional requirements (a `dv` with NIT, credit terms, …) are',
    'in docs/dian.md, "Request validation". JSON Schemas: `schemas/dian-<kind>.schema.json`.',
    '',
    '| Kind | Endpoint | Document types |',
    '|---|---|---|',
    ...DIAN_KIND_IDS.map((k) => `| \`${k}\` | \`${DIAN_KINDS[k].path}\` | ${DIAN_KINDS[k].typeCodes.join(', ')} |`),
    '',
  ];
  const head = `| Field | Type | ${DIAN_KIND_IDS.map((k) => `\`${k}\``).join(' | ')} | Notes |`;
  const rule = `|---|---|${DIAN_KIND_IDS.map(() => ':-:').join('|')}|---|`;
  for (const g of collectGroups()) {
    const title = g.at.map((a) => (a.path ? `\`${a.path}\`` : 'Request body')).join(', ');
    out.push(`## ${title}`, '', head, rule);
    for (const f of g.fields) {
      const cells = DIAN_KIND_IDS.map((k) => {
        const where = g.at.find((a) => a.kinds.has(k));
        if (!where || !fieldOn(f, k)) return '—';
        if (g.at[0]!.path === '' && Object.values(DIAN_SUPERSEDED).includes(f.key) && fieldRequired(f, k)) {
          const old = Object.entries(DIAN_SUPERSEDED).find(([, now]) => now === f.key)![0];
          const oldDef = DIAN_FIELDS.find((d) => d.key === old);
          if (oldDef && fieldOn(oldDef, k)) return `**req**¹`;
        }
        return fieldRequired(f, k) ? '**req**' : 'opt';
      });
      out.push(`| \`${f.key}\` | ${typeText(f)} | ${cells.join(' | ')} | ${notes(f)} |`);
    }
    out.push('');
    if (g.at[0]!.path === '') {
      for (const [old, now] of Object.entries(DIAN_SUPERSEDED)) {
        out.push(`¹ or the obsolete \`${old}\` in its place (taken as the only entry of \`${now}\`); not both.`, '');
      }
    }
  }
  out.push('## Fields not written to the XML, and obsolete fields', '');
  out.push('Accepted and validated, but not written (the spec does not show where they go, or they are service flags):', '');
  const flat: Array<{ path: string; f: FieldDef }> = [];
  for (const g of collectGroups())
    for (const a of g.at)
      for (const f of g.fields) {
        if ([...a.kinds].some((k) => fieldOn(f, k))) flat.push({ path: `${a.path ? `${a.path}.` : ''}${f.key}`, f });
      }
  for (const { path, f } of flat) if (f.unwritten) out.push(`- \`${path}\`: ${f.unwritten}.`);
  out.push('', 'Obsolete since DIAN format 3.0: accepted with a warning (`DIAN-SVC-OBSOLETE`):', '');
  for (const { path, f } of flat) if (f.obsolete) out.push(`- \`${path}\`: ${f.obsolete}.`);
  out.push('', '## Conditional rules', '', '| Rule | Checks |', '|---|---|');
  for (const [id, text] of Object.entries(DIAN_REQUEST_RULES)) out.push(`| \`${id}\` | ${text.replace(/\|/g, '\\|')} |`);
  out.push('');
  return out.join('\n');
}

/** Every generated file of the DIAN request description, paths relative to the repo root. */
export function dianFieldOutputs(): Array<{ path: string; text: string }> {
  return [
    ...DIAN_KIND_IDS.map((kind) => ({ path: `schemas/dian-${kind}.schema.json`, text: jsonSchemaOf(kind) })),
    { path: 'src/dian/spec/types.gen.ts', text: typesModule() },
    { path: 'docs/dian-fields.md', text: fieldsDoc() },
  ];
}

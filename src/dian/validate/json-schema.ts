/**
 * The JSON Schema (2020-12) of each endpoint's request body, derived from DIAN_FIELDS: what
 * `schemas/dian-<kind>.schema.json` holds (scripts/dian/gen.ts writes it) and what a server's OpenAPI document
 * embeds. Kinds differ only by the rows' `kinds` and `required` columns.
 */
import { DIAN_FIELDS, type FieldDef, fieldOn, fieldRequired } from '../spec/fields.js';
import { DIAN_KINDS, type DianKindId } from '../spec/kinds.js';
import { DIAN_SUPERSEDED } from './request.js';

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const TIME_PATTERN = '^([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$';

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

/** The request body's JSON Schema of `kind`, as an object. */
export function dianRequestJsonSchema(kind: DianKindId): Record<string, unknown> {
  const k = DIAN_KINDS[kind];
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://ecf-kit.dev/schemas/dian-${kind}.schema.json`,
    title: `DIAN request body: ${k.name} (POST ${k.path})`,
    description:
      'Generated from src/dian/spec/fields.ts by scripts/dian/gen.ts. Conditional rules (check digit, credit terms, signing dates, …) are checked by validateDianRequest, not by this schema.',
    ...objectSchema(DIAN_FIELDS, kind, true),
  };
}

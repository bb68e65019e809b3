/** Renders the published JSON Schemas of the canonical JSON (one per type, plus the issuer profile). */
import { ECF_TYPES, type DocTable } from '../src/ecf/spec/model.js';
import { jsonFields, xmlTree, type JsonField } from '../src/ecf/spec/tree.js';
import { amountBounds } from '../src/ecf/spec/formats.js';

type Schema = Record<string, unknown>;

function valueSchema(f: JsonField): Schema {
  const facets = f.xml.facets!;
  switch (f.xml.jsonKind) {
    case 'code':
      return { type: 'string', enum: facets.enumeration };
    case 'integer': {
      const s: Schema = { type: 'integer' };
      if (facets.enumeration) s.enum = facets.enumeration.map(Number);
      if (facets.minInclusive !== undefined) s.minimum = Number(facets.minInclusive);
      if (facets.maxInclusive !== undefined) s.maximum = Number(facets.maxInclusive);
      if (facets.minExclusive !== undefined) s.exclusiveMinimum = Number(facets.minExclusive);
      if (facets.totalDigits !== undefined && s.maximum === undefined) s.maximum = 10 ** facets.totalDigits - 1;
      return s;
    }
    case 'amount': {
      const b = amountBounds(facets);
      const s: Schema = { type: 'number', description: `At most ${b.decimals} decimals.` };
      if (b.exclusiveMin) s.exclusiveMinimum = 0;
      else if (b.min !== null) s.minimum = 0;
      s.maximum = Number(b.maxText);
      if (b.min === null) s.minimum = -Number(b.maxText);
      return s;
    }
    case 'digits':
      return { type: 'string', pattern: `^[0-9]{1,${facets.totalDigits ?? 20}}$` };
    case 'date':
      return { type: 'string', pattern: '^(0[1-9]|[12][0-9]|3[01])-(0[1-9]|1[0-2])-(19|20)[0-9]{2}$', description: 'dd-MM-yyyy' };
    case 'datetime':
      return {
        type: 'string',
        pattern: '^(0[1-9]|[12][0-9]|3[01])-(0[1-9]|1[0-2])-(19|20)[0-9]{2} ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$',
        description: 'dd-MM-yyyy HH:mm:ss',
      };
    case 'country': {
      // Issue 15: an ISO code (written as its Spanish name) or a country name as the XML takes it (written as given).
      const name: Schema = { type: 'string' };
      if (facets.maxLength !== undefined) name.maxLength = facets.maxLength;
      if (facets.jsPattern?.length === 1) name.pattern = facets.jsPattern[0];
      return {
        anyOf: [{ type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 code' }, name],
        description: 'ISO 3166-1 alpha-2 code, or a country name as the XSD takes it',
      };
    }
    default: {
      const s: Schema = { type: 'string' };
      if (facets.enumeration) s.enum = facets.enumeration;
      if (facets.minLength !== undefined) s.minLength = facets.minLength;
      if (facets.maxLength !== undefined) s.maxLength = facets.maxLength;
      if (facets.jsPattern?.length === 1) s.pattern = facets.jsPattern[0];
      return s;
    }
  }
}

function objectSchema(fields: JsonField[]): Schema {
  const properties: Record<string, Schema> = {};
  for (const f of fields) {
    let s = f.fields ? objectSchema(f.fields) : valueSchema(f);
    if (f.array) s = { type: 'array', items: s, minItems: f.minItems, maxItems: f.maxItems };
    properties[f.key] = f.required ? s : { anyOf: [s, { type: 'null' }] };
  }
  const required = fields.filter((f) => f.required).map((f) => f.key);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

export function buildJsonSchemas(table: DocTable): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const t of ECF_TYPES) {
    out[`ecf-${t}.schema.json`] = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `https://ecf-kit.dev/schemas/ecf-${t}.schema.json`,
      title: `Canonical JSON of an e-CF type ${t} (request body of POST /api/v1/documents/${t})`,
      description:
        'Generated from the official DGII XSD by scripts/gen-spec.ts. Business rules (totals, per-type particularities) are checked by validateEcf, not by this schema.',
      ...objectSchema(jsonFields(xmlTree(table, t), 'doc')),
    };
  }
  // Issuer profile: union of the issuer rows over the ten types.
  const issuer = jsonFields(xmlTree(table, '31'), 'issuer');
  const emisor = issuer.find((f) => f.key === 'emisor')!;
  out['issuer-profile.schema.json'] = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://ecf-kit.dev/schemas/issuer-profile.schema.json',
    title: 'Issuer profile (the Emisor block), passed as context.emisor',
    ...objectSchema(emisor.fields!),
  };
  return out;
}

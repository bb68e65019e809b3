/**
 * The DIAN examples (examples/dian/) against their golden XMLs (test/dian/fixtures/golden/; regenerate with
 * `npx tsx scripts/dian/goldens.ts` and review the diff): each example builds to exactly its golden bytes; each
 * golden is valid against the official XSDs, carries codes that recompute, parses back to its example (less the
 * fields the mapping does not write) and draws no Rechazo from DIAN's rules; each maximal example holds every
 * field the mapping writes for its kind but for the listed, explained omissions.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  checkDianRules,
  computeDocumentCodes,
  DIAN_FIELDS,
  fieldOn,
  parseDianDocument,
  readUbl,
  writtenFields,
  type DianKindId,
  type FieldDef,
} from '../../../src/dian/index.js';
import { UBL_MAP, isGroup, type MapItem } from '../../../src/dian/spec/ubl-map.js';
import { createDianSchemaValidator, detectDianSchemaId } from '../../../src/dian/xsd/index.js';
import { dianXsdDir } from '../helpers/env.js';
import { buildExample, EXAMPLE_KINDS, EXAMPLE_SIZES, exampleContext, exampleRequest, goldenFile } from '../helpers/examples.js';

const validator = createDianSchemaValidator(dianXsdDir());
const CASES = EXAMPLE_KINDS.flatMap((kind) => EXAMPLE_SIZES.map((size) => [kind, size] as const));
const golden = (kind: DianKindId, size: (typeof EXAMPLE_SIZES)[number]) => readFileSync(goldenFile(kind, size), 'utf8');

/** Request fields (top-level scope) the mapping writes as a default when absent, so that value reads back as absent. */
const DEFAULTS: ReadonlyMap<string, string> = (() => {
  const out = new Map<string, string>();
  const walk = (items: readonly MapItem[]) => {
    for (const item of items) {
      if (isGroup(item)) {
        if (item.each === null) walk(item.rows);
      } else if ('field' in item.from && item.default !== undefined) out.set(item.from.field, item.default);
    }
  };
  walk(UBL_MAP);
  return out;
})();

/** What the parser gives back for `value`: only the fields the mapping writes for `kind`, defaults dropped. */
function writtenPart(kind: DianKindId, value: unknown, path = ''): unknown {
  const written = writtenFields(kind);
  if (Array.isArray(value)) return value.map((v) => writtenPart(kind, v, `${path}.*`));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = path === '' ? k : `${path}.${k}`;
    if (written.has(p) && DEFAULTS.get(p) !== v) out[k] = writtenPart(kind, v, p);
  }
  return out;
}

/** Dotted paths (`*` for items) present in a value. */
function presentPaths(value: unknown, path = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) presentPaths(v, `${path}.*`, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      const p = path === '' ? k : `${path}.${k}`;
      out.add(p);
      presentPaths(v, p, out);
    }
  return out;
}

/** The fields of `kind` the mapping writes (objects and arrays included). */
function writableFields(kind: DianKindId): string[] {
  const written = writtenFields(kind);
  const out: string[] = [];
  const walk = (defs: readonly FieldDef[], base: string) => {
    for (const d of defs) {
      if (!fieldOn(d, kind)) continue;
      const p = base === '' ? d.key : `${base}.${d.key}`;
      if (!written.has(p)) continue;
      out.push(p);
      if (d.fields) walk(d.fields, d.type === 'array' ? `${p}.*` : p);
    }
  };
  walk(DIAN_FIELDS, '');
  return out;
}

/**
 * Written fields a maximal example leaves out on purpose (a field's children go with it). Keep examples/dian/README.md
 * in step.
 */
const OMITTED: Record<string, string> = {
  supplier: 'consortium members: the example issuer is not a consortium',
  payment_exchange_rate: 'only for a document in a foreign currency (present on the export invoice)',
  free_of_charge_indicator: 'obsolete since DIAN format 3.0 (accepted with a warning)',
  reference_price_code:
    "a free sample's reference price: the mapping copies price_amount into both cac:Price and AlternativeConditionPrice, so a free line (price 0, commercial value as reference) cannot be written as DIAN's sample does",
};
const OMITTED_ON: Partial<Record<DianKindId, Record<string, string>>> = {
  'export-invoice': {
    'customer.dv': 'a foreign buyer has no NIT check digit',
    'customer.municipality_code': 'a foreign buyer has no DANE municipality',
    withholding_tax_totals: 'no Colombian withholding on an export',
    information_content_provider_party: 'no mandate on an export',
    per_unit: 'no per-unit tax on an export',
  },
  'contingency-invoice': { algorithm: "a reference's algorithm equal to the one the kind implies (CUDE) reads back as absent" },
  pos: {
    'customer.dv': 'the buyer is a natural person identified by cédula',
    'customer.trade_name': 'the buyer is a natural person',
    credit_terms: 'a POS sale is paid at the counter',
    withholding_tax_totals: 'no withholding on a sale to a consumer',
    algorithm: "a reference's algorithm equal to the one the kind implies (CUDE) reads back as absent",
  },
  'credit-note-equivalent': {
    'customer.dv': 'the buyer is a natural person identified by cédula',
    'customer.trade_name': 'the buyer is a natural person',
    credit_terms: 'a return at the counter is settled in cash',
    per_unit: 'the returned item carries no per-unit tax',
  },
  'credit-note': { credit_terms: 'the credit is settled in cash', per_unit: 'the returned item carries no per-unit tax' },
  'note-support-invoice': {
    credit_terms: 'the adjustment is settled in cash',
    per_unit: 'a support document for a service carries no per-unit tax',
  },
  'support-invoice': {
    per_unit: 'a support document for a service carries no per-unit tax',
    information_content_provider_party: 'no mandate on a purchase from a natural person',
  },
  'debit-note': {
    discount_code: 'the debit note has a global charge, no global discount',
    multiplier_factor_numeric: 'the line charge is a fixed amount',
    per_unit: 'interest and expenses carry no per-unit tax',
  },
};

/** Why a written field is missing from the maximal example of `kind`, or undefined when it should be there. */
function omission(kind: DianKindId, path: string): string | undefined {
  const parts = path.split('.').filter((p) => p !== '*');
  const own = OMITTED_ON[kind] ?? {};
  for (const [key, why] of Object.entries(own)) {
    if (key === 'per_unit' && /(^|\.)tax_totals\.\*\.(per_unit_amount|base_unit_measure|unit_measure_code)$/.test(path)) return why;
    if (key === 'credit_terms' && /^payment_forms\.\*\.(payment_due_date|duration_measure)$/.test(path)) return why;
    if (key.includes('.') ? path === key : parts.includes(key)) return why;
  }
  for (const [key, why] of Object.entries(OMITTED)) if (parts.includes(key) && !(key === 'payment_exchange_rate' && kind === 'export-invoice')) return why;
  return undefined;
}

describe('DIAN examples and their golden XMLs', () => {
  it.each(CASES)('%s.%s builds to exactly its golden bytes, with no warning', (kind, size) => {
    const r = buildExample(kind, size);
    if (!r.ok) throw new Error(JSON.stringify(r.body));
    expect(r.warnings).toEqual([]);
    expect(r.xml === golden(kind, size), `${kind}.${size}: the build differs from its golden (regenerate: npx tsx scripts/dian/goldens.ts)`).toBe(true);
  });

  it.each(CASES)('%s.%s golden is valid against the official XSDs (unsigned)', (kind, size) => {
    const xml = golden(kind, size);
    const schema = detectDianSchemaId(xml);
    expect(schema).toBeTruthy();
    expect(validator.validate(xml, schema!, { unsigned: true }).violations).toEqual([]);
  });

  it.each(CASES)('%s.%s golden: its code and security code recompute from the tree', (kind, size) => {
    const read = readUbl(golden(kind, size));
    if (!read.ok) throw new Error(read.message);
    const ctx = exampleContext();
    const codes = computeDocumentCodes(read.root, { technicalKey: ctx.resolution?.technical_key, pin: ctx.software.pin });
    if (!codes.ok) throw new Error(codes.message);
    expect(codes.matches).toBe(true);
    expect(codes.schemeMatches).toBe(true);
    expect(codes.securityCode?.matches).toBe(true);
  });

  it.each(CASES)('%s.%s golden parses back to its example, less the fields not written', (kind, size) => {
    const parsed = parseDianDocument(golden(kind, size));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.kind).toBe(kind);
    expect(parsed.request).toEqual(writtenPart(kind, exampleRequest(kind, size)));
  });

  it.each(CASES)('%s.%s golden draws no Rechazo from DIAN rules', (kind, size) => {
    const read = readUbl(golden(kind, size));
    if (!read.ok) throw new Error(read.message);
    const today = exampleRequest(kind, size).date as string;
    expect(checkDianRules(read.root, { today }).filter((f) => f.kind === 'Rechazo')).toEqual([]);
  });

  it.each(EXAMPLE_KINDS)('%s.max holds every written field of its kind but the explained omissions', (kind) => {
    const present = presentPaths(exampleRequest(kind, 'max'));
    const missing = writableFields(kind).filter((p) => !present.has(p) && omission(kind, p) === undefined);
    expect(missing).toEqual([]);
    // An omission that no longer omits anything is stale.
    const omittedButPresent = writableFields(kind).filter((p) => present.has(p) && omission(kind, p) !== undefined);
    expect(omittedButPresent).toEqual([]);
  });

  it('the writtenPart comparison is not vacuous: a changed golden value no longer parses back to the example', () => {
    const xml = golden('invoice', 'max').replace('<cbc:Note>Garantía de 12 meses</cbc:Note>', '<cbc:Note>Garantía de 6 meses</cbc:Note>');
    const parsed = parseDianDocument(xml);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(isDeepStrictEqual(parsed.request, writtenPart('invoice', exampleRequest('invoice', 'max')))).toBe(false);
  });
});

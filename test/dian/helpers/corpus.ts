/**
 * A seeded generator of DIAN requests from the request description (src/dian/spec/fields.ts): for a kind, every
 * required field and a random half of the optional ones, with values of the declared types. The documents are
 * structurally valid (types, required fields, code shapes), not arithmetically consistent: they exercise the
 * builder, the XSDs and the parser, not DIAN's business rules. Same seed, same documents.
 */
import { DIAN_FIELDS, fieldOn, fieldRequired, type FieldDef } from '../../../src/dian/spec/fields.js';
import { DIAN_KINDS, type DianKindId } from '../../../src/dian/spec/kinds.js';

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['caja', 'tornillo', 'servicio', 'Bogotá', 'año', 'niño', 'café', 'A&B', '<x>', 'línea', 'pago', 'ñandú'];

export function generateRequest(kind: DianKindId, seed: number): Record<string, unknown> {
  const r = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
  const money = () => int(0, 50_000_000) / 100;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const date = () => `20${int(20, 29)}-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`;
  const time = () => `${String(int(0, 23)).padStart(2, '0')}:${String(int(0, 59)).padStart(2, '0')}:${String(int(0, 59)).padStart(2, '0')}`;

  const value = (d: FieldDef, path: string): unknown => {
    if (d.enum) return d.type === 'integer' ? Number(pick(d.enum)) : pick(d.enum);
    switch (d.key) {
      case 'document_type_code':
        return pick(DIAN_KINDS[kind].typeCodes);
      case 'email':
        return `${pick(['ventas', 'compras'])}@empresa${int(1, 9)}.co`;
      case 'phone':
        return `(60${int(1, 8)}) ${int(100, 999)}-${int(1000, 9999)}`;
      case 'uuid':
        return Array.from({ length: 96 }, () => '0123456789abcdef'[int(0, 15)]).join('');
      case 'currency_type_code':
        return path === 'currency_type_code' ? 'COP' : pick(['USD', 'EUR']);
      case 'country_code':
        return 'CO';
      case 'municipality_code':
        return pick(['11001', '05001', '76001']);
      case 'percent':
        return pick([0, 5, 8, 19, 16.5]);
      case 'prefix':
        return pick(['SETP', 'FE', 'NC', 'DS']);
      case 'description':
        return int(0, 3) === 0 ? `${words(2)};${words(1)}` : words(3);
      case 'vendor_code':
        return `V-${int(1, 99999)}`;
    }
    switch (d.type) {
      case 'string':
        return d.key.endsWith('_code') || d.key === 'dv' ? String(int(1, 99)).padStart(2, '0') : words(int(1, 4));
      case 'integer':
        return d.key === 'dv' ? int(0, 9) : int(1, 999_999);
      case 'number':
        return d.key.includes('quantity') || d.key === 'calculation_rate' || d.key === 'base_unit_measure' ? int(1, 100_000) / 1000 : money();
      case 'boolean':
        return r() < 0.5;
      case 'date':
        return date();
      case 'time':
        return time();
      case 'object':
        return object(d.fields ?? [], path);
      case 'array': {
        const n = d.maxItems === 1 ? 1 : int(1, 3);
        return Array.from({ length: n }, (_, i) => object(d.fields ?? [], `${path}.${i}`));
      }
    }
  };

  const object = (defs: readonly FieldDef[], path: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const d of defs) {
      if (!fieldOn(d, kind) || d.open || d.obsolete) continue;
      if (!fieldRequired(d, kind) && r() < 0.5) continue;
      out[d.key] = value(d, path === '' ? d.key : `${path}.${d.key}`);
    }
    // A per-unit tax base needs its unit (the XSD requires BaseUnitMeasure/@unitCode); a unit alone is not
    // written (nothing to qualify), so the generator does not send one.
    if ('tax_amount' in out || 'value' in out) {
      const qualified = out.base_unit_measure !== undefined || out.value_quantity !== undefined;
      // The spec types an item property's unit as an integer (default 94), a tax base's as a string.
      if (qualified) out.unit_measure_code = 'value' in out ? pick([94, 58]) : pick(['94', 'KGM', 'LTR']);
      else delete out.unit_measure_code;
    }
    // A reference's algorithm equal to what the kind implies reads back as absent.
    if (out.algorithm !== undefined && out.uuid !== undefined) delete out.algorithm;
    return out;
  };

  const req = object(DIAN_FIELDS, '');
  // Payment terms join their payment form by its code: one form per code.
  if (Array.isArray(req.payment_forms)) {
    const codes = new Set<unknown>();
    req.payment_forms = (req.payment_forms as Record<string, unknown>[]).filter((f) => !codes.has(f.payment_form_code) && codes.add(f.payment_form_code));
  }
  req.date ??= date();
  req.time ??= time();
  // Entries of one tax are written together in one TaxTotal (its RoundingAmount once): keep them together and
  // give the rounding amount to the first, as the parser returns them.
  const groupTaxes = (list: unknown) => {
    if (!Array.isArray(list)) return list;
    const order: string[] = [];
    for (const t of list as Record<string, unknown>[]) if (!order.includes(String(t.tax_code))) order.push(String(t.tax_code));
    const sorted = order.flatMap((c) => (list as Record<string, unknown>[]).filter((t) => String(t.tax_code) === c));
    const seen = new Set<string>();
    for (const t of sorted) {
      if (seen.has(String(t.tax_code))) delete t.rounding_amount;
      seen.add(String(t.tax_code));
    }
    return sorted;
  };
  req.tax_totals = groupTaxes(req.tax_totals);
  if (req.withholding_tax_totals) req.withholding_tax_totals = groupTaxes(req.withholding_tax_totals);
  for (const l of (req[DIAN_KINDS[kind].linesField] as Record<string, unknown>[] | undefined) ?? []) {
    l.tax_totals = groupTaxes(l.tax_totals);
    if (l.withholding_tax_totals) l.withholding_tax_totals = groupTaxes(l.withholding_tax_totals);
  }
  if (req.tax_totals === undefined) delete req.tax_totals;
  return req;
}

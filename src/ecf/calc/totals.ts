/**
 * Document totals as a pure calculation over the items: `computeTotals(tipo, doc)` returns the `totales` block a
 * document of that type should carry. Exact decimals only (calc/decimal.ts); money is rounded half-up to 2 decimals
 * at these named points and nowhere else:
 *
 * - **R1 line**: `monto = round(precio_unitario × cantidad − descuento_monto + recargo_monto)` (FMT §B field 39).
 * - **R2 base**: `monto_gravado_iN = Σ monto (indicador N) ± global discounts/surcharges (indicador N)`; when
 *   `id_doc.indicador_monto_gravado = 1` the line amounts include ITBIS and the sum is divided by (1 + rate) and
 *   rounded before the discounts/surcharges are applied (FMT §A.2 fields 93–95).
 * - **R3 ITBIS**: `total_itbisN = round((monto_gravado_iN + ISC in the base) × rate / 100)` (field 101: ISC codes
 *   006–039 form part of the ITBIS base).
 * - **R4 other additional taxes** (codes 001–005): `round(Σ base of the lines carrying the code × rate / 100)`
 *   (field 109; the base is net of ITBIS when `indicador_monto_gravado = 1`, with the global discounts/surcharges
 *   of the line's indicator prorated by line).
 *
 * Everything else is a sum of rounded values. Only keys the type's XSD allows appear (44 has no taxable/ITBIS keys,
 * 47 no ITBIS, 46 only rate 3), so a calculation never produces a key the shape layer would reject.
 */
import { ECF_TABLE } from '../spec/ecf-table.gen.js';
import type { EcfType } from '../spec/model.js';
import type { EcfDocument } from '../spec/ecf-types.gen.js';
import type { EcfDraft } from '../spec/documents.js';
import { jsonPathFor } from '../spec/tree.js';
import { add, div, fromInt, fromNumber, mul, round, sub, sum, toNumber, ZERO, type Dec } from '../../shared/money/decimal.js';

// biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
type Json = Record<string, any>;

/** ITBIS rate (percent) by `indicador_facturacion` 1–3 (DGII: tasa 1 18 %, tasa 2 16 %, tasa 3 0 %). */
export const ITBIS_RATES: Readonly<Record<1 | 2 | 3, number>> = { 1: 18, 2: 16, 3: 0 };

/**
 * Legal rates (percent) of the additional taxes computed as a percentage of the line amount (FMT Tabla I):
 * 001 propina legal 10 %, 002 CDT 2 %, 003 ISC seguros 16 %, 004 ISC telecomunicaciones 10 %, 005 primera placa 17 %.
 */
export const OTHER_TAX_RATES: Readonly<Record<string, number>> = { '001': 10, '002': 2, '003': 16, '004': 10, '005': 17 };

/** Which amount field of an additional-tax entry a code uses (FMT Tabla I, fields 107–109). */
export type AdditionalTaxKind = 'otros' | 'especifico' | 'advalorem';

/** `001`–`005` other taxes; `006`–`022` specific ISC; `023`–`039` ad-valorem ISC; null for anything else. */
export function additionalTaxKind(code: string): AdditionalTaxKind | null {
  if (!/^\d{3}$/.test(code)) return null;
  const n = Number(code);
  if (n >= 1 && n <= 5) return 'otros';
  if (n >= 6 && n <= 22) return 'especifico';
  if (n >= 23 && n <= 39) return 'advalorem';
  return null;
}

/** The JSON amount field of `totales.impuestos_adicionales[]` for each kind. */
export const ADDITIONAL_TAX_FIELD: Readonly<Record<AdditionalTaxKind, string>> = {
  otros: 'otros_impuestos_adicionales',
  especifico: 'monto_impuesto_selectivo_consumo_especifico',
  advalorem: 'monto_impuesto_selectivo_consumo_advalorem',
};

export interface OtherTaxCalc {
  /** Legal rate, percent. */
  rate: number;
  /** Σ base of the lines carrying the code (exact, not rounded). */
  base: Dec;
  /** round(base × rate / 100). */
  amount: Dec;
  /** Number of lines carrying the code (the tolerance of the comparison). */
  lines: number;
}

export interface ComputedTotals {
  /** The expected `totales` block (canonical JSON keys, numbers with at most 2 decimals), in table order. */
  totales: Record<string, number>;
  /** The same values as exact decimals. */
  exact: Record<string, Dec>;
  /** Per `indicador_facturacion` (0–4): number of lines and Σ of their declared `monto`. */
  lines: Record<number, { count: number; sum: Dec }>;
  /** Net global adjustment per indicator 1–4 (surcharges − discounts) applied to the bases. */
  adjustments: Record<number, Dec>;
  /** ISC amounts (codes 006–039) added to the ITBIS base of rate 1 and 2. */
  iscInBase: Record<number, Dec>;
  /** True when ITBIS is not expected: credit note with `indicador_nota_credito` 1 (more than 30 days). */
  itbisExcluded: boolean;
  /** True when a global discount carries `indicador_norma_1007` = 1 (Norma 10-07 telecom billing). */
  norma1007: boolean;
  /** Keys whose computed value is negative (a global discount larger than its base). */
  negative: string[];
  /** Codes 001–005 carried by items: computed amount, by code. */
  otherTaxes: Record<string, OtherTaxCalc>;
}

const HUNDRED = fromInt(100);
const ONE = fromInt(1);

function dec(v: unknown): Dec | null {
  return typeof v === 'number' ? fromNumber(v) : null;
}

function pct(rate: number): Dec {
  return div(fromNumber(rate) ?? ZERO, HUNDRED);
}

/** Line amount as an exact decimal: round(precio × cantidad − descuento + recargo). Null when price or quantity is missing. */
export function lineAmountDec(item: Json): Dec | null {
  const precio = dec(item?.precio_unitario);
  const cantidad = dec(item?.cantidad);
  if (precio === null || cantidad === null) return null;
  let v = mul(precio, cantidad);
  const d = dec(item.descuento_monto);
  const r = dec(item.recargo_monto);
  if (d !== null) v = sub(v, d);
  if (r !== null) v = add(v, r);
  return round(v, 2);
}

/**
 * `items[].monto` as DGII defines it: (precio_unitario × cantidad) − descuento_monto + recargo_monto, half-up to 2.
 * @example
 * lineAmount({ precio_unitario: 33.3333, cantidad: 3 }) //=> 100
 */
export function lineAmount(item: Record<string, unknown>): number {
  const v = lineAmountDec(item as Json);
  return v === null ? 0 : toNumber(v);
}

const keysCache = new Map<string, Set<string>>();

/** The `totales` value keys the type's XSD allows (`monto_gravado_i1`, …). */
export function totalesKeys(tipo: EcfType): Set<string> {
  let s = keysCache.get(tipo);
  if (s) return s;
  s = new Set();
  for (const row of ECF_TABLE.rows) {
    if (row.kind !== 'value' || !row.occurs[tipo]) continue;
    const p = jsonPathFor(row, tipo);
    if (p && /^totales\.[a-z0-9_]+$/.test(p)) s.add(p.slice('totales.'.length));
  }
  keysCache.set(tipo, s);
  return s;
}

/** Global adjustments: does any discount/surcharge carry Norma 10-07? */
function isNorma1007(doc: Json): boolean {
  return Array.isArray(doc.descuentos_recargos) && doc.descuentos_recargos.some((d: Json) => d?.indicador_norma_1007 === 1);
}

/** Codes (`tipo_impuesto`) an item carries. */
function itemTaxCodes(item: Json): string[] {
  const list = item?.impuestos_adicionales;
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const t of list) if (typeof t?.tipo_impuesto === 'string') out.push(t.tipo_impuesto);
  return out;
}

/** Amount of a global discount/surcharge: `monto`, or `valor` % of the lines of its indicator when only the percentage is given. */
export function adjustmentAmount(dr: Json, lineSum: Dec): Dec {
  const m = dec(dr?.monto);
  if (m !== null) return m;
  const v = dec(dr?.valor);
  if (dr?.tipo_valor === '%' && v !== null) return round(mul(lineSum, div(v, HUNDRED)), 2);
  return ZERO;
}

/**
 * Computes the `totales` block for a document of type `tipo` from its items, global discounts/surcharges, item-level
 * additional taxes and the ITBIS rates. Pure; never throws on a partial document (missing values count as absent).
 * @example
 * computeTotals('31', { items: [{ indicador_facturacion: 1, cantidad: 2, precio_unitario: 100, monto: 200 }] }).totales
 * //=> { monto_gravado_total: 200, monto_gravado_i1: 200, itbis1: 18, total_itbis: 36, total_itbis1: 36, monto_total: 236 }
 */
export function computeTotals(tipo: EcfType, doc: Record<string, unknown>): ComputedTotals {
  const d = (doc ?? {}) as Json;
  const allowed = totalesKeys(tipo);
  const items: Json[] = Array.isArray(d.items) ? d.items.filter((i: unknown) => typeof i === 'object' && i !== null) : [];
  const grossIncluded = d.id_doc?.indicador_monto_gravado === 1;
  const norma1007 = isNorma1007(d);
  const itbisExcluded = d.id_doc?.indicador_nota_credito === 1;

  const lines: Record<number, { count: number; sum: Dec }> = {};
  for (let i = 0; i <= 4; i++) lines[i] = { count: 0, sum: ZERO };
  // Norma 10-07: rate-1 lines are divided by (1 + 18 % + rates of codes 002/004 on the line).
  let norma1Net = ZERO;
  const lineAmt: Dec[] = [];
  for (const it of items) {
    const ind = it.indicador_facturacion;
    const amt = dec(it.monto) ?? lineAmountDec(it) ?? ZERO;
    lineAmt.push(amt);
    if (typeof ind !== 'number' || !(ind in lines)) continue;
    lines[ind]!.count++;
    lines[ind]!.sum = add(lines[ind]!.sum, amt);
    if (norma1007 && ind === 1) {
      let divisor = add(ONE, pct(ITBIS_RATES[1]));
      for (const c of itemTaxCodes(it)) if (c === '002' || c === '004') divisor = add(divisor, pct(OTHER_TAX_RATES[c]!));
      norma1Net = add(norma1Net, div(amt, divisor));
    }
  }

  // Global discounts (D) and surcharges (R), by indicator.
  const adjustments: Record<number, Dec> = { 1: ZERO, 2: ZERO, 3: ZERO, 4: ZERO };
  let normaDiscount = ZERO;
  const drs: Json[] = Array.isArray(d.descuentos_recargos) ? d.descuentos_recargos : [];
  for (const dr of drs) {
    const ind = dr?.indicador_facturacion;
    if (typeof ind !== 'number' || !(ind in adjustments)) continue;
    const m = adjustmentAmount(dr, lines[ind]!.sum);
    if (dr.tipo_ajuste === 'D') {
      // Norma 10-07: the discount is not taken off the taxable amount; it reduces the amount to pay.
      if (norma1007 && dr.indicador_norma_1007 === 1) normaDiscount = add(normaDiscount, m);
      else adjustments[ind] = sub(adjustments[ind]!, m);
    } else if (dr.tipo_ajuste === 'R') adjustments[ind] = add(adjustments[ind]!, m);
  }

  const bases: Record<number, Dec | null> = { 1: null, 2: null, 3: null };
  for (const ind of [1, 2, 3] as const) {
    if (lines[ind]!.count === 0) continue;
    const rate = ITBIS_RATES[ind];
    let raw: Dec;
    if (norma1007 && ind === 1) raw = round(norma1Net, 2);
    else if (grossIncluded && rate > 0) raw = round(div(lines[ind]!.sum, add(ONE, pct(rate))), 2);
    else raw = lines[ind]!.sum;
    bases[ind] = add(raw, adjustments[ind]!);
  }
  const exento = lines[4]!.count > 0 ? add(lines[4]!.sum, adjustments[4]!) : null;
  const noFacturable = lines[0]!.count > 0 ? lines[0]!.sum : null;

  // Declared additional taxes (totales.impuestos_adicionales) and the ISC part of the ITBIS base.
  const declaredTaxes: Json[] = Array.isArray(d.totales?.impuestos_adicionales)
    ? d.totales.impuestos_adicionales.filter((t: unknown) => t && typeof t === 'object')
    : [];
  const iscInBase: Record<number, Dec> = { 1: ZERO, 2: ZERO };
  const codeIndicator = new Map<string, number>();
  items.forEach((it) => {
    for (const c of itemTaxCodes(it)) if (!codeIndicator.has(c) && typeof it.indicador_facturacion === 'number') codeIndicator.set(c, it.indicador_facturacion);
  });
  let declaredAdditional = ZERO;
  const declaredCodes = new Set<string>();
  for (const t of declaredTaxes) {
    const amounts = [t.monto_impuesto_selectivo_consumo_especifico, t.monto_impuesto_selectivo_consumo_advalorem, t.otros_impuestos_adicionales];
    const total = sum(amounts.map((v) => dec(v) ?? ZERO));
    declaredAdditional = add(declaredAdditional, total);
    if (typeof t.tipo_impuesto === 'string') declaredCodes.add(t.tipo_impuesto);
    const kind = typeof t.tipo_impuesto === 'string' ? additionalTaxKind(t.tipo_impuesto) : null;
    if (kind === 'especifico' || kind === 'advalorem') {
      const ind = codeIndicator.get(t.tipo_impuesto);
      const isc = add(dec(t.monto_impuesto_selectivo_consumo_especifico) ?? ZERO, dec(t.monto_impuesto_selectivo_consumo_advalorem) ?? ZERO);
      if (ind === 1 || ind === 2) iscInBase[ind] = add(iscInBase[ind]!, isc);
    }
  }

  // Other additional taxes (001–005) computed from the lines carrying them.
  const otherTaxes: Record<string, OtherTaxCalc> = {};
  items.forEach((it, i) => {
    const codes = itemTaxCodes(it);
    if (codes.length === 0) return;
    const ind = it.indicador_facturacion;
    const amt = lineAmt[i]!;
    for (const code of codes) {
      const rate = OTHER_TAX_RATES[code];
      if (rate === undefined) continue;
      let base = amt;
      if (norma1007 && ind === 1 && (code === '002' || code === '004')) {
        let divisor = add(ONE, pct(ITBIS_RATES[1]));
        for (const c of codes) if (c === '002' || c === '004') divisor = add(divisor, pct(OTHER_TAX_RATES[c]!));
        base = div(amt, divisor);
      } else if (grossIncluded && code !== '005' && (ind === 1 || ind === 2)) {
        base = div(amt, add(ONE, pct(ITBIS_RATES[ind as 1 | 2])));
      }
      // Global discounts/surcharges of the line's indicator, prorated by the line's share.
      if (typeof ind === 'number' && ind >= 1 && ind <= 4 && adjustments[ind] !== ZERO && lines[ind]!.sum !== ZERO) {
        base = add(base, div(mul(adjustments[ind]!, amt), lines[ind]!.sum));
      }
      const o = (otherTaxes[code] ??= { rate, base: ZERO, amount: ZERO, lines: 0 });
      o.base = add(o.base, base);
      o.lines++;
    }
  });
  for (const o of Object.values(otherTaxes)) o.amount = round(mul(o.base, pct(o.rate)), 2);
  // Codes on items but not declared still count in the total (computable ones only).
  let additional = declaredAdditional;
  for (const [code, o] of Object.entries(otherTaxes)) if (!declaredCodes.has(code)) additional = add(additional, o.amount);

  // Assemble in table order, only keys the type allows.
  const exact: Record<string, Dec> = {};
  const put = (k: string, v: Dec | null) => {
    if (v !== null && allowed.has(k)) exact[k] = v;
  };
  const gravados: Dec[] = [];
  const itbisTotals: Dec[] = [];
  for (const ind of [1, 2, 3] as const) {
    const b = bases[ind];
    if (b === null || !allowed.has(`monto_gravado_i${ind}`)) continue;
    gravados.push(b);
    if (itbisExcluded) continue;
    const isc = iscInBase[ind] ?? ZERO;
    itbisTotals.push(round(mul(add(b, isc), pct(ITBIS_RATES[ind])), 2));
  }
  put('monto_gravado_total', gravados.length ? sum(gravados) : null);
  for (const ind of [1, 2, 3] as const) put(`monto_gravado_i${ind}`, bases[ind]);
  put('monto_exento', exento);
  if (!itbisExcluded) {
    for (const ind of [1, 2, 3] as const) if (bases[ind] !== null && allowed.has(`monto_gravado_i${ind}`)) put(`itbis${ind}`, fromInt(ITBIS_RATES[ind]));
    const itbisByRate: Record<number, Dec> = {};
    let k = 0;
    for (const ind of [1, 2, 3] as const) if (bases[ind] !== null && allowed.has(`monto_gravado_i${ind}`)) itbisByRate[ind] = itbisTotals[k++]!;
    put('total_itbis', itbisTotals.length ? sum(itbisTotals) : null);
    for (const ind of [1, 2, 3] as const) put(`total_itbis${ind}`, itbisByRate[ind] ?? null);
  }
  const additionalAllowed = allowed.has('monto_impuesto_adicional');
  if (additionalAllowed && additional > 0n) put('monto_impuesto_adicional', additional);
  const montoTotal = sum([exact.monto_gravado_total ?? ZERO, exact.monto_exento ?? ZERO, exact.total_itbis ?? ZERO, additionalAllowed ? additional : ZERO]);
  put('monto_total', montoTotal);
  put('monto_no_facturable', noFacturable);
  const t = (d.totales ?? {}) as Json;
  if (t.monto_periodo !== undefined) put('monto_periodo', add(montoTotal, exact.monto_no_facturable ?? ZERO));
  if (t.valor_pagar !== undefined) {
    let v = sub(sub(montoTotal, dec(t.monto_avance_pago) ?? ZERO), normaDiscount);
    v = add(v, dec(t.saldo_anterior) ?? ZERO);
    put('valor_pagar', v);
  }
  // Withholding (indicador 1, retención) and perception (indicador 2, percepción) totals from the items.
  const ret = { itbisR: [] as Dec[], isrR: [] as Dec[], itbisP: [] as Dec[], isrP: [] as Dec[] };
  for (const it of items) {
    const r = it.retencion;
    if (!r || typeof r !== 'object') continue;
    const perc = r.indicador === '2';
    const itbis = dec(r.monto_itbis_retenido);
    const isr = dec(r.monto_isr_retenido ?? r.isr_retenido);
    if (itbis !== null) (perc ? ret.itbisP : ret.itbisR).push(itbis);
    if (isr !== null) (perc ? ret.isrP : ret.isrR).push(isr);
  }
  put('total_itbis_retenido', ret.itbisR.length ? sum(ret.itbisR) : null);
  put('total_isr_retencion', ret.isrR.length ? sum(ret.isrR) : null);
  put('total_itbis_percepcion', ret.itbisP.length ? sum(ret.itbisP) : null);
  put('total_isr_percepcion', ret.isrP.length ? sum(ret.isrP) : null);

  const totales: Record<string, number> = {};
  const negative: string[] = [];
  for (const [k, v] of Object.entries(exact)) {
    totales[k] = toNumber(v);
    if (v < 0n) negative.push(k);
  }
  return { totales, exact, lines, adjustments, iscInBase, itbisExcluded, norma1007, negative, otherTaxes };
}

/**
 * Returns a copy of `doc` with every missing `items[].monto` filled (`lineAmount`), `totales.impuestos_adicionales`
 * completed for codes 001–005 carried by items (legal rate, computed amount; ISC codes 006–039 must be given by the
 * caller) and `totales` replaced by the computed block (keeping `saldo_anterior`, `monto_avance_pago`, `monto_periodo`,
 * `valor_pagar` and the declared additional taxes). For fixtures and builders of valid documents.
 * @example
 * fillTotals('32', { id_doc: {…}, items: [{ indicador_facturacion: 4, nombre: 'Pan', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 50 }] }).totales
 * //=> { monto_exento: 50, monto_total: 50 }
 */
export function fillTotals<T extends EcfType>(tipo: T, doc: EcfDraft<T>): EcfDocument<T>;
/** Untyped form (any JSON object): the same calculation; the result is what `buildEcfXmlFromJson` takes. */
export function fillTotals<T extends Record<string, unknown>>(tipo: EcfType, doc: T): T & { totales: Record<string, unknown> };
export function fillTotals(tipo: EcfType, doc: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(doc) as Json;
  if (Array.isArray(out.items)) {
    for (const it of out.items) if (it && typeof it === 'object' && it.monto === undefined) it.monto = lineAmount(it);
  }
  const declared: Json = out.totales && typeof out.totales === 'object' ? out.totales : {};
  const keep: Json = {};
  for (const k of ['saldo_anterior', 'monto_avance_pago', 'monto_periodo', 'valor_pagar']) if (declared[k] !== undefined) keep[k] = declared[k];
  const taxesAllowed = totalesKeys(tipo).has('monto_impuesto_adicional');
  const taxes: Json[] = Array.isArray(declared.impuestos_adicionales) ? [...declared.impuestos_adicionales] : [];
  out.totales = { ...keep, ...(taxes.length ? { impuestos_adicionales: taxes } : {}) };
  if (taxesAllowed) {
    const pre = computeTotals(tipo, out);
    const have = new Set(taxes.map((t) => t?.tipo_impuesto));
    for (const [code, o] of Object.entries(pre.otherTaxes)) {
      if (have.has(code) || o.amount <= 0n) continue;
      taxes.push({ tipo_impuesto: code, tasa_impuesto_adicional: o.rate, otros_impuestos_adicionales: toNumber(o.amount) });
    }
    if (taxes.length) out.totales.impuestos_adicionales = taxes;
  }
  const c = computeTotals(tipo, out);
  out.totales = { ...c.totales, ...keep, ...(out.totales.impuestos_adicionales ? { impuestos_adicionales: out.totales.impuestos_adicionales } : {}) };
  if (keep.monto_periodo !== undefined && c.totales.monto_periodo !== undefined) out.totales.monto_periodo = c.totales.monto_periodo;
  if (keep.valor_pagar !== undefined && c.totales.valor_pagar !== undefined) out.totales.valor_pagar = c.totales.valor_pagar;
  return out;
}

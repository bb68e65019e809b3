/**
 * Layer 3: the declared `totales` against `computeTotals` (calc/totals.ts). Two rules share one cached calculation:
 * which keys must (or must not) be present given the billing indicators of the items, and whether each amount
 * reconciles within the DGII tolerance (IT §12: one currency unit per detail line on document totals).
 */
import { sub, ZERO, type Dec } from '../../../shared/money/decimal.js';
import { ITBIS_RATES, totalesKeys, type ComputedTotals } from '../../calc/totals.js';
import type { Issue } from '../../../shared/issues.js';
import { ruleIssue, type Rule } from '../rule.js';
import { compareAmounts, d, documentTolerance, fmt, INDICATOR_NAME, totalsOf, type Json } from './shared.js';

/** Keys the calculation never derives: inputs of the caller. */
const INPUT_KEYS = new Set(['saldo_anterior', 'monto_avance_pago', 'monto_periodo', 'valor_pagar']);
const ITBIS_KEY = /^(itbis[123]|total_itbis[123]?)$/;

function indicatorOf(key: string): number | null {
  const m = /^(?:monto_gravado_i|itbis|total_itbis)([123])$/.exec(key);
  if (m) return Number(m[1]);
  if (key === 'monto_exento') return 4;
  if (key === 'monto_no_facturable') return 0;
  return null;
}

function presenceReason(key: string, c: ComputedTotals): string {
  const ind = indicatorOf(key);
  if (ind !== null) return `hay ${c.lines[ind]!.count} ítem(s) con indicador_facturacion ${ind} (${INDICATOR_NAME[ind]})`;
  if (key === 'monto_gravado_total' || key === 'total_itbis') return 'hay montos gravados con ITBIS';
  if (key === 'monto_impuesto_adicional') return 'hay impuestos adicionales';
  if (key === 'total_itbis_retenido') return 'hay ítems con retencion.monto_itbis_retenido';
  if (key === 'total_isr_retencion') return 'hay ítems con ISR retenido';
  if (key === 'total_itbis_percepcion' || key === 'total_isr_percepcion') return 'hay ítems con percepción (retencion.indicador "2")';
  return 'lo exigen los ítems';
}

function absenceReason(key: string): string {
  const ind = indicatorOf(key);
  if (ind !== null) return `ningún ítem tiene indicador_facturacion ${ind} (${INDICATOR_NAME[ind]})`;
  if (key === 'monto_gravado_total' || key === 'total_itbis') return 'no hay montos gravados con ITBIS';
  if (key === 'monto_impuesto_adicional') return 'no hay impuestos adicionales declarados';
  if (key === 'total_itbis_retenido') return 'ningún ítem declara retencion.monto_itbis_retenido';
  if (key === 'total_isr_retencion') return 'ningún ítem declara ISR retenido';
  if (key === 'total_itbis_percepcion' || key === 'total_isr_percepcion') return 'ningún ítem declara percepción (retencion.indicador "2")';
  return 'no se deriva de los ítems';
}

function value(key: string, v: Dec): string {
  return /^itbis[123]$/.test(key) ? String(ITBIS_RATES[Number(key.slice(5)) as 1 | 2 | 3]) : fmt(v);
}

export const totalesCondicionales: Rule = {
  id: 'ECF-TOT-CONDICIONAL',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.2 (campos 92–119, código de obligatoriedad 2); spec: Frequent validation errors',
  description:
    'Conditional totals follow the billing indicators: a base with items of indicator N requires monto_gravado_iN, itbisN and total_itbisN (46: monto_gravado_i3, itbis3 = 0, total_itbis3 = 0); exempt items require monto_exento, non-billable items monto_no_facturable, withholding requires its totals; a non-zero amount with no items behind it is rejected (a zero one: ECF-TOT-CERO).',
  check({ tipo, doc }) {
    const t: Json = doc.totales;
    if (!t || typeof t !== 'object') return [];
    const c = totalsOf(tipo, doc);
    const issues: Issue[] = [];
    for (const [k, v] of Object.entries(c.exact)) {
      if (k === 'monto_total' || INPUT_KEYS.has(k) || t[k] !== undefined) continue;
      issues.push(ruleIssue(this.id, `totales.${k}`, `Requerido: ${presenceReason(k, c)}; se esperaba ${value(k, v)}.`, 'required', { expected: value(k, v) }));
    }
    for (const k of totalesKeys(tipo)) {
      if (t[k] === undefined || k in c.exact || INPUT_KEYS.has(k)) continue;
      if (c.itbisExcluded && ITBIS_KEY.test(k)) continue; // ECF-NC-SIN-ITBIS reports these.
      if (isZero(t[k])) continue; // ECF-TOT-CERO reports these (a warning).
      issues.push(ruleIssue(this.id, `totales.${k}`, `No corresponde: ${absenceReason(k)}; omita este campo.`, 'totals'));
    }
    return issues;
  },
};

/** A declared amount equal to zero (rate fields such as itbis1 = 18 are not amounts and never zero here). */
function isZero(v: unknown): boolean {
  const x = d(v);
  return x !== null && x === ZERO;
}

export const totalesCeroSinItems: Rule = {
  id: 'ECF-TOT-CERO',
  appliesTo: 'all',
  source:
    'spec: Frequent validation errors (conditional totals); DGII accepts them: a 32 with MontoGravadoTotal and TotalITBIS 0.00 and no taxed lines was accepted (issue 15)',
  description:
    'A conditional totals amount declared as 0 with no items behind it (e.g. monto_gravado_total and total_itbis 0.00 without taxed lines): the XSD allows it and DGII accepts it, so the advice to omit it is a warning.',
  check({ tipo, doc }) {
    const t: Json = doc.totales;
    if (!t || typeof t !== 'object') return [];
    const c = totalsOf(tipo, doc);
    const issues: Issue[] = [];
    for (const k of totalesKeys(tipo)) {
      if (t[k] === undefined || k in c.exact || INPUT_KEYS.has(k) || !isZero(t[k])) continue;
      if (c.itbisExcluded && ITBIS_KEY.test(k)) continue; // ECF-NC-SIN-ITBIS reports these.
      issues.push(ruleIssue(this.id, `totales.${k}`, `Monto en 0 sin ítems que lo originen (${absenceReason(k)}); puede omitir este campo.`, 'totals'));
    }
    return issues;
  },
};

function explain(key: string, c: ComputedTotals, doc: Json): string {
  const ind = indicatorOf(key);
  if (/^monto_gravado_i[123]$/.test(key) && ind !== null) {
    const parts = [`suma de los montos de los ítems con indicador_facturacion ${ind}: ${fmt(c.lines[ind]!.sum)}`];
    if (c.norma1007 && ind === 1) parts.push('dividida entre (1 + ITBIS + CDT/ISC telecomunicaciones) por la Norma 10-07');
    else if (doc.id_doc?.indicador_monto_gravado === 1 && ITBIS_RATES[ind as 1 | 2 | 3] > 0)
      parts.push(`dividida entre 1.${ITBIS_RATES[ind as 1 | 2 | 3]} porque indicador_monto_gravado es 1`);
    const adj = c.adjustments[ind] ?? ZERO;
    if (adj !== ZERO) parts.push(`${adj < 0n ? 'menos' : 'más'} descuentos/recargos globales ${fmt(adj < 0n ? sub(ZERO, adj) : adj)}`);
    return parts.join(', ');
  }
  if (/^total_itbis[123]$/.test(key) && ind !== null) {
    const base = c.exact[`monto_gravado_i${ind}`] ?? ZERO;
    const isc = c.iscInBase[ind] ?? ZERO;
    return `monto_gravado_i${ind} ${fmt(base)}${isc !== ZERO ? ` + ISC ${fmt(isc)}` : ''} × ${ITBIS_RATES[ind as 1 | 2 | 3]} %`;
  }
  switch (key) {
    case 'monto_gravado_total':
      return [1, 2, 3]
        .filter((i) => c.exact[`monto_gravado_i${i}`] !== undefined)
        .map((i) => `monto_gravado_i${i} ${fmt(c.exact[`monto_gravado_i${i}`]!)}`)
        .join(' + ');
    case 'total_itbis':
      return [1, 2, 3]
        .filter((i) => c.exact[`total_itbis${i}`] !== undefined)
        .map((i) => `total_itbis${i} ${fmt(c.exact[`total_itbis${i}`]!)}`)
        .join(' + ');
    case 'monto_exento': {
      const adj = c.adjustments[4] ?? ZERO;
      return `suma de los montos de los ítems exentos (indicador_facturacion 4): ${fmt(c.lines[4]!.sum)}${adj !== ZERO ? `, ajustes globales ${fmt(adj)}` : ''}`;
    }
    case 'monto_no_facturable':
      return 'suma de los montos de los ítems con indicador_facturacion 0';
    case 'monto_impuesto_adicional':
      return 'suma de los montos de totales.impuestos_adicionales';
    case 'monto_periodo':
      return 'monto_total + monto_no_facturable';
    case 'valor_pagar':
      return 'monto_total − monto_avance_pago + saldo_anterior';
    case 'total_itbis_retenido':
      return 'suma de retencion.monto_itbis_retenido de los ítems';
    case 'total_isr_retencion':
      return 'suma del ISR retenido de los ítems';
    case 'total_itbis_percepcion':
      return 'suma de retencion.monto_itbis_retenido de los ítems con percepción';
    case 'total_isr_percepcion':
      return 'suma del ISR de los ítems con percepción';
    default:
      return 'cálculo a partir de los ítems';
  }
}

export const totalesCuadre: Rule = {
  id: 'ECF-TOT-CUADRE',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.2 (campos 92–117); DGII IT §12 (cuadratura, tolerancia global = número de líneas)',
  description:
    'Every declared totales amount equals the calculation from the items (computeTotals): bases per rate, ITBIS per rate, exempt, non-billable, additional taxes, monto_total = gravado + ITBIS + exento + impuestos adicionales, withholding totals, monto_periodo and valor_pagar. Beyond the global tolerance (one unit per line) it is an error (code totals); within it but not exact, a warning.',
  check({ tipo, doc }) {
    const t: Json = doc.totales;
    if (!t || typeof t !== 'object') return [];
    const c = totalsOf(tipo, doc);
    const tol = documentTolerance(doc);
    const issues: Issue[] = [];
    for (const [k, expected] of Object.entries(c.exact)) {
      if (/^itbis[123]$/.test(k)) continue; // rates: ECF-ITBIS-TASAS
      const declared = d(t[k]);
      if (declared === null) continue;
      const issue =
        k === 'monto_total'
          ? compareAmounts(this.id, 'totales.monto_total', declared, expected, tol, (e, g) => {
              const gravado = c.exact.monto_gravado_total ?? ZERO;
              const itbis = c.exact.total_itbis ?? ZERO;
              const exento = c.exact.monto_exento ?? ZERO;
              const adicional = sub(sub(sub(expected, gravado), itbis), exento);
              return `El total no cuadra: se esperaba ${e} (monto gravado ${fmt(gravado)} + ITBIS ${fmt(itbis)} + exento ${fmt(exento)} + impuestos adicionales ${fmt(adicional)}), se recibió ${g}.`;
            })
          : compareAmounts(
              this.id,
              `totales.${k}`,
              declared,
              expected,
              tol,
              (e, g) => `totales.${k} no cuadra: se esperaba ${e} (${explain(k, c, doc)}), se recibió ${g}.`,
            );
      if (issue) issues.push(issue);
    }
    return issues;
  },
};

export const itbisTasas: Rule = {
  id: 'ECF-ITBIS-TASAS',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.2 campos 97–99 (ITBIS1 18 %, ITBIS2 16 %, ITBIS3 0 %)',
  description: 'The rate fields carry the rate number of their tier: itbis1 = 18, itbis2 = 16, itbis3 = 0.',
  check({ doc }) {
    const t: Json = doc.totales;
    if (!t || typeof t !== 'object') return [];
    const issues: Issue[] = [];
    for (const n of [1, 2, 3] as const) {
      const v = t[`itbis${n}`];
      if (typeof v === 'number' && v !== ITBIS_RATES[n]) {
        issues.push(ruleIssue(this.id, `totales.itbis${n}`, `La tasa ITBIS ${n} es ${ITBIS_RATES[n]}; se recibió ${v}.`, 'rule', { expected: ITBIS_RATES[n] }));
      }
    }
    return issues;
  },
};

const NC_ITBIS_KEYS = ['itbis1', 'itbis2', 'itbis3', 'total_itbis', 'total_itbis1', 'total_itbis2', 'total_itbis3'];
/** A rate field (itbis1 = 18) or an ITBIS amount of 0: says "no ITBIS" in DGII's own terms, the XSD allows it. */
const harmlessItbis = (k: string, v: unknown) => /^itbis[123]$/.test(k) || isZero(v);
const NC_SIN_ITBIS_MESSAGE =
  'No se declara ITBIS: con indicador_nota_credito 1 (emitida después de 30 días) la nota de crédito devuelve solo el precio, sin ITBIS; omita este campo.';

export const notaCreditoSinItbis: Rule = {
  id: 'ECF-NC-SIN-ITBIS',
  appliesTo: ['34'],
  source: 'spec: Particularities by type / Type 34; DGII Formato e-CF §A campo 5 (IndicadorNotaCredito)',
  description:
    'A credit note with indicador_nota_credito = 1 (more than 30 days) returns the price only: no ITBIS amount other than 0 may be declared in totales (rates and zero amounts: ECF-NC-SIN-ITBIS-CERO).',
  check({ doc }) {
    if (doc.id_doc?.indicador_nota_credito !== 1) return [];
    const t: Json = doc.totales;
    if (!t || typeof t !== 'object') return [];
    return NC_ITBIS_KEYS.filter((k) => t[k] !== undefined && !harmlessItbis(k, t[k])).map((k) => ruleIssue(this.id, `totales.${k}`, NC_SIN_ITBIS_MESSAGE));
  },
};

export const notaCreditoSinItbisCero: Rule = {
  id: 'ECF-NC-SIN-ITBIS-CERO',
  appliesTo: ['34'],
  source:
    'spec: Particularities by type / Type 34 ("no ITBIS should be declared in totals"); the XSD allows the elements and a zero amount carries no ITBIS (issue 15)',
  description:
    'A credit note with indicador_nota_credito = 1 that declares ITBIS rate fields or ITBIS amounts of 0: the spec says to omit them, DGII is not known to refuse them: a warning.',
  check({ doc }) {
    if (doc.id_doc?.indicador_nota_credito !== 1) return [];
    const t: Json = doc.totales;
    if (!t || typeof t !== 'object') return [];
    return NC_ITBIS_KEYS.filter((k) => t[k] !== undefined && harmlessItbis(k, t[k])).map((k) => ruleIssue(this.id, `totales.${k}`, NC_SIN_ITBIS_MESSAGE));
  },
};

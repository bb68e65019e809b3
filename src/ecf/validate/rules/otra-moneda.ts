/**
 * Other currency (`otra_moneda`, `items[].otra_moneda`, `descuentos_recargos[].monto_otra_moneda`). The amounts in
 * the other currency are the DOP amounts divided by `tipo_cambio` (DGII Formato e-CF §A.7 campos 134–137). Converted
 * amounts are inherently approximate (rates have 4 decimals, each side is rounded on its own), so only differences
 * beyond the tolerance are reported (errors); there is no "within tolerance" warning here.
 */
import { add, div, mul, round, sub, toText, ZERO, type Dec } from '../../../shared/money/decimal.js';
import type { Issue } from '../../../shared/issues.js';
import type { EcfType } from '../../spec/model.js';
import { ruleIssue, type Rule } from '../rule.js';
import { allows, compareAmounts, d, documentTolerance, entries, fmt, isObj, itemsOf, LINE_TOLERANCE, type Json } from './shared.js';

/** Header amounts that mirror a `totales` key of the same name. */
const MIRRORED = [
  'monto_gravado_total',
  'monto_gravado_i1',
  'monto_gravado_i2',
  'monto_gravado_i3',
  'monto_exento',
  'total_itbis',
  'total_itbis1',
  'total_itbis2',
  'total_itbis3',
  'monto_impuesto_adicional',
  'monto_total',
] as const;

const TAX_AMOUNTS = ['monto_impuesto_selectivo_consumo_especifico', 'monto_impuesto_selectivo_consumo_advalorem', 'otros_impuestos_adicionales'] as const;

/** Only errors beyond the tolerance (conversions are approximate by nature). */
function converted(ruleId: string, path: string, declared: Dec, dop: Dec, rate: Dec, tol: Dec, what: string): Issue | null {
  const expected = round(div(dop, rate), 2);
  const issue = compareAmounts(
    ruleId,
    path,
    declared,
    expected,
    tol,
    (e, g) => `${what} en otra moneda no corresponde al monto en pesos: se esperaba ${e} (${fmt(dop)} / tipo_cambio ${toText(rate, 0, 4)}), se recibió ${g}.`,
  );
  return issue && issue.severity === 'error' ? issue : null;
}

function rateText(v: unknown): Dec | null {
  const r = d(v);
  return r !== null && r > 0n ? r : null;
}

export const otraMonedaTipo: Rule = {
  id: 'ECF-OM-TIPO',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.7 campos 120–121 (tipo de cambio condicional al código de moneda)',
  description: 'When otra_moneda is sent, tipo_moneda and tipo_cambio are both present.',
  check({ doc }) {
    const om = doc.otra_moneda;
    if (!isObj(om)) return [];
    const issues: Issue[] = [];
    if (om.tipo_moneda === undefined)
      issues.push(ruleIssue(this.id, 'otra_moneda.tipo_moneda', 'Requerido: con otra_moneda indique el código de la moneda (por ejemplo "USD").', 'required'));
    if (om.tipo_cambio === undefined)
      issues.push(
        ruleIssue(this.id, 'otra_moneda.tipo_cambio', 'Requerido: con otra_moneda indique el tipo de cambio (pesos por unidad de la otra moneda).', 'required'),
      );
    return issues;
  },
};

function headerChecks(ruleId: string, tipo: EcfType, doc: Json, rate: Dec): Issue[] {
  const om: Json = doc.otra_moneda;
  const t: Json = isObj(doc.totales) ? doc.totales : {};
  const tol = documentTolerance(doc);
  const issues: Issue[] = [];
  for (const k of MIRRORED) {
    const x = d(om[k]);
    const dop = d(t[k]);
    const p = `otra_moneda.${k}`;
    // A zero on one side with nothing on the other says nothing DGII refuses (issue 15): ECF-OM-CERO warns.
    if ((x === ZERO && dop === null) || (x === null && dop === ZERO)) continue;
    if (x !== null && dop === null) issues.push(ruleIssue(ruleId, p, `No corresponde: totales.${k} no está declarado en pesos.`, 'totals'));
    else if (x === null && dop !== null && allows(tipo, p)) {
      issues.push(
        ruleIssue(
          ruleId,
          p,
          `Requerido: totales.${k} está declarado; indique su equivalente en otra moneda (se esperaba ${fmt(round(div(dop, rate), 2))}).`,
          'required',
        ),
      );
    } else if (x !== null && dop !== null) {
      const issue = converted(ruleId, p, x, dop, rate, tol, k);
      if (issue) issues.push(issue);
    }
  }
  const dopTaxes = new Map<string, Json>();
  for (const [, e] of entries(t.impuestos_adicionales)) if (typeof e.tipo_impuesto === 'string') dopTaxes.set(e.tipo_impuesto, e);
  for (const [j, e] of entries(om.impuestos_adicionales)) {
    const p = `otra_moneda.impuestos_adicionales.${j}`;
    const base = typeof e.tipo_impuesto === 'string' ? dopTaxes.get(e.tipo_impuesto) : undefined;
    if (!base) {
      issues.push(ruleIssue(ruleId, `${p}.tipo_impuesto`, `El impuesto ${String(e.tipo_impuesto ?? '')} no está en totales.impuestos_adicionales.`, 'rule'));
      continue;
    }
    if (e.tasa_impuesto_adicional !== undefined && e.tasa_impuesto_adicional !== base.tasa_impuesto_adicional) {
      issues.push(
        ruleIssue(
          ruleId,
          `${p}.tasa_impuesto_adicional`,
          `La tasa debe ser la misma que en totales.impuestos_adicionales (${base.tasa_impuesto_adicional}); se recibió ${e.tasa_impuesto_adicional}.`,
          'rule',
        ),
      );
    }
    for (const f of TAX_AMOUNTS) {
      const x = d(e[f]);
      const dop = d(base[f]);
      if (x === null || dop === null) continue;
      const issue = converted(ruleId, `${p}.${f}`, x, dop, rate, tol, f);
      if (issue) issues.push(issue);
    }
  }
  return issues;
}

export const otraMonedaCero: Rule = {
  id: 'ECF-OM-CERO',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.7 campos 122–137; the XSD allows a 0 counterpart, like the 0 totals of ECF-TOT-CERO (issue 15)',
  description:
    'An otra_moneda amount declared as 0 whose totales amount is absent (or a totales amount of 0 without its counterpart): a warning, not the ECF-OM-MONTOS error.',
  check({ doc }) {
    const om = doc.otra_moneda;
    if (!isObj(om)) return [];
    const t: Json = isObj(doc.totales) ? doc.totales : {};
    return MIRRORED.filter((k) => d(om[k]) === ZERO && d(t[k]) === null).map((k) =>
      ruleIssue(this.id, `otra_moneda.${k}`, `Monto en 0 sin contrapartida en pesos (totales.${k} no está declarado); puede omitir este campo.`, 'totals'),
    );
  },
};

export const otraMonedaMontos: Rule = {
  id: 'ECF-OM-MONTOS',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.7 campos 122–137',
  description:
    'Every otra_moneda amount mirrors the totales amount of the same name divided by tipo_cambio (global tolerance, errors only); each declared DOP amount has its counterpart; additional taxes match by code and rate.',
  check({ tipo, doc }) {
    const om = doc.otra_moneda;
    if (!isObj(om)) return [];
    const rate = rateText(om.tipo_cambio);
    return rate ? headerChecks(this.id, tipo, doc, rate) : [];
  },
};

export const otraMonedaItems: Rule = {
  id: 'ECF-OM-ITEM',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §B campos 35–38 (MontoItemOtraMoneda = precio × cantidad − descuento + recargo en otra moneda)',
  description:
    'items[].otra_moneda needs the header otra_moneda (currency and rate) and its monto; monto = precio × cantidad − descuento + recargo (±1.00: error beyond, warning within) and ≈ items[].monto / tipo_cambio (±1.00, errors only).',
  check({ doc }) {
    const om = doc.otra_moneda;
    const rate = isObj(om) ? rateText(om.tipo_cambio) : null;
    const issues: Issue[] = [];
    for (const [i, it] of itemsOf(doc)) {
      const x = it.otra_moneda;
      if (!isObj(x)) continue;
      const p = `items.${i}.otra_moneda`;
      if (!isObj(om)) {
        issues.push(
          ruleIssue(this.id, p, 'Los montos en otra moneda de la línea requieren el bloque otra_moneda del encabezado (tipo_moneda y tipo_cambio).', 'rule'),
        );
        continue;
      }
      const monto = d(x.monto);
      if (monto === null) {
        issues.push(ruleIssue(this.id, `${p}.monto`, 'Requerido: monto de la línea en otra moneda.', 'required'));
        continue;
      }
      const precio = d(x.precio);
      const cantidad = d(it.cantidad);
      if (precio !== null && cantidad !== null) {
        let expected = mul(precio, cantidad);
        const dsc = d(x.descuento);
        const rec = d(x.recargo);
        if (dsc !== null) expected = sub(expected, dsc);
        if (rec !== null) expected = add(expected, rec);
        expected = round(expected, 2);
        const issue = compareAmounts(
          this.id,
          `${p}.monto`,
          monto,
          expected,
          LINE_TOLERANCE,
          (e, g) =>
            `El monto en otra moneda de la línea ${i + 1} no cuadra: se esperaba ${e} (precio ${x.precio} × cantidad ${it.cantidad} − descuento + recargo), se recibió ${g}.`,
        );
        if (issue) issues.push(issue);
      }
      const dop = d(it.monto);
      if (rate && dop !== null) {
        const issue = converted(this.id, `${p}.monto`, monto, dop, rate, LINE_TOLERANCE, `El monto de la línea ${i + 1}`);
        if (issue) issues.push(issue);
      }
    }
    return issues;
  },
};

export const otraMonedaDescuentos: Rule = {
  id: 'ECF-OM-DR',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §D campo 8 (MontoDescuentooRecargoOtraMoneda)',
  description: 'descuentos_recargos[].monto_otra_moneda needs the header otra_moneda and ≈ monto / tipo_cambio (±1.00, errors only).',
  check({ doc }) {
    const om = doc.otra_moneda;
    const rate = isObj(om) ? rateText(om.tipo_cambio) : null;
    const issues: Issue[] = [];
    for (const [i, r] of entries(doc.descuentos_recargos)) {
      const x = d(r.monto_otra_moneda);
      if (x === null) continue;
      const p = `descuentos_recargos.${i}.monto_otra_moneda`;
      if (!isObj(om)) {
        issues.push(ruleIssue(this.id, p, 'El monto en otra moneda requiere el bloque otra_moneda del encabezado (tipo_moneda y tipo_cambio).', 'rule'));
        continue;
      }
      const dop = d(r.monto);
      if (rate && dop !== null) {
        const issue = converted(this.id, p, x, dop, rate, LINE_TOLERANCE, 'El descuento o recargo');
        if (issue) issues.push(issue);
      }
    }
    return issues;
  },
};

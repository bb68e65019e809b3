/**
 * Global discounts and surcharges (`descuentos_recargos[]`). The XSD caps them at 20, and 44 has no
 * `indicador_norma_1007` (shape layer, with hints). Their effect on the bases is part of computeTotals.
 */
import { div, fromInt, mul, round } from '../../../shared/money/decimal.js';
import type { Issue } from '../../../shared/issues.js';
import { ruleIssue, ruleWarning, type Rule } from '../rule.js';
import { allowedIndicators, compareAmounts, d, entries, fmt, INDICATOR_NAME, INDICATOR_TOTAL, LINE_TOLERANCE, totalsOf } from './shared.js';

export const drCampos: Rule = {
  id: 'ECF-DR-CAMPOS',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §D campos 2–9 (condicionales a que exista descuento o recargo global)',
  description:
    'Each global discount/surcharge states tipo_valor ("$" or "%"), monto and indicador_facturacion; "%" also needs valor (the percentage); valor with "$" is warned.',
  check({ doc }) {
    const issues: Issue[] = [];
    for (const [i, r] of entries(doc.descuentos_recargos)) {
      const p = `descuentos_recargos.${i}`;
      if (r.tipo_valor === undefined)
        issues.push(ruleIssue(this.id, `${p}.tipo_valor`, 'Requerido: indique si el descuento o recargo es en monto ("$") o porcentaje ("%").', 'required'));
      if (r.monto === undefined)
        issues.push(ruleIssue(this.id, `${p}.monto`, 'Requerido: el descuento o recargo lleva su monto (también cuando es en porcentaje).', 'required'));
      if (r.indicador_facturacion === undefined) {
        issues.push(ruleIssue(this.id, `${p}.indicador_facturacion`, 'Requerido: indique a qué ítems afecta (indicador_facturacion 1, 2, 3 o 4).', 'required'));
      }
      if (r.tipo_valor === '%' && r.valor === undefined)
        issues.push(ruleIssue(this.id, `${p}.valor`, 'Requerido: con tipo_valor "%" indique el porcentaje en valor.', 'required'));
      if (r.tipo_valor === '$' && r.valor !== undefined)
        issues.push(ruleWarning(this.id, `${p}.valor`, 'valor es el porcentaje del descuento o recargo; con tipo_valor "$" basta el monto.'));
    }
    return issues;
  },
};

export const drIndicador: Rule = {
  id: 'ECF-DR-INDICADOR',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §D campo 9 (IndicadorFacturacionDescuentooRecargo)',
  description: 'A global discount/surcharge applies to an indicator the type admits (the same table-derived set as items) and that at least one item has.',
  check({ tipo, doc }) {
    const ok = allowedIndicators(tipo).filter((x) => x !== 0);
    const c = totalsOf(tipo, doc);
    const issues: Issue[] = [];
    for (const [i, r] of entries(doc.descuentos_recargos)) {
      const v = r.indicador_facturacion;
      if (typeof v !== 'number') continue;
      const p = `descuentos_recargos.${i}.indicador_facturacion`;
      if (!ok.includes(v)) {
        issues.push(
          ruleIssue(
            this.id,
            p,
            `Indicador de facturación ${v} (${INDICATOR_NAME[v]}) no admitido en el tipo ${tipo}; valores admitidos: ${ok.map((x) => `${x} (${INDICATOR_NAME[x]})`).join(', ')}.`,
            'enum',
          ),
        );
      } else if ((c.lines[v]?.count ?? 0) === 0) {
        issues.push(
          ruleIssue(this.id, p, `Ningún ítem tiene indicador_facturacion ${v} (${INDICATOR_NAME[v]}): el descuento o recargo no tiene a qué aplicarse.`),
        );
      }
    }
    return issues;
  },
};

export const drPorcentaje: Rule = {
  id: 'ECF-DR-PORCENTAJE',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §D campos 6–7 (si va en %, debe ir el monto correspondiente)',
  description: 'A "%" discount/surcharge has monto = valor % of the line amounts with its indicator (±1.00: error beyond, warning within).',
  check({ tipo, doc }) {
    const c = totalsOf(tipo, doc);
    const issues: Issue[] = [];
    for (const [i, r] of entries(doc.descuentos_recargos)) {
      if (r.tipo_valor !== '%') continue;
      const v = d(r.valor);
      const m = d(r.monto);
      const ind = r.indicador_facturacion;
      if (v === null || m === null || typeof ind !== 'number' || !c.lines[ind]) continue;
      const base = c.lines[ind]!.sum;
      const expected = round(mul(base, div(v, fromInt(100))), 2);
      const issue = compareAmounts(
        this.id,
        `descuentos_recargos.${i}.monto`,
        m,
        expected,
        LINE_TOLERANCE,
        (e, g) =>
          `El monto del ${r.tipo_ajuste === 'R' ? 'recargo' : 'descuento'} no cuadra: se esperaba ${e} (${fmt(v)} % de ${fmt(base)}, suma de los ítems con indicador_facturacion ${ind}), se recibió ${g}.`,
      );
      if (issue) issues.push(issue);
    }
    return issues;
  },
};

export const drExcede: Rule = {
  id: 'ECF-DR-EXCEDE',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.2 campos 93–96 (≥ 0, no puede ser negativo)',
  description: 'Global discounts may not exceed the lines they apply to: a computed taxable or exempt amount below zero is an error.',
  check({ tipo, doc }) {
    const c = totalsOf(tipo, doc);
    const issues: Issue[] = [];
    for (const ind of [1, 2, 3, 4]) {
      const k = INDICATOR_TOTAL[ind]!;
      const v = c.exact[k];
      if (v === undefined || v >= 0n) continue;
      issues.push(
        ruleIssue(
          this.id,
          'descuentos_recargos',
          `Los descuentos globales con indicador_facturacion ${ind} superan la suma de los ítems de ese indicador (${fmt(c.lines[ind]!.sum)}): totales.${k} resultaría ${fmt(v)}.`,
          'totals',
        ),
      );
    }
    return issues;
  },
};

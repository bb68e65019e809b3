/** Detail lines: line limits, line amount (±1.00, DGII IT §12), billing indicator per type, item sub-discounts and sub-surcharges. */
import { cmp, div, fromInt, mul, parseDec, round, ZERO } from '../../../shared/money/decimal.js';
import { lineAmountDec } from '../../calc/totals.js';
import type { Issue } from '../../../shared/issues.js';
import { ECF_TYPE_INFO } from '../../spec/doc-types.js';
import { ruleIssue, type Rule } from '../rule.js';
import { allowedIndicators, allows, compareAmounts, d, entries, fmt, INDICATOR_NAME, itemsOf, LINE_TOLERANCE, sumOf, totalsOf, type Json } from './shared.js';

export const itemsMax: Rule = {
  id: 'ECF-ITEMS-MAX',
  appliesTo: 'all',
  source: 'spec: Limits (Detail lines); DGII Formato e-CF p. 35 nota 48; DGII IT §17',
  description:
    'At most maxLines detail lines (1,000) for every type; a type with maxLinesBelowThreshold (32) admits that many (10,000) when monto_total is below its summaryThreshold (RD$250,000.00). Read from doc-types.ts, never from the type code.',
  check({ tipo, doc }) {
    const n = Array.isArray(doc.items) ? doc.items.length : 0;
    const info = ECF_TYPE_INFO[tipo];
    if (n <= info.maxLines) return [];
    if (info.maxLinesBelowThreshold !== undefined && info.summaryThreshold !== undefined) {
      const threshold = parseDec(info.summaryThreshold)!;
      const total = d(doc.totales?.monto_total) ?? totalsOf(tipo, doc).exact.monto_total ?? ZERO;
      if (cmp(total, threshold) < 0) {
        if (n <= info.maxLinesBelowThreshold) return [];
        return [
          ruleIssue(
            this.id,
            'items',
            `El tipo ${tipo} admite como máximo ${info.maxLinesBelowThreshold} líneas de detalle por debajo de RD$${fmt(threshold)}; se recibieron ${n}.`,
            'too_many',
            { max: info.maxLinesBelowThreshold },
          ),
        ];
      }
      return [
        ruleIssue(
          this.id,
          'items',
          `El tipo ${tipo} admite como máximo ${info.maxLines} líneas de detalle cuando monto_total (${fmt(total)}) es igual o mayor que RD$${fmt(threshold)}; hasta ${info.maxLinesBelowThreshold} solo por debajo de ese monto. Se recibieron ${n}.`,
          'too_many',
          { max: info.maxLines },
        ),
      ];
    }
    return [
      ruleIssue(this.id, 'items', `El tipo ${tipo} admite como máximo ${info.maxLines} líneas de detalle; se recibieron ${n}.`, 'too_many', {
        max: info.maxLines,
      }),
    ];
  },
};

export const itemMonto: Rule = {
  id: 'ECF-ITEM-MONTO',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §B campo 39 (MontoItem); DGII IT §12 (tolerancia ±1 por línea)',
  description:
    'items[].monto = precio_unitario × cantidad − descuento_monto + recargo_monto (half-up, 2 decimals); beyond ±1.00 an error (code totals), within it but not exact a warning.',
  check({ doc }) {
    const issues: Issue[] = [];
    for (const [i, it] of itemsOf(doc)) {
      const declared = d(it.monto);
      const expected = lineAmountDec(it);
      if (declared === null || expected === null) continue;
      const issue = compareAmounts(this.id, `items.${i}.monto`, declared, expected, LINE_TOLERANCE, (e, g) => {
        const parts = [`precio_unitario ${it.precio_unitario} × cantidad ${it.cantidad}`];
        if (it.descuento_monto !== undefined) parts.push(`− descuento_monto ${fmt(d(it.descuento_monto)!)}`);
        if (it.recargo_monto !== undefined) parts.push(`+ recargo_monto ${fmt(d(it.recargo_monto)!)}`);
        return `El monto de la línea ${i + 1} no cuadra: se esperaba ${e} (${parts.join(' ')}), se recibió ${g}.`;
      });
      if (issue) issues.push(issue);
    }
    return issues;
  },
};

export const itemIndicador: Rule = {
  id: 'ECF-ITEM-INDICADOR',
  appliesTo: 'all',
  source: 'spec: Particularities by type (44: 4 or 0; 46: 3; 47: no ITBIS); DGII Formato e-CF §B campo 4',
  description:
    'items[].indicador_facturacion must have a totals field in the type: 1–3 need monto_gravado_iN, 4 monto_exento, 0 monto_no_facturable (derived from the table: 44 → 4 or 0, 46 → 3 or 0, 43/47 → 4).',
  check({ tipo, doc }) {
    const ok = allowedIndicators(tipo);
    const issues: Issue[] = [];
    for (const [i, it] of itemsOf(doc)) {
      const v = it.indicador_facturacion;
      if (typeof v !== 'number' || ok.includes(v)) continue;
      issues.push(
        ruleIssue(
          this.id,
          `items.${i}.indicador_facturacion`,
          `Indicador de facturación ${v} (${INDICATOR_NAME[v] ?? 'desconocido'}) no admitido en el tipo ${tipo}; valores admitidos: ${ok.map((x) => `${x} (${INDICATOR_NAME[x]})`).join(', ')}.`,
          'enum',
          { allowed: ok },
        ),
      );
    }
    return issues;
  },
};

function subAdjustments(ruleId: string, tipo: Parameters<Rule['check']>[0]['tipo'], doc: Json, kind: 'descuento' | 'recargo'): Issue[] {
  const list = kind === 'descuento' ? 'sub_descuentos' : 'sub_recargos';
  const total = kind === 'descuento' ? 'descuento_monto' : 'recargo_monto';
  const label = kind === 'descuento' ? 'subdescuento' : 'subrecargo';
  if (!allows(tipo, `items[].${list}`)) return [];
  const issues: Issue[] = [];
  for (const [i, it] of itemsOf(doc)) {
    const subs = entries(it[list]);
    const declared = d(it[total]);
    if (subs.length === 0) {
      if (declared !== null && declared > 0n) {
        issues.push(
          ruleIssue(
            ruleId,
            `items.${i}.${list}`,
            `Requerido: la línea ${i + 1} tiene ${total} ${fmt(declared)}; detalle la tabla ${list} (tipo "$" o "%", monto).`,
            'required',
          ),
        );
      }
      continue;
    }
    if (declared === null) {
      issues.push(
        ruleIssue(
          ruleId,
          `items.${i}.${total}`,
          `Requerido: la línea ${i + 1} tiene ${list}; ${total} debe totalizar sus montos (${fmt(sumOf(subs.map(([, s]) => s.monto)))}).`,
          'required',
        ),
      );
    } else {
      const s = sumOf(subs.map(([, x]) => x.monto));
      if (cmp(s, declared) !== 0) {
        issues.push(
          ruleIssue(
            ruleId,
            `items.${i}.${total}`,
            `${total} de la línea ${i + 1} debe ser la suma de ${list}: se esperaba ${fmt(s)}, se recibió ${fmt(declared)}.`,
            'totals',
            { expected: fmt(s) },
          ),
        );
      }
    }
    const precio = d(it.precio_unitario);
    const cantidad = d(it.cantidad);
    for (const [j, s] of subs) {
      const p = `items.${i}.${list}.${j}`;
      if (s.monto === undefined) issues.push(ruleIssue(ruleId, `${p}.monto`, `Requerido: cada ${label} lleva su monto (también cuando es en %).`, 'required'));
      if (s.tipo === '%') {
        const pct = d(s.porcentaje);
        if (pct === null) {
          issues.push(ruleIssue(ruleId, `${p}.porcentaje`, `Requerido: el ${label} de tipo "%" lleva porcentaje.`, 'required'));
          continue;
        }
        const m = d(s.monto);
        if (m === null || precio === null || cantidad === null) continue;
        const expected = round(mul(mul(precio, cantidad), div(pct, fromInt(100))), 2);
        const issue = compareAmounts(
          ruleId,
          `${p}.monto`,
          m,
          expected,
          LINE_TOLERANCE,
          (e, g) => `El monto del ${label} no cuadra: se esperaba ${e} (precio_unitario × cantidad × ${fmt(pct)} %), se recibió ${g}.`,
        );
        if (issue) issues.push(issue);
      }
    }
  }
  return issues;
}

export const itemSubdescuentos: Rule = {
  id: 'ECF-ITEM-SUBDESCUENTOS',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §B campos 26–29 (TablaSubDescuento); rechazo DGII 2020',
  description:
    'descuento_monto totals sub_descuentos[].monto (both present together); a "%" sub-discount carries porcentaje and monto = precio_unitario × cantidad × porcentaje / 100 (±1.00).',
  check({ tipo, doc }) {
    return subAdjustments(this.id, tipo, doc, 'descuento');
  },
};

export const itemSubrecargos: Rule = {
  id: 'ECF-ITEM-SUBRECARGOS',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §B campos 30–33 (TablaSubRecargo); rechazo DGII 2030',
  description:
    'recargo_monto totals sub_recargos[].monto (both present together); a "%" sub-surcharge carries porcentaje and monto = precio_unitario × cantidad × porcentaje / 100 (±1.00).',
  check({ tipo, doc }) {
    return subAdjustments(this.id, tipo, doc, 'recargo');
  },
};

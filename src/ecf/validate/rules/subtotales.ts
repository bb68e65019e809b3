/**
 * Informative subtotals (`subtotales[]`, at most 20: XSD). They neither raise nor lower the taxable base nor change
 * the totals (DGII Formato e-CF §C), so only their internal consistency is checked: sums of given numbers, exact.
 */
import { add, cmp, ZERO, type Dec } from '../../../shared/money/decimal.js';
import type { Issue } from '../../../shared/issues.js';
import { ruleIssue, type Rule } from '../rule.js';
import { d, entries, fmt, sumOf } from './shared.js';

function exact(ruleId: string, path: string, declared: Dec | null, expected: Dec, what: string): Issue | null {
  if (declared === null || cmp(declared, expected) === 0) return null;
  return ruleIssue(ruleId, path, `El subtotal no cuadra: se esperaba ${fmt(expected)} (${what}), se recibió ${fmt(declared)}.`, 'totals', {
    expected: fmt(expected),
  });
}

export const subtotalesCuadre: Rule = {
  id: 'ECF-SUB-CUADRE',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §C campos 4–14',
  description:
    'Each informative subtotal is internally consistent: monto_gravado_total = i1 + i2 + i3, itbis = itbis1 + itbis2 + itbis3, monto = gravado + ITBIS + impuesto_adicional + exento (exact).',
  check({ doc }) {
    const issues: Issue[] = [];
    for (const [i, s] of entries(doc.subtotales)) {
      const p = `subtotales.${i}`;
      const iN = ['monto_gravado_i1', 'monto_gravado_i2', 'monto_gravado_i3'].filter((k) => s[k] !== undefined);
      const tN = ['itbis1', 'itbis2', 'itbis3'].filter((k) => s[k] !== undefined);
      const gravado = iN.length ? sumOf(iN.map((k) => s[k])) : d(s.monto_gravado_total);
      const itbis = tN.length ? sumOf(tN.map((k) => s[k])) : d(s.itbis);
      if (iN.length) {
        const x = exact(this.id, `${p}.monto_gravado_total`, d(s.monto_gravado_total), gravado!, iN.join(' + '));
        if (x) issues.push(x);
      }
      if (tN.length) {
        const x = exact(this.id, `${p}.itbis`, d(s.itbis), itbis!, tN.join(' + '));
        if (x) issues.push(x);
      }
      const parts: Array<[string, Dec | null]> = [
        ['monto gravado', gravado],
        ['ITBIS', itbis],
        ['impuesto adicional', d(s.impuesto_adicional)],
        ['exento', d(s.exento)],
      ];
      const present = parts.filter((x): x is [string, Dec] => x[1] !== null);
      if (present.length) {
        const total = present.reduce((a, [, v]) => add(a, v), ZERO);
        const x = exact(this.id, `${p}.monto`, d(s.monto), total, present.map(([n, v]) => `${n} ${fmt(v)}`).join(' + '));
        if (x) issues.push(x);
      }
    }
    return issues;
  },
};

export const subtotalesLineas: Rule = {
  id: 'ECF-SUB-LINEAS',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §C campos 1 y 15 (número secuencial; cantidad de líneas subtotalizadas)',
  description: 'subtotales[].numero is sequential (1, 2, …) and subtotales[].lineas does not exceed the number of detail lines.',
  check({ doc }) {
    const n = Array.isArray(doc.items) ? doc.items.length : 0;
    const issues: Issue[] = [];
    for (const [i, s] of entries(doc.subtotales)) {
      if (typeof s.numero === 'number' && s.numero !== i + 1) {
        issues.push(ruleIssue(this.id, `subtotales.${i}.numero`, `Número de subtotal fuera de secuencia: se esperaba ${i + 1}, se recibió ${s.numero}.`));
      }
      if (typeof s.lineas === 'number' && s.lineas > n) {
        issues.push(ruleIssue(this.id, `subtotales.${i}.lineas`, `El subtotal abarca ${s.lineas} líneas, pero el documento tiene ${n}.`, 'range'));
      }
    }
    return issues;
  },
};

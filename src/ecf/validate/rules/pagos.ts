/**
 * Payment forms (`id_doc.formas_pago[]`). The XSD already caps them at 7 and has no such block on 34 and 43 (shape
 * layer, with hints). Form 5 (bonds or gift certificates) is reserved to type 32.
 */
import { add, cmp } from '../../../shared/money/decimal.js';
import type { Issue } from '../../../shared/issues.js';
import { ruleIssue, ruleWarning, type Rule } from '../rule.js';
import { allows, d, documentTolerance, entries, fmt, sumOf } from './shared.js';

export const pagoBonos: Rule = {
  id: 'ECF-PAGO-BONOS',
  appliesTo: ['31', '33', '34', '41', '43', '44', '45', '46', '47'],
  source: 'spec: Particularities by type / Types 33 and 32 (forma 5 reservada al tipo 32); DGII Formato e-CF §A campo 12',
  description: 'Payment form "5" (bonos o certificados de regalo) only on type 32.',
  check({ tipo, doc }) {
    const issues: Issue[] = [];
    for (const [i, f] of entries(doc.id_doc?.formas_pago)) {
      if (f.forma === '5') {
        issues.push(
          ruleIssue(
            this.id,
            `id_doc.formas_pago.${i}.forma`,
            `La forma de pago 5 (bonos o certificados de regalo) solo aplica a la factura de consumo (tipo 32), no al tipo ${tipo}.`,
            'enum',
          ),
        );
      }
    }
    return issues;
  },
};

export const pagoSuma: Rule = {
  id: 'ECF-PAGO-SUMA',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A campos 12–13 (MontoPago por forma de pago); política propia: advertencia',
  description:
    'Σ formas_pago[].monto should equal monto_total (or valor_pagar when declared). A WARNING, not an error: DGII defines no arithmetic check on MontoPago, and advance payments, previous balances or a partial listing make them legitimately differ.',
  check({ doc }) {
    const forms = entries(doc.id_doc?.formas_pago);
    if (forms.length === 0) return [];
    const total = d(doc.totales?.monto_total);
    if (total === null) return [];
    const paid = sumOf(forms.map(([, f]) => f.monto));
    const tol = documentTolerance(doc);
    const within = (target: ReturnType<typeof d>) => target !== null && cmp(paid, add(target, tol)) <= 0 && cmp(add(paid, tol), target) >= 0;
    if (within(total) || within(d(doc.totales?.valor_pagar))) return [];
    return [
      ruleWarning(this.id, 'id_doc.formas_pago', `La suma de las formas de pago (${fmt(paid)}) no coincide con el monto total (${fmt(total)}).`, {
        paid: fmt(paid),
        total: fmt(total),
      }),
    ];
  },
};

export const pagoCredito: Rule = {
  id: 'ECF-PAGO-CREDITO',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A campo 10 (FechaLimitePago, condicional a que el tipo de pago sea a crédito)',
  description: 'A credit sale (tipo_pago "2") should state id_doc.fecha_limite_pago (warning).',
  check({ tipo, doc }) {
    if (doc.id_doc?.tipo_pago !== '2' || doc.id_doc?.fecha_limite_pago !== undefined || !allows(tipo, 'id_doc.fecha_limite_pago')) return [];
    return [ruleWarning(this.id, 'id_doc.fecha_limite_pago', 'Venta a crédito (tipo_pago 2) sin fecha límite de pago: indique id_doc.fecha_limite_pago.')];
  },
};

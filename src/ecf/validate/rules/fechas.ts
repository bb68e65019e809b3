/** Date order rules. Formats are checked by the shape layer; rules that need the issue date skip when it is unknown. */
import type { Issue } from '../../../shared/issues.js';
import { dayNumber } from '../../spec/formats.js';
import { ruleIssue, type Rule } from '../rule.js';

export const fechaLimitePago: Rule = {
  id: 'ECF-FECHA-LIMITE-PAGO',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A campo 10 b) (fecha límite de pago ≥ fecha de emisión)',
  description: 'id_doc.fecha_limite_pago is not before the issue date.',
  check({ doc, fechaEmision }) {
    const v = doc.id_doc?.fecha_limite_pago;
    if (typeof v !== 'string' || !fechaEmision) return [];
    const a = dayNumber(v);
    const b = dayNumber(fechaEmision);
    if (a === null || b === null || a >= b) return [];
    return [ruleIssue(this.id, 'id_doc.fecha_limite_pago', `La fecha límite de pago (${v}) no puede ser anterior a la fecha de emisión (${fechaEmision}).`)];
  },
};

export const fechaPeriodo: Rule = {
  id: 'ECF-FECHA-PERIODO',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A campos 17–18 (fecha desde ≤ fecha hasta)',
  description: 'id_doc.fecha_desde is not after id_doc.fecha_hasta.',
  check({ doc }) {
    const a = doc.id_doc?.fecha_desde;
    const b = doc.id_doc?.fecha_hasta;
    if (typeof a !== 'string' || typeof b !== 'string') return [];
    const x = dayNumber(a);
    const y = dayNumber(b);
    if (x === null || y === null || x <= y) return [];
    return [ruleIssue(this.id, 'id_doc.fecha_hasta', `La fecha hasta (${b}) no puede ser anterior a la fecha desde (${a}).`)];
  },
};

export const fechaNcfModificado: Rule = {
  id: 'ECF-FECHA-NCF-MODIFICADO',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §F campo 3 (fecha del comprobante modificado)',
  description: 'referencia.fecha_ncf_modificado is not after the issue date (the modified receipt exists before the note).',
  check({ doc, fechaEmision }) {
    const v = doc.referencia?.fecha_ncf_modificado;
    if (typeof v !== 'string' || !fechaEmision) return [];
    const a = dayNumber(v);
    const b = dayNumber(fechaEmision);
    const issues: Issue[] = [];
    if (a !== null && b !== null && a > b) {
      issues.push(
        ruleIssue(
          this.id,
          'referencia.fecha_ncf_modificado',
          `La fecha del comprobante modificado (${v}) no puede ser posterior a la fecha de emisión (${fechaEmision}).`,
        ),
      );
    }
    return issues;
  },
};

/** Identification and buyer requirements the XSD leaves optional. */
import { cmp, parseDec, ZERO } from '../../../shared/money/decimal.js';
import type { Issue } from '../../../shared/issues.js';
import { ECF_TYPE_INFO } from '../../spec/doc-types.js';
import { ruleIssue, type Rule } from '../rule.js';
import { allows, d, fmt, isObj, totalsOf } from './shared.js';

export const tipoIngresosNotas: Rule = {
  id: 'ECF-IDDOC-TIPO-INGRESOS',
  appliesTo: ['33', '34'],
  source: 'spec: Particularities by type / Type 33; spec: Frequent validation errors (Income type missing, 33 and 34); DGII Formato e-CF §A campo 8',
  description:
    'The spec requires id_doc.tipo_ingresos on debit and credit notes; their XSDs make it optional and DGII accepts a note without it (a 34 modifying a 41 has none to copy): a warning row (issue 15). Rendered when present.',
  check({ tipo, doc }) {
    if (doc.id_doc?.tipo_ingresos !== undefined) return [];
    return [
      ruleIssue(
        this.id,
        'id_doc.tipo_ingresos',
        `Campo requerido para el tipo ${tipo}: indique el tipo de ingresos (código "01" a "06") del comprobante.`,
        'required',
      ),
    ];
  },
};

export const compradorUmbral: Rule = {
  id: 'ECF-COMPRADOR-UMBRAL',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A campos 38–40 (tipo 32 con monto total ≥ RD$250,000.00 identifica al comprador)',
  description:
    'A type with a summaryThreshold (32) identifies the buyer at or above it: comprador.rnc or comprador.identificador_extranjero, and comprador.razon_social.',
  check({ tipo, doc }) {
    const threshold = ECF_TYPE_INFO[tipo].summaryThreshold;
    if (threshold === undefined) return [];
    const limit = parseDec(threshold)!;
    const total = d(doc.totales?.monto_total) ?? totalsOf(tipo, doc).exact.monto_total ?? ZERO;
    if (cmp(total, limit) < 0) return [];
    const c = isObj(doc.comprador) ? doc.comprador : {};
    const issues: Issue[] = [];
    const why = `el monto total (${fmt(total)}) es igual o mayor que RD$${fmt(limit)}`;
    if (c.rnc === undefined && c.identificador_extranjero === undefined) {
      const alt = allows(tipo, 'comprador.identificador_extranjero') ? ' (o comprador.identificador_extranjero si es extranjero)' : '';
      issues.push(ruleIssue(this.id, 'comprador.rnc', `Requerido: ${why}; identifique al comprador con comprador.rnc${alt}.`, 'required'));
    }
    if (c.razon_social === undefined)
      issues.push(ruleIssue(this.id, 'comprador.razon_social', `Requerido: ${why}; indique el nombre o razón social del comprador.`, 'required'));
    return issues;
  },
};

/**
 * Withholding per item. On 41 and 47 the XSD already requires `items[].retencion` with its indicator (and
 * `isr_retenido` on 47): the shape layer reports those with a hint. Where the block is optional (31, 33, 34) the
 * indicator is still required once the block is sent (DGII Formato e-CF §B campo 5: "condicional a que exista
 * retención"). The withholding totals are reconciled by ECF-TOT-CUADRE.
 */
import type { Issue } from '../../../shared/issues.js';
import { ruleIssue, type Rule } from '../rule.js';
import { isObj, itemsOf, typesWhere } from './shared.js';

export const retencionIndicador: Rule = {
  id: 'ECF-RET-INDICADOR',
  // Types where the XSD makes the indicator optional (where it is required, the shape layer reports it).
  appliesTo: typesWhere('items[].retencion.indicador', (min) => min === 0),
  source: 'DGII Formato e-CF §B campo 5 (IndicadorAgenteRetencionoPercepcion, condicional a que exista retención)',
  description: 'An item that sends a retencion block states retencion.indicador ("1" retención, "2" percepción) and at least one withheld amount.',
  check({ doc }) {
    const issues: Issue[] = [];
    for (const [i, it] of itemsOf(doc)) {
      const r = it.retencion;
      if (!isObj(r)) continue;
      if (r.indicador === undefined) {
        issues.push(
          ruleIssue(
            this.id,
            `items.${i}.retencion.indicador`,
            'Requerido: el bloque de retención lleva el indicador ("1" agente de retención, "2" agente de percepción).',
            'required',
          ),
        );
      }
      if (r.monto_itbis_retenido === undefined && r.monto_isr_retenido === undefined && r.isr_retenido === undefined) {
        issues.push(
          ruleIssue(this.id, `items.${i}.retencion`, 'El bloque de retención debe declarar monto_itbis_retenido y/o monto_isr_retenido.', 'required'),
        );
      }
    }
    return issues;
  },
};

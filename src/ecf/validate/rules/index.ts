import type { RuleRow } from '../rule.js';
import { drCampos, drExcede, drIndicador, drPorcentaje } from './descuentos-recargos.js';
import { fechaLimitePago, fechaNcfModificado, fechaPeriodo } from './fechas.js';
import { compradorUmbral, tipoIngresosNotas } from './id-doc.js';
import { iscCodigos, iscEntradaCompleta, iscItemDatos, iscMontoCampo, iscOtrosMonto, iscTasa } from './isc.js';
import { itemIndicador, itemMonto, itemsMax, itemSubdescuentos, itemSubrecargos } from './lineas.js';
import { otraMonedaCero, otraMonedaDescuentos, otraMonedaItems, otraMonedaMontos, otraMonedaTipo } from './otra-moneda.js';
import { pagoBonos, pagoCredito, pagoSuma } from './pagos.js';
import { paginacionMontoTotal, paginacionNumeracion, paginacionSubtotales, paginacionTotalPaginas } from './paginacion.js';
import { notaCorreccionTexto, notaCreditoIndicador, refCodigo31, refCodigoNotas, refCodigoOtros, refContingencia, refNcf } from './referencia.js';
import { retencionIndicador } from './retencion.js';
import { subtotalesCuadre, subtotalesLineas } from './subtotales.js';
import { itbisTasas, notaCreditoSinItbis, notaCreditoSinItbisCero, totalesCeroSinItems, totalesCondicionales, totalesCuadre } from './totales.js';

/**
 * Every business rule, in the order they run, with its origin and severity (docs/validation.md lists them; issue 15:
 * only a rule that mirrors a documented DGII rejection is an error, the spec's stricter readings and our advice warn). Rules read the clean document of the
 * shape layer, never throw, and differ by type only through `appliesTo` or data (doc-types.ts, the field table).
 */
export const RULES: readonly RuleRow[] = [
  // Identification and buyer
  { rule: tipoIngresosNotas, origin: 'spec', severity: 'warning' },
  { rule: compradorUmbral, origin: 'dgii', severity: 'error' },
  // Reference (33, 34 and contingency replacements)
  { rule: refCodigoNotas, origin: 'dgii', severity: 'error' },
  { rule: refCodigo31, origin: 'dgii', severity: 'error' },
  { rule: refCodigoOtros, origin: 'dgii', severity: 'error' },
  { rule: refNcf, origin: 'dgii', severity: 'error' },
  { rule: refContingencia, origin: 'dgii', severity: 'error' },
  { rule: notaCreditoIndicador, origin: 'dgii', severity: 'error' },
  { rule: notaCorreccionTexto, origin: 'spec', severity: 'warning' },
  // Dates
  { rule: fechaLimitePago, origin: 'dgii', severity: 'error' },
  { rule: fechaPeriodo, origin: 'dgii', severity: 'error' },
  { rule: fechaNcfModificado, origin: 'dgii', severity: 'error' },
  // Payment
  { rule: pagoBonos, origin: 'dgii', severity: 'error' },
  { rule: pagoSuma, origin: 'advice', severity: 'warning' },
  { rule: pagoCredito, origin: 'advice', severity: 'warning' },
  // Lines
  { rule: itemsMax, origin: 'dgii', severity: 'error' },
  { rule: itemIndicador, origin: 'dgii', severity: 'error' },
  { rule: itemMonto, origin: 'dgii', severity: 'error' },
  { rule: itemSubdescuentos, origin: 'dgii', severity: 'error' },
  { rule: itemSubrecargos, origin: 'dgii', severity: 'error' },
  { rule: retencionIndicador, origin: 'dgii', severity: 'error' },
  // Additional taxes
  { rule: iscCodigos, origin: 'dgii', severity: 'error' },
  { rule: iscEntradaCompleta, origin: 'dgii', severity: 'error' },
  { rule: iscMontoCampo, origin: 'dgii', severity: 'error' },
  { rule: iscTasa, origin: 'dgii', severity: 'error' },
  { rule: iscOtrosMonto, origin: 'dgii', severity: 'error' },
  { rule: iscItemDatos, origin: 'dgii', severity: 'error' },
  // Global discounts and surcharges
  { rule: drCampos, origin: 'dgii', severity: 'error' },
  { rule: drIndicador, origin: 'dgii', severity: 'error' },
  { rule: drPorcentaje, origin: 'dgii', severity: 'error' },
  { rule: drExcede, origin: 'dgii', severity: 'error' },
  // Totals and ITBIS
  { rule: totalesCondicionales, origin: 'dgii', severity: 'error' },
  { rule: totalesCeroSinItems, origin: 'spec', severity: 'warning' },
  { rule: totalesCuadre, origin: 'dgii', severity: 'error' },
  { rule: itbisTasas, origin: 'dgii', severity: 'error' },
  { rule: notaCreditoSinItbis, origin: 'dgii', severity: 'error' },
  { rule: notaCreditoSinItbisCero, origin: 'spec', severity: 'warning' },
  // Other currency
  { rule: otraMonedaTipo, origin: 'dgii', severity: 'error' },
  { rule: otraMonedaMontos, origin: 'dgii', severity: 'error' },
  { rule: otraMonedaCero, origin: 'spec', severity: 'warning' },
  { rule: otraMonedaItems, origin: 'dgii', severity: 'error' },
  { rule: otraMonedaDescuentos, origin: 'dgii', severity: 'error' },
  // Informative subtotals and pagination
  { rule: subtotalesCuadre, origin: 'dgii', severity: 'error' },
  { rule: subtotalesLineas, origin: 'dgii', severity: 'error' },
  { rule: paginacionNumeracion, origin: 'dgii', severity: 'error' },
  { rule: paginacionTotalPaginas, origin: 'dgii', severity: 'error' },
  { rule: paginacionSubtotales, origin: 'dgii', severity: 'error' },
  { rule: paginacionMontoTotal, origin: 'dgii', severity: 'error' },
];

import type { Rule } from '../rule.js';
import { drCampos, drExcede, drIndicador, drPorcentaje } from './descuentos-recargos.js';
import { fechaLimitePago, fechaNcfModificado, fechaPeriodo } from './fechas.js';
import { compradorUmbral, tipoIngresosNotas } from './id-doc.js';
import { iscCodigos, iscEntradaCompleta, iscItemDatos, iscMontoCampo, iscOtrosMonto, iscTasa } from './isc.js';
import { itemIndicador, itemMonto, itemsMax, itemSubdescuentos, itemSubrecargos } from './lineas.js';
import { otraMonedaDescuentos, otraMonedaItems, otraMonedaMontos, otraMonedaTipo } from './otra-moneda.js';
import { pagoBonos, pagoCredito, pagoSuma } from './pagos.js';
import { paginacionMontoTotal, paginacionNumeracion, paginacionSubtotales, paginacionTotalPaginas } from './paginacion.js';
import { notaCorreccionTexto, notaCreditoIndicador, refCodigo31, refCodigoNotas, refCodigoOtros, refContingencia, refNcf } from './referencia.js';
import { retencionIndicador } from './retencion.js';
import { subtotalesCuadre, subtotalesLineas } from './subtotales.js';
import { itbisTasas, notaCreditoSinItbis, totalesCondicionales, totalesCuadre } from './totales.js';

/**
 * Every business rule, in the order they run (docs/validation.md lists them). Rules read the clean document of the
 * shape layer, never throw, and differ by type only through `appliesTo` or data (doc-types.ts, the field table).
 */
export const RULES: readonly Rule[] = [
  // Identification and buyer
  tipoIngresosNotas,
  compradorUmbral,
  // Reference (33, 34 and contingency replacements)
  refCodigoNotas,
  refCodigo31,
  refCodigoOtros,
  refNcf,
  refContingencia,
  notaCreditoIndicador,
  notaCorreccionTexto,
  // Dates
  fechaLimitePago,
  fechaPeriodo,
  fechaNcfModificado,
  // Payment
  pagoBonos,
  pagoSuma,
  pagoCredito,
  // Lines
  itemsMax,
  itemIndicador,
  itemMonto,
  itemSubdescuentos,
  itemSubrecargos,
  retencionIndicador,
  // Additional taxes
  iscCodigos,
  iscEntradaCompleta,
  iscMontoCampo,
  iscTasa,
  iscOtrosMonto,
  iscItemDatos,
  // Global discounts and surcharges
  drCampos,
  drIndicador,
  drPorcentaje,
  drExcede,
  // Totals and ITBIS
  totalesCondicionales,
  totalesCuadre,
  itbisTasas,
  notaCreditoSinItbis,
  // Other currency
  otraMonedaTipo,
  otraMonedaMontos,
  otraMonedaItems,
  otraMonedaDescuentos,
  // Informative subtotals and pagination
  subtotalesCuadre,
  subtotalesLineas,
  paginacionNumeracion,
  paginacionTotalPaginas,
  paginacionSubtotales,
  paginacionMontoTotal,
];

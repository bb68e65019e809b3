/**
 * The one rule that names canonical JSON fields, plus the names the service spec fixes.
 *
 * Rule (documented in docs/fields.md):
 * 1. Split the element name into words; an acronym is one word (`TotalITBISRetenido` → total, itbis,
 *    retenido); digits join a preceding acronym (`ITBIS1` → itbis1, `MontoGravadoI1` → monto, gravado, i1)
 *    and are their own word after an ordinary word (`IndicadorNorma1007` → indicador, norma, 1007).
 * 2. Drop the words of the enclosing block (`RNCComprador` in `Comprador` → rnc; `NombreItem` in `Item`
 *    → nombre; `MontoGravadoTotalOtraMoneda` in `OtraMoneda` → monto_gravado_total).
 * 3. Join with `_`, lower case. Rate digits are written as in `totales` (`monto_gravado_i1`, `itbis1`).
 * 4. XML-only wrappers (`TablaFormasPago`, `DetallesItems`, …) vanish; their repeated child becomes an array
 *    named by the wrapper (`formas_pago[]`, `items[]`).
 * 5. Where the service spec names a field, the spec wins (OVERRIDES below).
 */
import type { JsonKind, Source } from '../src/ecf/spec/model.js';

/** Splits a PascalCase element name into lower-case words per the rule above. */
export function words(name: string): string[] {
  // DGII writes "e-NCF" / "e-CF" as eNCF / eCF glued to the previous word: one word each (encf, ecf).
  name = name.replace(/(^|[a-z])e(NCF|CF)(?=[A-Z]|$)/g, '$1E$2');
  const raw = name.match(/[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[a-z]+|\d+/g) ?? [];
  const out: { w: string; acronym: boolean }[] = [];
  for (const t of raw) {
    if (/^\d+$/.test(t) && out.length > 0 && out[out.length - 1]!.acronym) {
      out[out.length - 1]!.w += t;
      continue;
    }
    out.push({ w: t.toLowerCase(), acronym: /^[A-Z]+$/.test(t) });
  }
  return out.map((o) => o.w);
}

/** snake_case of `name` without the block's own words; a multi-word block name is removed as a sequence. */
export function snake(name: string, strip: readonly string[] = []): string {
  const ws = words(name);
  let kept = ws;
  for (const phrase of strip) {
    const p = phrase.split(' ');
    const out: string[] = [];
    for (let i = 0; i < kept.length; ) {
      if (p.every((w, j) => kept[i + j] === w)) i += p.length;
      else out.push(kept[i++]!);
    }
    kept = out;
  }
  return normaliseRates((kept.length > 0 ? kept : ws).join('_'));
}

/** `monto_gravado_1` → `monto_gravado_i1`; `itbis_1` → `itbis1` (as `totales` writes them). */
function normaliseRates(s: string): string {
  return s.replace(/monto_gravado_([123])(?=_|$)/, 'monto_gravado_i$1').replace(/itbis_([123])(?=_|$)/, 'itbis$1');
}

/** Block definitions: element path (below the root) → JSON name and words dropped from its children. */
export interface BlockRule {
  json: string | null;
  strip: string[];
  source?: Source;
}

export const ECF_BLOCKS: Record<string, BlockRule> = {
  Encabezado: { json: null, strip: [] },
  'Encabezado/IdDoc': { json: 'id_doc', strip: [] },
  'Encabezado/IdDoc/TablaFormasPago': { json: null, strip: [] },
  'Encabezado/IdDoc/TablaFormasPago/FormaDePago': { json: 'formas_pago', strip: ['pago'] },
  'Encabezado/Emisor': { json: 'emisor', strip: ['emisor'] },
  'Encabezado/Emisor/TablaTelefonoEmisor': { json: null, strip: [] },
  'Encabezado/Comprador': { json: 'comprador', strip: ['comprador'] },
  'Encabezado/InformacionesAdicionales': { json: 'informaciones_adicionales', strip: [] },
  'Encabezado/Transporte': { json: 'transporte', strip: [] },
  'Encabezado/Totales': { json: 'totales', strip: [] },
  'Encabezado/Totales/ImpuestosAdicionales': { json: null, strip: [] },
  'Encabezado/Totales/ImpuestosAdicionales/ImpuestoAdicional': { json: 'impuestos_adicionales', strip: [] },
  'Encabezado/OtraMoneda': { json: 'otra_moneda', strip: ['otra moneda'] },
  'Encabezado/OtraMoneda/ImpuestosAdicionalesOtraMoneda': { json: null, strip: [] },
  'Encabezado/OtraMoneda/ImpuestosAdicionalesOtraMoneda/ImpuestoAdicionalOtraMoneda': { json: 'impuestos_adicionales', strip: ['otra moneda'] },
  DetallesItems: { json: null, strip: [] },
  'DetallesItems/Item': { json: 'items', strip: ['item'] },
  'DetallesItems/Item/TablaCodigosItem': { json: null, strip: [] },
  'DetallesItems/Item/TablaCodigosItem/CodigosItem': { json: 'codigos', strip: ['item'] },
  'DetallesItems/Item/Retencion': { json: 'retencion', strip: [] },
  'DetallesItems/Item/TablaSubcantidad': { json: null, strip: [] },
  'DetallesItems/Item/TablaSubcantidad/SubcantidadItem': { json: 'subcantidades', strip: ['subcantidad'] },
  'DetallesItems/Item/Mineria': { json: 'mineria', strip: [] },
  'DetallesItems/Item/TablaSubDescuento': { json: null, strip: [] },
  'DetallesItems/Item/TablaSubDescuento/SubDescuento': { json: 'sub_descuentos', strip: ['sub descuento'] },
  'DetallesItems/Item/TablaSubRecargo': { json: null, strip: [] },
  'DetallesItems/Item/TablaSubRecargo/SubRecargo': { json: 'sub_recargos', strip: ['sub recargo'] },
  'DetallesItems/Item/TablaImpuestoAdicional': { json: null, strip: [] },
  'DetallesItems/Item/TablaImpuestoAdicional/ImpuestoAdicional': { json: 'impuestos_adicionales', strip: [] },
  'DetallesItems/Item/OtraMonedaDetalle': { json: 'otra_moneda', strip: ['otra moneda', 'item'] },
  Subtotales: { json: null, strip: [] },
  'Subtotales/Subtotal': { json: 'subtotales', strip: ['sub total', 'sub tota', 'subtotal'] },
  DescuentosORecargos: { json: null, strip: [] },
  'DescuentosORecargos/DescuentoORecargo': { json: 'descuentos_recargos', strip: ['descuentoo recargo'] },
  Paginacion: { json: null, strip: [] },
  'Paginacion/Pagina': { json: 'paginacion', strip: ['pagina', 'subtotal'] },
  'Paginacion/Pagina/SubtotalImpuestoAdicional': { json: 'detalle_impuesto_adicional', strip: ['pagina', 'subtotal'] },
  InformacionReferencia: { json: 'referencia', strip: [] },
};

/** Names fixed by the service spec, or chosen where the rule gives nothing usable. Keyed by element path. */
export const ECF_OVERRIDES: Record<string, { json?: string; source?: Source; jsonByTipo?: Record<string, string>; jsonKind?: JsonKind }> = {
  'Encabezado/Version': { source: 'fixed' },
  'Encabezado/IdDoc/TipoeCF': { source: 'fixed' },
  'Encabezado/IdDoc/eNCF': { source: 'context', json: 'encf' },
  'Encabezado/IdDoc/FechaVencimientoSecuencia': { source: 'context', json: 'fecha_vencimiento_secuencia' },
  'Encabezado/Emisor/FechaEmision': { source: 'context', json: 'fecha_emision' },
  'Encabezado/Emisor/RNCEmisor': { source: 'issuer' },
  'Encabezado/Emisor/RazonSocialEmisor': { source: 'issuer' },
  'Encabezado/Emisor/NombreComercial': { source: 'issuer' },
  'Encabezado/Emisor/Sucursal': { source: 'issuer' },
  'Encabezado/Emisor/DireccionEmisor': { source: 'issuer' },
  'Encabezado/Emisor/Municipio': { source: 'issuer' },
  'Encabezado/Emisor/Provincia': { source: 'issuer' },
  'Encabezado/Emisor/TablaTelefonoEmisor/TelefonoEmisor': { source: 'issuer', json: 'telefonos' },
  'Encabezado/Emisor/CorreoEmisor': { source: 'issuer' },
  'Encabezado/Emisor/WebSite': { source: 'issuer' },
  'Encabezado/Emisor/ActividadEconomica': { source: 'issuer' },
  'DetallesItems/Item/NumeroLinea': { source: 'derived' },
  'DescuentosORecargos/DescuentoORecargo/NumeroLinea': { source: 'derived' },
  'DetallesItems/Item/IndicadorBienoServicio': { json: 'indicador_bien_servicio' },
  'DetallesItems/Item/Retencion/IndicadorAgenteRetencionoPercepcion': { json: 'indicador' },
  'DetallesItems/Item/Retencion/MontoISRRetenido': { jsonByTipo: { '47': 'isr_retenido' } },
  'DetallesItems/Item/TablaSubcantidad/SubcantidadItem/Subcantidad': { json: 'cantidad' },
  'DetallesItems/Item/TablaSubcantidad/SubcantidadItem/CodigoSubcantidad': { json: 'codigo' },
  'Paginacion/Pagina/PaginaNo': { json: 'pagina' },
  'Paginacion/Pagina/MontoSubtotalPagina': { json: 'monto' },
  'Paginacion/Pagina/SubtotalImpuestoAdicional/SubtotalOtrosImpuesto': { json: 'otros_impuestos' },
  FechaHoraFirma: { source: 'signature', json: 'fecha_hora_firma' },
};

/** Integer-coded indicators the spec writes as strings (`indicador_bien_servicio`, `retencion.indicador`). */
export const STRING_INDICATORS = new Set(['IndicadorBienoServicio', 'IndicadorAgenteRetencionoPercepcion']);

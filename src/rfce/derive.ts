/**
 * RFCE — the consumer-invoice summary (RFCEF): for a type 32 with `MontoTotal` below RD$250,000.00 the full
 * e-CF is signed and kept, and this summary is sent instead. Derived from the SIGNED full e-CF (our JSON path
 * and passthrough XML alike), because its `CodigoSeguridadeCF` is the first 6 characters of that e-CF's
 * SignatureValue and DGII compares it with the full document later.
 *
 * Pitfalls handled (checked against the RFCE XSD): amounts are re-formatted with exactly 2 decimals
 * (the RFCE patterns accept 0 or 2, never 1); `Comprador` is always present, even empty.
 */
import { EcfValidationError } from '../errors/validation-error.js';
import { parseDec, cmp } from '../calc/decimal.js';
import { securityCode } from '../derive/security-code.js';
import { ECF_TYPE_INFO } from '../spec/doc-types.js';
import { RFCE_TABLE } from '../spec/other-tables.gen.js';
import { numberText } from '../calc/decimal.js';
import { parseEcfXml } from '../xml/ecf.js';
import { renderXml } from '../xml/render.js';

const THRESHOLD = parseDec(ECF_TYPE_INFO['32'].summaryThreshold!)!;

/** True when a type-32 total (as a number) is below the summary threshold. */
export function isBelowSummaryThreshold(montoTotal: number): boolean {
  const d = parseDec(numberText(montoTotal) ?? '');
  return d !== null && cmp(d, THRESHOLD) < 0;
}

/** Builds the unsigned RFCE from a signed type-32 e-CF. Throws when the e-CF is not summarisable. */
export function deriveRfceXml(signedEcf32: string): string {
  const parsed = parseEcfXml(signedEcf32);
  const fail = (message: string) => {
    throw new EcfValidationError([{ code: 'rule', path: '', message, severity: 'error', ruleId: 'RFCE-ORIGEN' }]);
  };
  if (parsed.tipo !== '32') fail(`Solo una factura de consumo (tipo 32) se resume como RFCE; el documento es tipo ${parsed.tipo}.`);
  if (!parsed.signed) fail('El RFCE se deriva de la factura de consumo firmada; el XML no tiene firma.');
  const doc = parsed.document as Record<string, any>;
  const totales = (doc.totales ?? {}) as Record<string, any>;
  if (typeof totales.monto_total !== 'number' || !isBelowSummaryThreshold(totales.monto_total)) {
    fail('Una factura de consumo de RD$250,000.00 o más se envía completa, no como resumen (RFCE).');
  }
  const idDoc = (doc.id_doc ?? {}) as Record<string, any>;
  const comprador = (doc.comprador ?? {}) as Record<string, any>;
  const model = {
    id_doc: {
      tipo_ecf: '32',
      encf: parsed.context.encf,
      tipo_ingresos: idDoc.tipo_ingresos,
      tipo_pago: idDoc.tipo_pago,
      forma_de_pago: (idDoc.formas_pago ?? []).map((f: Record<string, unknown>) => ({ forma_pago: f.forma, monto_pago: f.monto })),
    },
    emisor: { rnc_emisor: parsed.context.emisor.rnc, razon_social_emisor: parsed.context.emisor.razon_social, fecha_emision: parsed.context.fecha_emision },
    comprador: { rnc_comprador: comprador.rnc, identificador_extranjero: comprador.identificador_extranjero, razon_social_comprador: comprador.razon_social },
    totales: {
      monto_gravado_total: totales.monto_gravado_total,
      monto_gravado_i1: totales.monto_gravado_i1,
      monto_gravado_i2: totales.monto_gravado_i2,
      monto_gravado_i3: totales.monto_gravado_i3,
      monto_exento: totales.monto_exento,
      total_itbis: totales.total_itbis,
      total_itbis1: totales.total_itbis1,
      total_itbis2: totales.total_itbis2,
      total_itbis3: totales.total_itbis3,
      monto_impuesto_adicional: totales.monto_impuesto_adicional,
      impuesto_adicional: (totales.impuestos_adicionales ?? []).map((i: Record<string, unknown>) => ({
        tipo_impuesto: i.tipo_impuesto,
        monto_impuesto_selectivo_consumo_especifico: i.monto_impuesto_selectivo_consumo_especifico,
        monto_impuesto_selectivo_consumo_advalorem: i.monto_impuesto_selectivo_consumo_advalorem,
        otros_impuestos_adicionales: i.otros_impuestos_adicionales,
      })),
      monto_total: totales.monto_total,
      monto_no_facturable: totales.monto_no_facturable,
      monto_periodo: totales.monto_periodo,
    },
    codigo_seguridad_ecf: securityCode(signedEcf32),
  };
  return renderXml(RFCE_TABLE, '*', model);
}

/**
 * RFCE — the consumer-invoice summary (RFCEF): for a type 32 with `MontoTotal` below RD$250,000.00 the full
 * e-CF is signed and kept, and this summary is sent instead. Derived from the SIGNED full e-CF (our JSON path
 * and passthrough XML alike), because its `CodigoSeguridadeCF` is the first 6 characters of that e-CF's
 * SignatureValue and DGII compares it with the full document later.
 *
 * Pitfalls handled (checked against the RFCE XSD): amounts are re-formatted with exactly 2 decimals
 * (the RFCE patterns accept 0 or 2, never 1, so a passthrough `616.5` becomes `616.50`); `Comprador` is
 * always present, even empty (the RFCE XSD requires it; a 32 may have no buyer data).
 */
import { EcfValidationError } from '../../shared/errors/validation-error.js';
import type { Issue } from '../../shared/issues.js';
import { cmp, numberText, parseDec } from '../../shared/money/decimal.js';
import { securityCode } from '../derive/security-code.js';
import { buildDocXml, parseDocXml, type ParsedDoc } from '../documents/generic.js';
import { ECF_TYPE_INFO } from '../spec/doc-types.js';
import { RFCE_TABLE } from '../spec/other-tables.gen.js';
import { parseEcfXml } from '../xml/ecf.js';

const THRESHOLD = parseDec(ECF_TYPE_INFO['32'].summaryThreshold!)!;

// biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
type Json = Record<string, any>;

/** True when a type-32 total (as a number) is below the summary threshold (RD$250,000.00). */
export function isBelowSummaryThreshold(montoTotal: number): boolean {
  const d = parseDec(numberText(montoTotal) ?? '');
  return d !== null && cmp(d, THRESHOLD) < 0;
}

/**
 * Builds the unsigned RFCE from a signed type-32 e-CF (built by ecf-kit or passthrough XML): the
 * header fields, the payment table, the totals (re-formatted with 2 decimals) and
 * `CodigoSeguridadeCF` = `securityCode(signedEcf32)`. Sign the result with `signXml` and keep the
 * signed 32: DGII compares the code with it later.
 *
 * @throws EcfValidationError (`ruleId` `RFCE-ORIGEN`) when the document is not a type 32, is not
 *   signed, has a `MontoTotal` of 250,000.00 or more, or has elements or values ecf-kit cannot read;
 *   or with the RFCE's own issues when the summary would not be valid
 * @example
 * const rfce = deriveRfceXml(signed32);
 * //=> '<?xml version="1.0" encoding="utf-8"?><RFCE><Encabezado>…<CodigoSeguridadeCF>m+tPLr</CodigoSeguridadeCF></Encabezado></RFCE>'
 */
export function deriveRfceXml(signedEcf32: string): string {
  const parsed = parseEcfXml(signedEcf32);
  const fail = (message: string, extra: Issue[] = []): never => {
    throw new EcfValidationError([{ code: 'rule', path: '', message, severity: 'error', ruleId: 'RFCE-ORIGEN' }, ...extra]);
  };
  if (parsed.tipo !== '32') fail(`Solo una factura de consumo (tipo 32) se resume como RFCE; el documento es tipo ${parsed.tipo}.`);
  if (!parsed.signed) fail('El RFCE se deriva de la factura de consumo firmada (su código de seguridad sale de la firma); el XML no tiene firma.');
  const errors = parsed.issues.filter((i) => i.severity === 'error');
  if (errors.length) fail('La factura de consumo tiene elementos o valores no reconocidos; corríjala antes de derivar el RFCE.', errors);
  const doc = parsed.document as Json;
  const totales = (doc.totales ?? {}) as Json;
  if (typeof totales.monto_total !== 'number' || !isBelowSummaryThreshold(totales.monto_total)) {
    fail('Una factura de consumo de RD$250,000.00 o más se envía completa a Recepción, no como resumen (RFCE).');
  }
  const idDoc = (doc.id_doc ?? {}) as Json;
  const comprador = (doc.comprador ?? {}) as Json;
  const model = {
    id_doc: {
      tipo_ecf: '32',
      encf: parsed.context.encf,
      tipo_ingresos: idDoc.tipo_ingresos,
      tipo_pago: idDoc.tipo_pago,
      forma_de_pago: (idDoc.formas_pago ?? []).map((f: Json) => ({ forma_pago: f.forma, monto_pago: f.monto })),
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
      impuesto_adicional: (totales.impuestos_adicionales ?? []).map((i: Json) => ({
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
  return buildDocXml(RFCE_TABLE, withoutUndefined(model));
}

/** What an RFCE holds, in the shape `deriveRfceXml` writes (RFCE JSON names). */
export interface RfceData {
  id_doc: {
    tipo_ecf: string;
    encf: string;
    tipo_ingresos: string;
    tipo_pago: string;
    forma_de_pago?: { forma_pago?: string; monto_pago?: number }[];
  };
  emisor: { rnc_emisor: string; razon_social_emisor: string; fecha_emision: string };
  /** Present in the XML even when empty; absent here when it has no data. */
  comprador?: { rnc_comprador?: string; identificador_extranjero?: string; razon_social_comprador?: string };
  totales: Record<string, unknown> & { monto_total: number };
  codigo_seguridad_ecf: string;
}

/** Parses an RFCE (signed or not) into {@link RfceData}. */
export function parseRfceXml(xml: string): ParsedDoc<RfceData> {
  return parseDocXml<RfceData>(RFCE_TABLE, xml);
}

function withoutUndefined<T>(v: T): T {
  if (Array.isArray(v)) return v.map(withoutUndefined) as T;
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => [k, withoutUndefined(x)]),
    ) as T;
  }
  return v;
}

/**
 * Documents for the PDF tests, the benchmark and the previews in docs/: valid (checked with safeValidateEcfJson),
 * signed with the test certificate and a fixed clock, so every PDF is reproducible.
 */
import { fillTotals } from '../../../src/ecf/calc/totals.js';
import { p12Signer, readP12, signEcf } from '../../../src/ecf/sign/index.js';
import type { EcfType } from '../../../src/ecf/spec/model.js';
import { safeValidateEcfJson } from '../../../src/ecf/validate/index.js';
import { allows } from '../../../src/ecf/validate/rules/shared.js';
import { buildEcfXmlFromJson, type BuildContext, type IssuerProfile } from '../../../src/ecf/xml/ecf.js';
import { modernP12 } from '../helpers/certs.js';
import { baseContext, baseDoc, BASE_FECHA_EMISION } from '../helpers/docs.js';

type Json = Record<string, any>;

/** Signing instant: 01-04-2026 10:00:00 in Santo Domingo (GMT-4). */
export const SIGNED_AT = new Date('2026-04-01T14:00:00Z');
export const SIGNED_AT_TEXT = '01-04-2026 10:00:00';

export const ISSUER: IssuerProfile = {
  rnc: '130182452',
  razon_social: 'Distribuidora Peña & Asociados, S.R.L.',
  nombre_comercial: 'Ferretería La Ñapa',
  sucursal: 'Piantini',
  direccion: 'Av. Abraham Lincoln No. 1003, Ensanche Piantini',
  municipio: '010100',
  provincia: '010000',
  telefonos: ['809-555-0101', '829-555-0103'],
  correo: 'facturacion@penayasociados.com.do',
  web_site: 'www.penayasociados.com.do',
};

/** Exactly 80 characters, the XSD maximum of `NombreItem`. */
export const LONG_NAME = 'Tubería PVC presión SDR-26 de 4 pulgadas x 19 pies, campana y espiga, marca Ñaño';

export function context(tipo: EcfType, encfSeq = 1): BuildContext {
  const ctx: BuildContext = { emisor: ISSUER, encf: `E${tipo}${String(encfSeq).padStart(10, '0')}`, fecha_emision: BASE_FECHA_EMISION };
  if (allows(tipo, 'id_doc.fecha_vencimiento_secuencia')) ctx.fecha_vencimiento_secuencia = '31-12-2027';
  return ctx;
}

/** A type-31 invoice that uses most of what an ordinary business prints. */
export function rich31(): Json {
  return fillTotals('31', {
    id_doc: {
      tipo_ingresos: '01',
      tipo_pago: '2',
      fecha_limite_pago: '01-05-2026',
      termino_pago: '30 días',
      formas_pago: [{ forma: '4', monto: 0 }],
    },
    emisor: { numero_factura_interna: 'FI-2026-0451', codigo_vendedor: 'V-014 Luis Ortiz' },
    comprador: {
      rnc: '101543213',
      razon_social: 'Constructora Núñez & Hermanos, S.A.',
      contacto: 'Ing. Ramón Ibáñez',
      correo: 'compras@constructoranunez.com.do',
      direccion: 'Calle El Conde No. 54, Zona Colonial',
    },
    items: [
      {
        indicador_facturacion: 1,
        nombre: 'Cemento gris Portland tipo I, funda 42.5 kg',
        indicador_bien_servicio: '1',
        descripcion: 'Cemento de uso general; almacenar en lugar seco.',
        cantidad: 120,
        unidad_medida: '46',
        precio_unitario: 465.5,
        descuento_monto: 2793,
        sub_descuentos: [{ tipo: '%', porcentaje: 5, monto: 2793 }],
      },
      { indicador_facturacion: 1, nombre: LONG_NAME, indicador_bien_servicio: '1', cantidad: 36, unidad_medida: '34', precio_unitario: 1185.25 },
      {
        indicador_facturacion: 4,
        nombre: 'Manual técnico «Construcción sismorresistente»',
        indicador_bien_servicio: '1',
        cantidad: 3,
        unidad_medida: '43',
        precio_unitario: 1275,
      },
      {
        indicador_facturacion: 1,
        nombre: 'Servicio de flete y descarga en obra',
        indicador_bien_servicio: '2',
        cantidad: 1,
        unidad_medida: '43',
        precio_unitario: 2500,
      },
    ],
    descuentos_recargos: [{ tipo_ajuste: 'D', descripcion: 'Descuento por pronto pago', tipo_valor: '$', valor: 500, monto: 500, indicador_facturacion: 1 }],
  });
}

/** An export (46): foreign buyer with country, customs and transport blocks. */
export function rich46(): Json {
  return fillTotals('46', {
    id_doc: { tipo_ingresos: '01', tipo_pago: '1', formas_pago: [{ forma: '2', monto: 0 }] },
    comprador: {
      identificador_extranjero: 'EIN 12-3456789',
      razon_social: 'Caribbean Cocoa & Metals Imports, LLC',
      pais: 'US',
      direccion: '1200 Brickell Ave, Suite 800, Miami, FL 33131',
    },
    informaciones_adicionales: {
      fecha_embarque: '02-04-2026',
      numero_embarque: 'EMB-2026-118',
      numero_contenedor: 'MSKU 123456-7',
      nombre_puerto_embarque: 'Puerto de Haina',
      condiciones_entrega: 'FOB',
      total_fob: 740000,
      peso_bruto: 2450.5,
      unidad_peso_bruto: '21',
      peso_neto: 2400,
      unidad_peso_neto: '21',
    },
    transporte: {
      via_transporte: '02',
      pais_origen: 'DO',
      pais_destino: 'US',
      nombre_compania_transportista: 'Naviera del Caribe, S.A.',
      numero_viaje: 'NC-0426',
    },
    items: [
      {
        indicador_facturacion: 3,
        nombre: 'Cacao en grano fermentado, saco 60 kg',
        indicador_bien_servicio: '1',
        descripcion: 'Cacao Hispaniola, cosecha 2025-2026, certificado orgánico.',
        cantidad: 40,
        unidad_medida: '46',
        precio_unitario: 18500,
      },
    ],
  });
}

/** Sets every `formas_pago[].monto` to the total (one payment form). */
function payInFull(doc: Json): Json {
  for (const f of doc.id_doc?.formas_pago ?? []) f.monto = doc.totales.monto_total;
  return doc;
}

/** A document of `n` lines of type `tipo` (line `i` named distinctly), totals filled. */
export function manyLines(tipo: EcfType, n: number, price = 10): Json {
  const base = baseDoc(tipo);
  const template = { ...base.items[0] };
  delete template.monto;
  base.items = Array.from({ length: n }, (_, i) => ({
    ...structuredClone(template),
    nombre: `Artículo ${i + 1} de prueba`,
    cantidad: 1,
    precio_unitario: price,
  }));
  delete base.totales;
  return fillTotals(tipo, base);
}

/** Throws with the issues when `doc` is not valid for `tipo` (fixtures must stay valid). */
export function assertValid(tipo: EcfType, doc: Json): void {
  const r = safeValidateEcfJson(tipo, doc, { fechaEmision: BASE_FECHA_EMISION });
  if (!r.success) throw new Error(`fixture ${tipo} is invalid: ${JSON.stringify(r.issues.slice(0, 5))}`);
}

let signerCache: ReturnType<typeof p12Signer> | null = null;
function signer() {
  if (!signerCache) {
    const t = modernP12();
    signerCache = p12Signer(readP12(t.p12, t.password));
  }
  return signerCache;
}

/** Builds (validating) and signs with the fixed clock. */
export async function signed(tipo: EcfType, doc: Json, ctx: BuildContext = context(tipo)): Promise<string> {
  return signEcf(buildEcfXmlFromJson(tipo, doc, ctx), signer(), () => SIGNED_AT);
}

export const richDocs = { '31': () => payInFull(rich31()), '46': () => payInFull(rich46()) } as const;

/** Minimal valid documents of the ten types (test/ecf/helpers/docs.ts) with this file's issuer. */
export function minimal(tipo: EcfType): { doc: Json; ctx: BuildContext } {
  const ctx = { ...baseContext(tipo), emisor: ISSUER };
  return { doc: baseDoc(tipo), ctx };
}

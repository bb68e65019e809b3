/**
 * Build an electronic tax-credit invoice (e-CF type 31) from canonical JSON and print the unsigned XML.
 *
 *   npx tsx examples/build.ts
 *
 * The document holds only what the caller knows; `fillTotals` fills each line's `monto` and the `totales` block, and
 * the build context supplies what the service assigns (issuer profile, e-NCF, dates). `buildEcfXml` validates
 * everything first and throws `EcfValidationError` (with every issue) when something is wrong.
 */
import { buildEcfXml, EcfValidationError, fillTotals, safeValidateEcf, type BuildContext } from '../src/ecf/index.js';

const context: BuildContext = {
  emisor: {
    rnc: '130182452',
    razon_social: 'Distribuidora Peña & Asociados, S.R.L.',
    direccion: 'Av. Abraham Lincoln No. 1003, Ensanche Piantini, Santo Domingo',
  },
  encf: 'E310000000001',
  fecha_emision: '01-04-2026',
  fecha_vencimiento_secuencia: '31-12-2027',
};

const doc = fillTotals('31', {
  id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
  comprador: { rnc: '101543213', razon_social: 'Ferretería Ñañez & Hermanos, S.A.' },
  items: [
    { indicador_facturacion: 1, nombre: 'Cemento gris Portland tipo I, funda 42.5 kg', indicador_bien_servicio: '1', cantidad: 20, precio_unitario: 465.5 },
    { indicador_facturacion: 4, nombre: 'Manual de instalación (exento)', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 350 },
  ],
});
// doc.items[0].monto //=> 9310
// doc.totales //=> { monto_gravado_total: 9310, monto_gravado_i1: 9310, monto_exento: 350, itbis1: 18, total_itbis: 1675.8, total_itbis1: 1675.8, monto_total: 11335.8 }

// Validation without throwing: { success, data, warnings } or { success: false, issues }.
const checked = safeValidateEcf('31', doc, { fechaEmision: context.fecha_emision });
if (!checked.success) {
  console.error(checked.issues);
  process.exit(1);
}

try {
  const xml = buildEcfXml('31', doc, context);
  console.log(xml);
  //=> <?xml version="1.0" encoding="utf-8"?><ECF><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>31</TipoeCF>…</ECF>
} catch (e) {
  if (e instanceof EcfValidationError) console.error(e.issues);
  throw e;
}

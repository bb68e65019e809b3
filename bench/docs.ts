/** Benchmark documents: a 10-line type 31 and an N-line type 32 below the RD$250,000 threshold. */
import { fillTotals } from '../src/calc/totals.js';
import type { EcfType } from '../src/spec/model.js';
import type { BuildContext } from '../src/xml/ecf.js';

export const issuer = { rnc: '101672919', razon_social: 'Distribuidora Ejemplo, S.R.L.', direccion: 'Av. Winston Churchill 1099, Santo Domingo' };

export function context(tipo: string, seq = 1): BuildContext {
  return { emisor: issuer, encf: `E${tipo}${String(seq).padStart(10, '0')}`, fecha_emision: '01-04-2026', fecha_vencimiento_secuencia: '31-12-2027' };
}

/** Lines taxed at 18%; totals from the SDK's own exact calculation. */
function doc(tipo: EcfType, lines: number, price: number, extra: Record<string, unknown>): Record<string, unknown> {
  const items = Array.from({ length: lines }, (_, i) => ({
    indicador_facturacion: 1,
    nombre: `Artículo de prueba número ${i + 1}`,
    indicador_bien_servicio: '1',
    cantidad: 1,
    unidad_medida: '43',
    precio_unitario: price,
    monto: price,
  }));
  return fillTotals(tipo, { ...extra, items });
}

export function doc31(lines = 10): Record<string, unknown> {
  return doc('31', lines, 150.5, { id_doc: { tipo_ingresos: '01', tipo_pago: '1' }, comprador: { rnc: '131880738', razon_social: 'Cliente Ejemplo, S.A.' } });
}

export function doc32(lines = 10000): Record<string, unknown> {
  return doc('32', lines, 10, { id_doc: { tipo_ingresos: '01', tipo_pago: '1' } });
}

/**
 * Benchmark documents: a 10-line type 31, an N-line type 32 below the RD$250,000 threshold, and N-line
 * documents of any of the ten types built from the valid bases of test/ecf/helpers/docs.ts.
 */
import { fillTotals } from '../src/ecf/calc/totals.js';
import type { EcfType } from '../src/ecf/spec/model.js';
import type { BuildContext } from '../src/ecf/xml/ecf.js';
import { baseContext, baseDoc } from '../test/ecf/helpers/docs.js';

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

/**
 * An `n`-line document of any of the ten types: the valid minimal base of test/ecf/helpers/docs.ts with its one
 * line repeated (each named distinctly) and the totals recomputed by `fillTotals`. `line` overrides fields of
 * the repeated line (e.g. the price, to stay below or above the type-32 summary threshold); `fields` overrides
 * top-level fields (e.g. `comprador`).
 */
export function linesDoc(tipo: EcfType, n: number, line: Record<string, unknown> = {}, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const base = { ...baseDoc(tipo), ...structuredClone(fields) };
  const template: Record<string, unknown> = { ...structuredClone(base.items[0]), ...line };
  delete template.monto;
  base.items = Array.from({ length: n }, (_, i) => ({ ...structuredClone(template), nombre: `Artículo de prueba número ${i + 1}` }));
  delete base.totales;
  return fillTotals(tipo, base);
}

/** The build context of `linesDoc` documents (sequence expiry only where the type's XSD has it). */
export function linesContext(tipo: EcfType, seq = 1): BuildContext {
  return { ...baseContext(tipo), encf: `E${tipo}${String(seq).padStart(10, '0')}` };
}

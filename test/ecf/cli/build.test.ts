import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { fakeIo } from '../helpers/cli.js';

const issuer = JSON.stringify({ rnc: '101672919', razon_social: 'Emisor SRL', direccion: 'Calle 1' });
const valid = JSON.stringify({
  id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
  comprador: { rnc: '131880738', razon_social: 'Cliente SRL' },
  items: [{ indicador_facturacion: 1, nombre: 'Café', indicador_bien_servicio: '1', cantidad: 2, precio_unitario: 100, monto: 200 }],
  totales: { monto_gravado_total: 200, monto_gravado_i1: 200, itbis1: 18, total_itbis: 36, total_itbis1: 36, monto_total: 236 },
});
const args = ['build', '--type', '31', '--issuer', 'issuer.json', '--encf', 'E310000000001', '--sequence-expiry', '31-12-2027', '--issued-at', '01-04-2026'];

describe('ecf build', () => {
  it('writes the XML to stdout and exits 0', async () => {
    const f = fakeIo({ 'issuer.json': issuer, 'doc.json': valid });
    expect(await runCli([...args, 'doc.json'], f.io)).toBe(0);
    expect(f.out()).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?><ECF><Encabezado>/);
    expect(f.out()).toContain('<eNCF>E310000000001</eNCF>');
    expect(f.out()).toContain('<FechaEmision>01-04-2026</FechaEmision>');
  });

  it('exits 1 and prints the issues as {errors, detailed_errors}', async () => {
    const bad = JSON.parse(valid);
    bad.items[0].cantidad = 'dos';
    delete bad.comprador.rnc;
    const f = fakeIo({ 'issuer.json': issuer, 'doc.json': JSON.stringify(bad) });
    expect(await runCli([...args, 'doc.json'], f.io)).toBe(1);
    const report = JSON.parse(f.out());
    expect(report.detailed_errors['items.0.cantidad']).toBeDefined();
    expect(report.detailed_errors['comprador.rnc']).toHaveLength(1);
    expect(report.detailed_errors['comprador.rnc'][0]).toMatch(/^Campo requerido/);
    expect(report.errors.length).toBeGreaterThanOrEqual(2);
  });

  it('reports malformed JSON as an issue, exit 1', async () => {
    const f = fakeIo({ 'issuer.json': issuer, 'doc.json': '{"id_doc": ' });
    expect(await runCli([...args, 'doc.json'], f.io)).toBe(1);
    expect(JSON.parse(f.out()).errors[0]).toMatch(/JSON mal formado/);
  });

  it('exits 2 with usage when a flag is missing', async () => {
    const f = fakeIo({});
    expect(await runCli(['build', 'doc.json'], f.io)).toBe(2);
    expect(f.err()).toMatch(/missing --type/);
  });
});

import { describe, expect, it } from 'vitest';
import { readXsd, flatten } from '../../../scripts/xsd-read.js';
import { snake, words } from '../../../scripts/json-names.js';
import { ECF_TABLE } from '../../../src/ecf/spec/ecf-table.gen.js';
import { ECF_TYPES } from '../../../src/ecf/spec/model.js';
import { jsonFields, jsonPathFor, xmlTree } from '../../../src/ecf/spec/tree.js';
import { xsdDir } from '../helpers/env.js';

describe('ECF_TABLE covers the official XSDs', () => {
  for (const tipo of ECF_TYPES) {
    it(`every element of e-CF-${tipo} is a row with that type's occurrence, in XSD order`, () => {
      const f = readXsd(xsdDir(), `e-CF-${tipo}-v1.0.xsd`);
      const xsdPaths = flatten(f.root)
        .slice(1)
        .map((e) => ({ path: e.path.slice(4), min: e.min, max: e.max }));
      const rows = ECF_TABLE.rows.filter((r) => r.occurs[tipo]);
      expect(rows.map((r) => r.xml)).toEqual(xsdPaths.map((p) => p.path));
      for (const p of xsdPaths) {
        const row = ECF_TABLE.rows.find((r) => r.xml === p.path)!;
        expect(row.occurs[tipo]).toEqual([p.min, p.max]);
      }
    });
  }

  it('has one superset of element paths (262 data elements below the root)', () => {
    expect(ECF_TABLE.rows.length).toBe(262);
    expect(new Set(ECF_TABLE.rows.map((r) => r.xml)).size).toBe(262);
  });

  it('records the SHA-256 of every source XSD', () => {
    expect(Object.keys(ECF_TABLE.sources)).toHaveLength(10);
    for (const h of Object.values(ECF_TABLE.sources)) expect(h).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('canonical JSON names', () => {
  const paths = (tipo: string) => new Set(ECF_TABLE.rows.filter((r) => r.occurs[tipo]).map((r) => jsonPathFor(r, tipo)));

  it.each([
    ['31', 'comprador.rnc'],
    ['31', 'comprador.razon_social'],
    ['31', 'id_doc.tipo_ingresos'],
    ['31', 'id_doc.tipo_pago'],
    ['31', 'id_doc.formas_pago[].forma'],
    ['31', 'id_doc.formas_pago[].monto'],
    ['34', 'id_doc.indicador_nota_credito'],
    ['31', 'id_doc.indicador_envio_diferido'],
    ['31', 'items[].nombre'],
    ['31', 'items[].cantidad'],
    ['31', 'items[].unidad_medida'],
    ['31', 'items[].precio_unitario'],
    ['31', 'items[].monto'],
    ['31', 'items[].indicador_facturacion'],
    ['31', 'items[].indicador_bien_servicio'],
    ['41', 'items[].retencion.indicador'],
    ['41', 'items[].retencion.monto_itbis_retenido'],
    ['41', 'items[].retencion.monto_isr_retenido'],
    ['47', 'items[].retencion.isr_retenido'],
    ['31', 'totales.monto_gravado_total'],
    ['31', 'totales.itbis1'],
    ['31', 'totales.total_itbis'],
    ['31', 'totales.monto_total'],
    ['31', 'totales.monto_gravado_i1'],
    ['31', 'totales.total_itbis1'],
    ['46', 'totales.monto_gravado_i3'],
    ['46', 'totales.itbis3'],
    ['46', 'totales.total_itbis3'],
    ['31', 'totales.monto_exento'],
    ['31', 'totales.impuestos_adicionales[]'],
    ['31', 'totales.total_itbis_retenido'],
    ['31', 'totales.total_isr_retencion'],
    ['33', 'referencia.ncf_modificado'],
    ['33', 'referencia.fecha_ncf_modificado'],
    ['33', 'referencia.codigo_modificacion'],
    ['33', 'referencia.razon_modificacion'],
    ['46', 'comprador.identificador_extranjero'],
    ['46', 'comprador.pais'],
    ['46', 'informaciones_adicionales.fecha_embarque'],
    ['46', 'informaciones_adicionales.numero_embarque'],
    ['46', 'informaciones_adicionales.condiciones_entrega'],
    ['46', 'informaciones_adicionales.total_fob'],
    ['46', 'informaciones_adicionales.seguro'],
    ['46', 'informaciones_adicionales.flete'],
    ['46', 'informaciones_adicionales.total_cif'],
    ['46', 'informaciones_adicionales.regimen_aduanero'],
    ['46', 'informaciones_adicionales.peso_bruto'],
    ['46', 'informaciones_adicionales.peso_neto'],
    ['46', 'informaciones_adicionales.unidad_peso_bruto'],
    ['46', 'informaciones_adicionales.unidad_peso_neto'],
    ['46', 'transporte.via_transporte'],
    ['46', 'transporte.pais_origen'],
    ['46', 'transporte.pais_destino'],
    ['31', 'descuentos_recargos[].monto'],
    ['31', 'subtotales[].monto'],
    ['31', 'otra_moneda.tipo_moneda'],
    ['31', 'otra_moneda.monto_total'],
  ])('type %s has %s (names the service spec fixes)', (tipo, path) => {
    expect(paths(tipo)).toContain(path);
  });

  it('47 names the withheld ISR isr_retenido, not monto_isr_retenido', () => {
    expect(paths('47')).not.toContain('items[].retencion.monto_isr_retenido');
  });

  it('applies the documented rule', () => {
    expect(snake('TotalITBISRetenido')).toBe('total_itbis_retenido');
    expect(snake('TotalISRRetencion')).toBe('total_isr_retencion');
    expect(snake('RNCComprador', ['comprador'])).toBe('rnc');
    expect(snake('NombreItem', ['item'])).toBe('nombre');
    expect(snake('IndicadorNorma1007')).toBe('indicador_norma_1007');
    expect(words('MontoGravadoI1')).toEqual(['monto', 'gravado', 'i1']);
  });

  it('gives every JSON key a snake_case name and no duplicate paths within a type', () => {
    for (const tipo of ECF_TYPES)
      for (const source of ['doc', 'issuer'] as const) {
        const seen = new Set<string>();
        const walk = (fs: ReturnType<typeof jsonFields>) => {
          for (const f of fs) {
            expect(f.key).toMatch(/^[a-z][a-z0-9_]*$/);
            expect(seen.has(f.json)).toBe(false);
            seen.add(f.json);
            if (f.fields) walk(f.fields);
          }
        };
        walk(jsonFields(xmlTree(ECF_TABLE, tipo), source));
      }
  });

  it('issuer profile needs rnc, razon_social and direccion', () => {
    const emisor = jsonFields(xmlTree(ECF_TABLE, '31'), 'issuer').find((f) => f.key === 'emisor')!;
    expect(emisor.fields!.filter((f) => f.required).map((f) => f.key)).toEqual(['rnc', 'razon_social', 'direccion']);
  });
});

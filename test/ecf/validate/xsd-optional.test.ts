/**
 * Issue 15 ("never stricter than DGII"), the systematic check: every field a business rule requires although the
 * type's XSD makes it optional (minOccurs 0). For each type, every field present in the committed fixtures
 * (test/ecf/fixtures/ecf/<type>/*.json) that the field table marks optional for that type is removed, one at a
 * time, and the document validated: a `required` error at the removed path is such a field. The list is pinned
 * below (and in docs/spec-vs-xsd.md, with the reason each one stays an error): a new one fails this test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ECF_TABLE } from '../../../src/ecf/spec/ecf-table.gen.js';
import { ECF_TYPES, type EcfType } from '../../../src/ecf/spec/model.js';
import { safeValidateEcfJson } from '../../../src/ecf/validate/index.js';
import { BASE_FECHA_EMISION } from '../helpers/docs.js';

type Json = Record<string, any>;

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'ecf');

/** JSON path with indices (`items.0.retencion`) → table path (`items[].retencion`). */
const tablePath = (p: string) => p.replace(/\.\d+(?=\.|$)/g, '[]');

const OPTIONAL = new Map<string, Set<EcfType>>();
for (const row of ECF_TABLE.rows as readonly Json[]) {
  if (!row.json || row.source !== 'doc') continue;
  for (const [t, [min]] of Object.entries(row.occurs as Record<string, [number, number]>)) {
    if (min !== 0) continue;
    if (!OPTIONAL.has(row.json)) OPTIONAL.set(row.json, new Set());
    OPTIONAL.get(row.json)!.add(t as EcfType);
  }
}

function paths(v: unknown, prefix = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => [`${prefix}.${i}`, ...paths(x, `${prefix}.${i}`)]);
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [prefix ? `${prefix}.${k}` : k, ...paths(x, prefix ? `${prefix}.${k}` : k)]);
  return [];
}

function without(doc: Json, path: string): Json {
  const copy = structuredClone(doc);
  const keys = path.split('.');
  let o: any = copy;
  for (const k of keys.slice(0, -1)) o = o[k];
  const last = keys.at(-1)!;
  if (Array.isArray(o)) o.splice(Number(last), 1);
  else delete o[last];
  return copy;
}

/** `table-path rule severity: types` for every optional-in-XSD field whose removal gives a `required` issue at its path. */
function requiredButOptional(): string[] {
  const found = new Map<string, Set<EcfType>>();
  for (const tipo of ECF_TYPES) {
    for (const f of readdirSync(join(FIXTURES, tipo)).filter((n) => n.endsWith('.json'))) {
      const doc = JSON.parse(readFileSync(join(FIXTURES, tipo, f), 'utf8')) as Json;
      for (const p of paths(doc)) {
        const tp = tablePath(p);
        if (/\.\d+$/.test(p) || !OPTIONAL.get(tp)?.has(tipo)) continue;
        const r = safeValidateEcfJson(tipo, without(doc, p), { fechaEmision: BASE_FECHA_EMISION });
        const all = [...(r.success ? [] : r.issues), ...r.warnings];
        for (const i of all) {
          if (i.code !== 'required' || i.path !== p) continue;
          const key = `${tp} ${i.ruleId ?? 'shape'} ${i.severity}`;
          if (!found.has(key)) found.set(key, new Set());
          found.get(key)!.add(tipo);
        }
      }
    }
  }
  return [...found].map(([k, ts]) => `${k}: ${[...ts].sort().join(' ')}`).sort();
}

describe('fields a rule requires although the XSD makes them optional (issue 15)', () => {
  it('are exactly the listed ones, each a DGII-documented condition (error) or a spec reading (warning)', () => {
    expect(requiredButOptional()).toMatchInlineSnapshot(`
      [
        "comprador.razon_social ECF-COMPRADOR-UMBRAL error: 32",
        "comprador.rnc ECF-COMPRADOR-UMBRAL error: 32",
        "descuentos_recargos[].indicador_facturacion ECF-DR-CAMPOS error: 31 32 33 34 41 44 45 46",
        "descuentos_recargos[].monto ECF-DR-CAMPOS error: 31 32 33 34 41 44 45 46",
        "descuentos_recargos[].tipo_valor ECF-DR-CAMPOS error: 31 32 33 34 41 44 45 46",
        "descuentos_recargos[].valor ECF-DR-CAMPOS error: 31 32 33 34 41 44 45 46",
        "id_doc.tipo_ingresos ECF-IDDOC-TIPO-INGRESOS warning: 33 34",
        "id_doc.total_paginas ECF-PAG-TOTAL-PAGINAS error: 31 32 33 34 41 43 44 45 46 47",
        "items[].cantidad_referencia ECF-ISC-ITEM-DATOS error: 31 32 33 34 45",
        "items[].descuento_monto ECF-ITEM-SUBDESCUENTOS error: 31 32 33 34 41 44 45 46",
        "items[].grados_alcohol ECF-ISC-ITEM-DATOS error: 31 32 33 34 45",
        "items[].otra_moneda.monto ECF-OM-ITEM error: 31 32 33 34 41 43 44 45 46 47",
        "items[].precio_unitario_referencia ECF-ISC-ITEM-DATOS error: 31 32 33 34 45",
        "items[].recargo_monto ECF-ITEM-SUBRECARGOS error: 31 32 33 34 41 44 45 46",
        "items[].retencion.indicador ECF-RET-INDICADOR error: 31 33 34",
        "items[].sub_descuentos[].monto ECF-ITEM-SUBDESCUENTOS error: 31 32 33 34 41 44 45 46",
        "items[].sub_descuentos[].porcentaje ECF-ITEM-SUBDESCUENTOS error: 31 32 33 34 41 44 45 46",
        "items[].sub_recargos[].monto ECF-ITEM-SUBRECARGOS error: 31 32 33 34 41 44 45 46",
        "items[].sub_recargos[].porcentaje ECF-ITEM-SUBRECARGOS error: 31 32 33 34 41 44 45 46",
        "items[].unidad_referencia ECF-ISC-ITEM-DATOS error: 31 32 33 34 45",
        "otra_moneda.impuestos_adicionales[].monto_impuesto_selectivo_consumo_advalorem ECF-ISC-MONTO-CAMPO error: 31 32 33 34 45",
        "otra_moneda.impuestos_adicionales[].monto_impuesto_selectivo_consumo_especifico ECF-ISC-MONTO-CAMPO error: 31 32 33 34 45",
        "otra_moneda.impuestos_adicionales[].otros_impuestos_adicionales ECF-ISC-MONTO-CAMPO error: 31 32 33 34 44 45",
        "otra_moneda.impuestos_adicionales[].tasa_impuesto_adicional ECF-ISC-ENTRADA error: 44 45",
        "otra_moneda.impuestos_adicionales[].tipo_impuesto ECF-ISC-ENTRADA error: 44 45",
        "otra_moneda.monto_exento ECF-OM-MONTOS error: 31 32 33 34 41 43 44 45 47",
        "otra_moneda.monto_gravado_i1 ECF-OM-MONTOS error: 31 32 33 34 41 45",
        "otra_moneda.monto_gravado_i2 ECF-OM-MONTOS error: 31 32 33 34 41 45",
        "otra_moneda.monto_gravado_i3 ECF-OM-MONTOS error: 31 32 33 34 41 45 46",
        "otra_moneda.monto_gravado_total ECF-OM-MONTOS error: 31 32 33 34 41 45 46",
        "otra_moneda.monto_impuesto_adicional ECF-OM-MONTOS error: 31 32 33 34 44 45",
        "otra_moneda.monto_total ECF-OM-MONTOS error: 31 32 33 34 41 43 44 45 46 47",
        "otra_moneda.tipo_cambio ECF-OM-TIPO error: 31 32 33 34 41 43 44 45 46 47",
        "otra_moneda.tipo_moneda ECF-OM-TIPO error: 31 32 33 34 41 43 44 45 46 47",
        "otra_moneda.total_itbis ECF-OM-MONTOS error: 31 32 33 34 41 45",
        "otra_moneda.total_itbis1 ECF-OM-MONTOS error: 31 32 33 34 41 45",
        "otra_moneda.total_itbis2 ECF-OM-MONTOS error: 31 32 33 34 41 45",
        "paginacion[].monto ECF-PAG-SUBTOTALES error: 31 32 33 34 41 43 44 45 46 47",
        "paginacion[].no_linea_desde ECF-PAG-NUMERACION error: 31 32 33 34 41 43 44 45 46 47",
        "paginacion[].no_linea_hasta ECF-PAG-NUMERACION error: 31 32 33 34 41 43 44 45 46 47",
        "paginacion[].pagina ECF-PAG-NUMERACION error: 31 32 33 34 41 43 44 45 46 47",
        "totales.impuestos_adicionales[].monto_impuesto_selectivo_consumo_advalorem ECF-ISC-MONTO-CAMPO error: 31 32 33 34 45",
        "totales.impuestos_adicionales[].monto_impuesto_selectivo_consumo_especifico ECF-ISC-MONTO-CAMPO error: 31 32 33 34 45",
        "totales.impuestos_adicionales[].otros_impuestos_adicionales ECF-ISC-MONTO-CAMPO error: 31 32 33 34 45",
        "totales.impuestos_adicionales[].tasa_impuesto_adicional ECF-ISC-ENTRADA error: 34",
        "totales.impuestos_adicionales[].tipo_impuesto ECF-ISC-ENTRADA error: 34",
        "totales.itbis1 ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45",
        "totales.itbis2 ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45",
        "totales.itbis3 ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45 46",
        "totales.monto_exento ECF-TOT-CONDICIONAL error: 31 32 33 34 41 43 44 45 47",
        "totales.monto_gravado_i1 ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45",
        "totales.monto_gravado_i2 ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45",
        "totales.monto_gravado_i3 ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45 46",
        "totales.monto_gravado_total ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45 46",
        "totales.monto_impuesto_adicional ECF-TOT-CONDICIONAL error: 31 32 33 34 44 45",
        "totales.monto_no_facturable ECF-TOT-CONDICIONAL error: 31 32 33 34 44 45 46",
        "totales.total_isr_percepcion ECF-TOT-CONDICIONAL error: 31 33 34 41",
        "totales.total_isr_retencion ECF-TOT-CONDICIONAL error: 31 33 34 41 47",
        "totales.total_itbis ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45 46",
        "totales.total_itbis1 ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45",
        "totales.total_itbis2 ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45",
        "totales.total_itbis3 ECF-TOT-CONDICIONAL error: 31 32 33 34 41 45 46",
        "totales.total_itbis_percepcion ECF-TOT-CONDICIONAL error: 31 33 34 41",
        "totales.total_itbis_retenido ECF-TOT-CONDICIONAL error: 31 33 34 41",
      ]
    `);
  });
});

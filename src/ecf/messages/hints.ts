/**
 * Precise Spanish hints appended to the shape layer's `required` / `not_allowed` messages, keyed by JSON path
 * pattern (`items[].retencion`, `[]` for array elements, no trailing `[]`) and e-CF type. They turn
 * "Campo no permitido en el tipo 44." into "Campo no permitido en el tipo 44. El tipo 44 (regímenes especiales) no
 * lleva montos gravados ni ITBIS; use monto_exento." — the rows of the service spec's "Frequent validation errors"
 * table and the "Particularities by type" that the XSD already enforces.
 */

export type HintCode = 'required' | 'not_allowed';

interface HintRow {
  code: HintCode;
  paths: readonly string[];
  types: readonly string[];
  text: (tipo: string) => string;
}

const ITBIS_KEYS = [
  'monto_gravado_total',
  'monto_gravado_i1',
  'monto_gravado_i2',
  'monto_gravado_i3',
  'itbis1',
  'itbis2',
  'itbis3',
  'total_itbis',
  'total_itbis1',
  'total_itbis2',
  'total_itbis3',
];
const PAY_KEYS = ['formas_pago', 'tipo_cuenta_pago', 'numero_cuenta_pago', 'banco_pago', 'termino_pago'];
const ADDITIONAL_TAX_PATHS = [
  'items[].impuestos_adicionales',
  'totales.impuestos_adicionales',
  'totales.monto_impuesto_adicional',
  'otra_moneda.impuestos_adicionales',
  'otra_moneda.monto_impuesto_adicional',
  'paginacion[].impuesto_adicional',
  'paginacion[].detalle_impuesto_adicional',
];

const ROWS: HintRow[] = [
  // ---- not_allowed ----
  {
    code: 'not_allowed',
    paths: ['id_doc.tipo_ingresos'],
    types: ['41', '43', '47'],
    text: (t) => `El tipo ${t} no lleva tipo de ingresos; omita id_doc.tipo_ingresos.`,
  },
  {
    code: 'not_allowed',
    paths: ['id_doc.indicador_envio_diferido'],
    types: ['41', '43', '47'],
    text: (t) => `El indicador de envío diferido no existe en el tipo ${t}.`,
  },
  {
    code: 'not_allowed',
    paths: ['id_doc.indicador_nota_credito'],
    types: ['31', '32', '33', '41', '43', '44', '45', '46', '47'],
    text: () => 'Solo la nota de crédito (tipo 34) lleva indicador_nota_credito.',
  },
  {
    code: 'not_allowed',
    paths: ['comprador.rnc'],
    types: ['47'],
    text: () => 'El tipo 47 (pagos al exterior) no lleva RNC del comprador: use comprador.identificador_extranjero.',
  },
  {
    code: 'not_allowed',
    paths: ['comprador.identificador_extranjero'],
    types: ['31', '41', '45'],
    text: (t) => `El tipo ${t} identifica al comprador con comprador.rnc.`,
  },
  { code: 'not_allowed', paths: ['comprador'], types: ['43'], text: () => 'El tipo 43 (gastos menores) no lleva comprador.' },
  {
    code: 'not_allowed',
    paths: ['comprador.pais'],
    types: ['31', '32', '33', '34', '41', '44', '45', '47'],
    text: () => 'El país del comprador solo existe en el tipo 46 (exportaciones).',
  },
  {
    code: 'not_allowed',
    paths: ITBIS_KEYS.map((k) => `totales.${k}`),
    types: ['44'],
    text: () => 'El tipo 44 (regímenes especiales) no lleva montos gravados ni ITBIS; use monto_exento.',
  },
  {
    code: 'not_allowed',
    paths: ITBIS_KEYS.map((k) => `totales.${k}`),
    types: ['43', '47'],
    text: (t) => `El tipo ${t} no lleva ITBIS ni montos gravados; use monto_exento.`,
  },
  {
    code: 'not_allowed',
    paths: [
      'totales.itbis1',
      'totales.itbis2',
      'totales.monto_gravado_i1',
      'totales.monto_gravado_i2',
      'totales.total_itbis1',
      'totales.total_itbis2',
      'totales.monto_exento',
    ],
    types: ['46'],
    text: () => 'En el tipo 46 (exportaciones) solo existe la tasa 3 (0 %): use monto_gravado_i3, itbis3 (= 0) y total_itbis3 (= 0).',
  },
  {
    code: 'not_allowed',
    paths: ['totales.monto_no_facturable'],
    types: ['41', '43', '47'],
    text: (t) => `El tipo ${t} no admite ítems no facturables (indicador_facturacion 0).`,
  },
  {
    code: 'not_allowed',
    paths: ADDITIONAL_TAX_PATHS,
    types: ['41', '43', '46', '47'],
    text: (t) => `El tipo ${t} no admite impuestos adicionales (ISC ni otros).`,
  },
  // The 41 XSD keeps SubTotalImpuestoAdicional although it has no additional taxes.
  {
    code: 'not_allowed',
    paths: ['subtotales[].impuesto_adicional'],
    types: ['43', '46', '47'],
    text: (t) => `El tipo ${t} no admite impuestos adicionales (ISC ni otros).`,
  },
  {
    code: 'not_allowed',
    paths: [
      'totales.impuestos_adicionales[].monto_impuesto_selectivo_consumo_especifico',
      'totales.impuestos_adicionales[].monto_impuesto_selectivo_consumo_advalorem',
      'otra_moneda.impuestos_adicionales[].monto_impuesto_selectivo_consumo_especifico',
      'otra_moneda.impuestos_adicionales[].monto_impuesto_selectivo_consumo_advalorem',
      'items[].cantidad_referencia',
      'items[].subcantidades',
      'items[].grados_alcohol',
      'items[].precio_unitario_referencia',
    ],
    types: ['44'],
    text: () => 'El tipo 44 no admite ISC (códigos 006–039); solo otros impuestos adicionales (códigos 001–005) en otros_impuestos_adicionales.',
  },
  {
    code: 'not_allowed',
    paths: ['items[].retencion'],
    types: ['32', '43', '44', '45', '46'],
    text: (t) => `El tipo ${t} no lleva bloque de retención en los ítems.`,
  },
  {
    code: 'not_allowed',
    paths: ['totales.total_itbis_retenido', 'totales.total_isr_retencion', 'totales.total_itbis_percepcion', 'totales.total_isr_percepcion'],
    types: ['32', '43', '44', '45', '46'],
    text: (t) => `El tipo ${t} no lleva retenciones ni percepciones.`,
  },
  {
    code: 'not_allowed',
    paths: ['totales.total_itbis_retenido', 'totales.total_itbis_percepcion', 'totales.total_isr_percepcion', 'items[].retencion.monto_itbis_retenido'],
    types: ['47'],
    text: () => 'El tipo 47 solo lleva retención de ISR (retencion.isr_retenido y totales.total_isr_retencion).',
  },
  {
    code: 'not_allowed',
    paths: ['descuentos_recargos[].indicador_norma_1007'],
    types: ['41', '44', '46'],
    text: (t) => `Los descuentos y recargos globales del tipo ${t} no llevan indicador_norma_1007.`,
  },
  { code: 'not_allowed', paths: ['descuentos_recargos'], types: ['43', '47'], text: (t) => `El tipo ${t} no admite descuentos ni recargos globales.` },
  {
    code: 'not_allowed',
    paths: PAY_KEYS.map((k) => `id_doc.${k}`),
    types: ['34'],
    text: () => 'Las formas y condiciones de pago no aplican a la nota de crédito (tipo 34).',
  },
  {
    code: 'not_allowed',
    paths: PAY_KEYS.map((k) => `id_doc.${k}`),
    types: ['43'],
    text: () => 'Las formas y condiciones de pago no aplican al tipo 43 (gastos menores).',
  },
  {
    code: 'not_allowed',
    paths: ['referencia.razon_modificacion'],
    types: ['31', '32', '41', '43', '44', '45', '46', '47'],
    text: () => 'La razón de modificación solo existe en las notas de débito y crédito (tipos 33 y 34).',
  },
  {
    code: 'not_allowed',
    paths: ['items[].mineria'],
    types: ['31', '41', '43', '44', '45', '47'],
    text: (t) => `El bloque de minería no existe en el tipo ${t}.`,
  },
  {
    code: 'not_allowed',
    paths: ['id_doc.indicador_monto_gravado'],
    types: ['43', '44', '46', '47'],
    text: (t) => `El tipo ${t} no lleva ITBIS, por lo que no existe indicador_monto_gravado.`,
  },
  // ---- required ----
  { code: 'required', paths: ['items[].retencion'], types: ['41', '47'], text: (t) => `El tipo ${t} exige el bloque de retención (retencion) en cada ítem.` },
  {
    code: 'required',
    paths: ['items[].retencion.indicador'],
    types: ['41', '47'],
    text: (t) => `El tipo ${t} exige retencion.indicador en cada ítem ("1" retención, "2" percepción).`,
  },
  {
    code: 'required',
    paths: ['items[].retencion.isr_retenido'],
    types: ['47'],
    text: () => 'El tipo 47 exige el ISR retenido (retencion.isr_retenido) en cada ítem.',
  },
  { code: 'required', paths: ['comprador.rnc'], types: ['31', '41', '45'], text: (t) => `El tipo ${t} exige el RNC o cédula del comprador (comprador.rnc).` },
  {
    code: 'required',
    paths: ['comprador.razon_social'],
    types: ['31', '41', '44', '45', '46'],
    text: (t) => `El tipo ${t} exige el nombre o razón social del comprador (comprador.razon_social).`,
  },
  { code: 'required', paths: ['comprador'], types: ['31', '41', '44', '45', '46'], text: (t) => `El tipo ${t} exige el bloque comprador.` },
  {
    code: 'required',
    paths: ['id_doc.indicador_nota_credito'],
    types: ['34'],
    text: () =>
      'La nota de crédito exige indicador_nota_credito: 0 si se emite dentro de los 30 días de la fecha del comprobante modificado, 1 si se emite después.',
  },
  {
    code: 'required',
    paths: ['referencia'],
    types: ['33', '34'],
    text: (t) => `El tipo ${t} exige el bloque referencia (ncf_modificado, fecha_ncf_modificado, codigo_modificacion).`,
  },
  { code: 'required', paths: ['referencia.ncf_modificado'], types: ['33', '34'], text: (t) => `El tipo ${t} exige el NCF o e-NCF del comprobante modificado.` },
  {
    code: 'required',
    paths: ['referencia.fecha_ncf_modificado'],
    types: ['33', '34'],
    text: (t) => `El tipo ${t} exige la fecha del comprobante modificado (dd-MM-yyyy).`,
  },
  {
    code: 'required',
    paths: ['referencia.codigo_modificacion'],
    types: ['33', '34'],
    text: (t) => `El tipo ${t} exige el código de modificación ("1" a "4").`,
  },
  {
    code: 'required',
    paths: ['id_doc.tipo_ingresos'],
    types: ['31', '32', '44', '45', '46'],
    text: (t) => `El tipo ${t} exige el tipo de ingresos (código "01" a "06").`,
  },
  {
    code: 'required',
    paths: ['id_doc.tipo_pago'],
    types: ['31', '32', '33', '34', '44', '45', '46'],
    text: (t) => `El tipo ${t} exige el tipo de pago ("1" contado, "2" crédito, "3" gratuito).`,
  },
  {
    code: 'required',
    paths: ['totales.impuestos_adicionales[].otros_impuestos_adicionales'],
    types: ['44'],
    text: () => 'En el tipo 44 cada impuesto adicional lleva su monto en otros_impuestos_adicionales.',
  },
];

/** Every hint as (code, path pattern, type) triples, for tests and docs. */
export function hintKeys(): Array<{ code: HintCode; path: string; tipo: string }> {
  return ROWS.flatMap((r) => r.paths.flatMap((path) => r.types.map((tipo) => ({ code: r.code, path, tipo }))));
}

let index: Map<string, string[]> | null = null;

function build(): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const r of ROWS)
    for (const p of r.paths)
      for (const t of r.types) {
        const k = `${r.code}|${t}|${p}`;
        const list = m.get(k) ?? [];
        list.push(r.text(t));
        m.set(k, list);
      }
  return m;
}

/** The hint for an issue code at a JSON path pattern (`items[].retencion`) in type `tipo`, if any. */
export function hintFor(code: HintCode, pathPattern: string, tipo: string): string | undefined {
  index ??= build();
  const list = index.get(`${code}|${tipo}|${pathPattern.replace(/\[\]$/, '')}`);
  return list ? list.join(' ') : undefined;
}

/** `message` followed by the hint, when there is one. */
export function withHint(message: string, code: HintCode, pathPattern: string, tipo: string): string {
  const h = hintFor(code, pathPattern, tipo);
  return h ? `${message} ${h}` : message;
}

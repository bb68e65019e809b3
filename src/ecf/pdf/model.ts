/**
 * The printed representation of e-CF as data: what goes in each area of the page, derived from the parsed
 * e-CF, in the product-neutral section model of `sections.ts` (the e-CF fields, catalogs and labels live here;
 * the layout knows none of them). No drawing here and no branching on the type code: every difference between
 * the ten types comes from `ECF_TYPE_INFO` (names, `hidesSequenceExpiry`, `counterpartyTitle`), and from which
 * fields the document carries (a 43 has no `comprador`, a 33/34 has `referencia`, a 46 has `transporte`…).
 */
import { ITBIS_RATES } from '../calc/totals.js';
import { COUNTRY_NAMES } from '../spec/countries.gen.js';
import { ECF_TYPE_INFO } from '../spec/doc-types.js';
import type { EcfType } from '../spec/model.js';
import type { BuildContext } from '../xml/ecf.js';
import {
  additionalTaxName,
  CODIGOS_MODIFICACION,
  FORMAS_PAGO,
  INDICADOR_RETENCION,
  label,
  LIQUIDACIONES,
  MONEDAS,
  provinceName,
  TIPOS_AFILIACION,
  TIPOS_CUENTA,
  TIPOS_INGRESO,
  TIPOS_PAGO,
  UNIDADES_MEDIDA,
  VIAS_TRANSPORTE,
} from './catalogs.js';
import { dec, formatMoney, formatNumber, formatRate } from './format.js';
import type { Column, Pair, PairsSection, Run, Section, TableRow, TableSection, TotalLine } from '../../shared/pdf/sections.js';

// biome-ignore lint/suspicious/noExplicitAny: a canonical JSON document, already checked against the field table before this point
type Json = Record<string, any>;

export type { Column, Pair, PairsSection, Run, Section, TableRow, TableSection, TotalLine } from '../../shared/pdf/sections.js';

export interface PrintModel {
  tipo: EcfType;
  typeName: string;
  encf: string;
  /** Issuer block: name first. */
  issuer: Run[];
  /** Document box under the type name and e-NCF. */
  docInfo: Pair[];
  /** Buyer (or supplier / beneficiary) block; absent when the document has none (43). */
  counterparty?: PairsSection;
  items: TableSection;
  /** Blocks after the detail: subtotals, global discounts, reference, payment, customs, transport, other currency. */
  sections: Section[];
  totals: TotalLine[];
  security: { code: string; signedAt?: string; qrUrl: string };
  /** Metadata. */
  issuerName: string;
}

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const str = (v: unknown): string => (present(v) ? String(v) : '');

// biome-ignore lint/suspicious/noExplicitAny: formatters take whatever value a field of the canonical document holds
type Fmt = (value: any, doc: Json) => string;
type FieldSpec = readonly [key: string, label: string, fmt?: Fmt];

function pairsOf(obj: Json | undefined, specs: readonly FieldSpec[], doc: Json): Pair[] {
  if (!obj) return [];
  const out: Pair[] = [];
  for (const [key, lbl, fmt] of specs) {
    const v = obj[key];
    if (!present(v)) continue;
    const value = fmt ? fmt(v, doc) : String(v);
    if (value) out.push({ label: lbl, value });
  }
  return out;
}

const money: Fmt = (v) => formatMoney(v);
const country: Fmt = (v) => COUNTRY_NAMES[String(v)] ?? String(v);
const unit: Fmt = (v) => label(UNIDADES_MEDIDA, v);

const COUNTERPARTY_FIELDS: readonly FieldSpec[] = [
  ['rnc', 'RNC/Cédula'],
  ['identificador_extranjero', 'Identificador extranjero'],
  ['razon_social', 'Nombre o razón social'],
  ['pais', 'País', country],
  ['direccion', 'Dirección'],
  ['provincia', 'Provincia', (v) => provinceName(String(v)) ?? String(v)],
  ['contacto', 'Contacto'],
  ['correo', 'Correo electrónico'],
  ['telefono_adicional', 'Teléfono de entrega'],
  ['contacto_entrega', 'Contacto de entrega'],
  ['direccion_entrega', 'Dirección de entrega'],
  ['fecha_entrega', 'Fecha de entrega'],
  ['numero_orden_compra', 'Orden de compra'],
  ['fecha_orden_compra', 'Fecha orden de compra'],
  ['codigo_interno', 'Código interno'],
  ['responsable_pago', 'Responsable de pago'],
  ['informacion_adicional', 'Información adicional'],
];

const ID_DOC_FIELDS: readonly FieldSpec[] = [
  ['tipo_pago', 'Tipo de pago', (v) => label(TIPOS_PAGO, v)],
  ['fecha_limite_pago', 'Fecha límite de pago'],
  ['termino_pago', 'Término de pago'],
  ['tipo_ingresos', 'Tipo de ingreso', (v) => label(TIPOS_INGRESO, v)],
  ['indicador_monto_gravado', 'Precios', (v) => (Number(v) === 1 ? 'con ITBIS incluido' : '')],
  ['indicador_nota_credito', 'Emitida', (v) => (Number(v) === 1 ? 'después de 30 días (sin ITBIS)' : '')],
  ['indicador_envio_diferido', 'Envío diferido', (v) => (Number(v) === 1 ? 'Sí' : '')],
];

const EMISOR_DOC_FIELDS: readonly FieldSpec[] = [
  ['numero_factura_interna', 'Factura interna'],
  ['numero_pedido_interno', 'Pedido interno'],
  ['codigo_vendedor', 'Vendedor'],
  ['zona_venta', 'Zona de venta'],
  ['ruta_venta', 'Ruta de venta'],
];

const REFERENCE_FIELDS: readonly FieldSpec[] = [
  ['ncf_modificado', 'NCF modificado'],
  ['fecha_ncf_modificado', 'Fecha del NCF modificado'],
  ['codigo_modificacion', 'Código de modificación', (v) => `${v} - ${label(CODIGOS_MODIFICACION, v)}`],
  ['razon_modificacion', 'Razón de la modificación'],
  ['rnc_otro_contribuyente', 'RNC otro contribuyente'],
];

const CUSTOMS_FIELDS: readonly FieldSpec[] = [
  ['fecha_embarque', 'Fecha de embarque'],
  ['numero_embarque', 'Número de embarque'],
  ['numero_contenedor', 'Número de contenedor'],
  ['numero_referencia', 'Número de referencia'],
  ['nombre_puerto_embarque', 'Puerto de embarque'],
  ['nombre_puerto_salida', 'Puerto de salida'],
  ['nombre_puerto_desembarque', 'Puerto de desembarque'],
  ['condiciones_entrega', 'Condiciones de entrega'],
  ['regimen_aduanero', 'Régimen aduanero'],
  ['total_fob', 'Total FOB', money],
  ['seguro', 'Seguro', money],
  ['flete', 'Flete', money],
  ['otros_gastos', 'Otros gastos', money],
  ['total_cif', 'Total CIF', money],
  ['peso_bruto', 'Peso bruto', (v, d) => withUnit(v, d.informaciones_adicionales?.unidad_peso_bruto)],
  ['peso_neto', 'Peso neto', (v, d) => withUnit(v, d.informaciones_adicionales?.unidad_peso_neto)],
  ['cantidad_bulto', 'Cantidad de bultos', (v, d) => withUnit(v, d.informaciones_adicionales?.unidad_bulto)],
  ['volumen_bulto', 'Volumen', (v, d) => withUnit(v, d.informaciones_adicionales?.unidad_volumen)],
];

const TRANSPORT_FIELDS: readonly FieldSpec[] = [
  ['via_transporte', 'Vía de transporte', (v) => label(VIAS_TRANSPORTE, v)],
  ['pais_origen', 'País de origen', country],
  ['pais_destino', 'País de destino', country],
  ['direccion_destino', 'Dirección de destino'],
  ['nombre_compania_transportista', 'Transportista'],
  ['rnc_identificacion_compania_transportista', 'RNC/ID transportista'],
  ['numero_viaje', 'Número de viaje'],
  ['conductor', 'Conductor'],
  ['documento_transporte', 'Documento del conductor'],
  ['ficha', 'Ficha'],
  ['placa', 'Placa'],
  ['ruta_transporte', 'Ruta'],
  ['zona_transporte', 'Zona'],
  ['numero_albaran', 'Número de albarán'],
];

function withUnit(v: unknown, unitCode: unknown): string {
  const n = formatNumber(v, 0, 2);
  return present(unitCode) ? `${n} ${label(UNIDADES_MEDIDA, unitCode)}` : n;
}

/** Rate of ITBIS N as declared in `totales` (`itbis1` = 18), else the legal rate. */
function itbisRate(doc: Json, n: 1 | 2 | 3): string {
  const declared = doc.totales?.[`itbis${n}`];
  return formatRate(present(declared) ? declared : ITBIS_RATES[n]);
}

/** `IndicadorFacturacion` in words (FMT: printed as P). */
function billingIndicator(doc: Json, v: unknown): string {
  const n = Number(v);
  if (n === 0) return 'No facturable';
  if (n === 1 || n === 2 || n === 3) return `ITBIS ${itbisRate(doc, n)}`;
  if (n === 4) return 'Exento';
  return str(v);
}

/**
 * Rows of a totals block, shared by `totales` and `otra_moneda` (same JSON names). A row is printed when its
 * field is present.
 */
function totalLines(t: Json | undefined, doc: Json, currency: string): TotalLine[] {
  if (!t) return [];
  const out: TotalLine[] = [];
  const row = (key: string, lbl: string, strong = false) => {
    if (present(t[key])) out.push({ label: lbl, value: formatMoney(t[key]), strong });
  };
  row('monto_gravado_i1', `Monto gravado ITBIS ${itbisRate(doc, 1)}`);
  row('monto_gravado_i2', `Monto gravado ITBIS ${itbisRate(doc, 2)}`);
  row('monto_gravado_i3', `Monto gravado ITBIS ${itbisRate(doc, 3)}`);
  row('monto_gravado_total', 'Total monto gravado');
  row('monto_exento', 'Monto exento');
  row('total_itbis1', `ITBIS ${itbisRate(doc, 1)}`);
  row('total_itbis2', `ITBIS ${itbisRate(doc, 2)}`);
  row('total_itbis3', `ITBIS ${itbisRate(doc, 3)}`);
  row('total_itbis', 'Total ITBIS');
  for (const tax of (t.impuestos_adicionales as Json[] | undefined) ?? []) {
    const code = str(tax.tipo_impuesto);
    const amounts = [tax.monto_impuesto_selectivo_consumo_especifico, tax.monto_impuesto_selectivo_consumo_advalorem, tax.otros_impuestos_adicionales].filter(
      present,
    );
    const rate = present(tax.tasa_impuesto_adicional) ? `, tasa ${formatNumber(tax.tasa_impuesto_adicional, 0, 2)}` : '';
    const parts = amounts.map((a) => formatMoney(a)).join(' + ');
    out.push({ label: `${additionalTaxName(code)} (${code}${rate})`, value: parts || '0.00' });
  }
  row('monto_impuesto_adicional', 'Total impuestos adicionales');
  if (present(t.monto_total)) out.push({ label: currency ? `TOTAL ${currency}` : 'TOTAL', value: formatMoney(t.monto_total), strong: true });
  row('monto_no_facturable', 'Monto no facturable');
  row('monto_periodo', 'Monto del período');
  row('saldo_anterior', 'Saldo anterior');
  row('monto_avance_pago', 'Avance de pago');
  row('valor_pagar', 'Valor a pagar', true);
  row('total_itbis_retenido', 'ITBIS retenido');
  row('total_isr_retencion', 'ISR retenido');
  row('total_itbis_percepcion', 'ITBIS percibido');
  row('total_isr_percepcion', 'ISR percibido');
  return out;
}

function itemDescription(it: Json, doc: Json): Run[] {
  const runs: Run[] = [{ text: str(it.nombre) }];
  const sub = (text: string) => runs.push({ text, role: 'muted' });
  if (present(it.descripcion)) sub(String(it.descripcion));
  const codes = ((it.codigos as Json[] | undefined) ?? []).map((c) => `${str(c.tipo_codigo)} ${str(c.codigo)}`.trim());
  if (codes.length) sub(`Código: ${codes.join(' · ')}`);
  const dates = [
    present(it.fecha_elaboracion) ? `Elaboración: ${it.fecha_elaboracion}` : '',
    present(it.fecha_vencimiento) ? `Vencimiento: ${it.fecha_vencimiento}` : '',
  ].filter(Boolean);
  if (dates.length) sub(dates.join(' · '));
  if (present(it.cantidad_referencia)) sub(`Cantidad de referencia: ${withUnit(it.cantidad_referencia, it.unidad_referencia)}`);
  for (const s of (it.subcantidades as Json[] | undefined) ?? []) {
    if (present(s.cantidad)) sub(`Subcantidad: ${formatNumber(s.cantidad, 0, 3)}${present(s.codigo) ? ` ${label(UNIDADES_MEDIDA, s.codigo)}` : ''}`);
  }
  if (present(it.grados_alcohol)) sub(`Grados de alcohol: ${formatRate(it.grados_alcohol)}`);
  if (present(it.precio_unitario_referencia)) sub(`Precio unitario de referencia: ${formatMoney(it.precio_unitario_referencia)}`);
  const taxes = ((it.impuestos_adicionales as Json[] | undefined) ?? []).map((x) => `${str(x.tipo_impuesto)} ${additionalTaxName(str(x.tipo_impuesto))}`);
  if (taxes.length) sub(`Impuestos adicionales: ${taxes.join(' · ')}`);
  const adjustments: Json[] = [
    ...((it.sub_descuentos as Json[] | undefined) ?? []).map((s) => ({ kind: 'Descuento', ...s })),
    ...((it.sub_recargos as Json[] | undefined) ?? []).map((s) => ({ kind: 'Recargo', ...s })),
  ].filter((s: Json) => present(s.porcentaje));
  for (const s of adjustments) sub(`${s.kind} ${formatRate(s.porcentaje)}${present(s.monto) ? `: ${formatMoney(s.monto)}` : ''}`);
  const m = it.mineria as Json | undefined;
  if (m) {
    const parts = [
      present(m.peso_neto_kilogramo) ? `peso neto ${formatNumber(m.peso_neto_kilogramo, 0, 3)} kg` : '',
      present(m.peso_neto_mineria) ? `peso neto mineral ${formatNumber(m.peso_neto_mineria, 0, 3)}` : '',
      present(m.tipo_afiliacion) ? label(TIPOS_AFILIACION, m.tipo_afiliacion) : '',
      present(m.liquidacion) ? `liquidación ${label(LIQUIDACIONES, m.liquidacion).toLowerCase()}` : '',
    ].filter(Boolean);
    if (parts.length) sub(`Minería: ${parts.join(' · ')}`);
  }
  const om = it.otra_moneda as Json | undefined;
  if (om) {
    const cur = str(doc.otra_moneda?.tipo_moneda) || 'Otra moneda';
    const parts = [
      present(om.precio) ? `precio ${formatNumber(om.precio, 2, 4)}` : '',
      present(om.descuento) ? `descuento ${formatMoney(om.descuento)}` : '',
      present(om.recargo) ? `recargo ${formatMoney(om.recargo)}` : '',
      present(om.monto) ? `monto ${formatMoney(om.monto)}` : '',
    ].filter(Boolean);
    if (parts.length) sub(`${cur}: ${parts.join(' · ')}`);
  }
  return runs;
}

interface ItemColumn extends Column {
  /** Shown only when some item makes this true (data decides the columns). */
  when?: (items: Json[]) => boolean;
  cell: (it: Json, doc: Json) => Run[];
}

const ITEM_COLUMNS: readonly ItemColumn[] = [
  { header: 'Cant.', width: 40, align: 'right', cell: (it) => [{ text: formatNumber(it.cantidad, 0, 2) }] },
  {
    header: 'Unidad',
    width: 48,
    align: 'left',
    when: (items) => items.some((it) => present(it.unidad_medida)),
    cell: (it) => (present(it.unidad_medida) ? [{ text: unit(it.unidad_medida, {}), role: 'small' }] : []),
  },
  { header: 'Descripción', width: 0, flex: true, align: 'left', cell: itemDescription },
  { header: 'Precio unitario', width: 62, align: 'right', cell: (it) => [{ text: formatNumber(it.precio_unitario, 2, 4) }] },
  {
    header: 'Desc. / Rec.',
    width: 56,
    align: 'right',
    when: (items) => items.some((it) => present(it.descuento_monto) || present(it.recargo_monto)),
    cell: (it) => [
      ...(present(it.descuento_monto) ? [{ text: `-${formatMoney(it.descuento_monto)}` }] : []),
      ...(present(it.recargo_monto) ? [{ text: `+${formatMoney(it.recargo_monto)}` }] : []),
    ],
  },
  {
    header: 'Retención',
    width: 66,
    align: 'right',
    when: (items) => items.some((it) => present(it.retencion)),
    cell: (it) => {
      const r = it.retencion as Json | undefined;
      if (!r) return [];
      const isr = r.monto_isr_retenido ?? r.isr_retenido;
      return [
        ...(present(r.monto_itbis_retenido) ? [{ text: `ITBIS ${formatMoney(r.monto_itbis_retenido)}`, role: 'small' as const }] : []),
        ...(present(isr) ? [{ text: `ISR ${formatMoney(isr)}`, role: 'small' as const }] : []),
        ...(present(r.indicador) ? [{ text: label(INDICADOR_RETENCION, r.indicador), role: 'muted' as const }] : []),
      ];
    },
  },
  { header: 'ITBIS', width: 46, align: 'left', cell: (it, doc) => [{ text: billingIndicator(doc, it.indicador_facturacion), role: 'small' }] },
  { header: 'Monto', width: 68, align: 'right', cell: (it) => [{ text: formatMoney(it.monto) }] },
];

function itemsTable(doc: Json): TableSection {
  const items = (doc.items as Json[] | undefined) ?? [];
  const columns = ITEM_COLUMNS.filter((c) => !c.when || c.when(items));
  const pages = declaredPages(doc, items.length);
  const rows: TableRow[] = [];
  items.forEach((it, i) => {
    const line = i + 1;
    const page = pages.find((p) => p.from === line);
    rows.push({
      cells: columns.map((c) => c.cell(it, doc)),
      carry: dec(it.monto) ?? undefined,
      breakBefore: page !== undefined && line > 1,
    });
    const ending = pages.find((p) => p.to === line);
    if (ending)
      rows.push(
        pageSubtotalRow(
          ending.entry,
          columns.length,
          columns.findIndex((c) => c.flex),
        ),
      );
  });
  return { kind: 'table', title: 'Detalle de bienes o servicios', columns, rows };
}

/** Declared `paginacion` (issuer's own page split of the detail), when it is consistent with the lines. */
function declaredPages(doc: Json, lineCount: number): Array<{ from: number; to: number; entry: Json }> {
  const pages = ((doc.paginacion as Json[] | undefined) ?? [])
    .map((p) => ({ from: Number(p.no_linea_desde), to: Number(p.no_linea_hasta), entry: p }))
    .filter((p) => Number.isInteger(p.from) && Number.isInteger(p.to) && p.from >= 1 && p.to >= p.from && p.to <= lineCount);
  const sorted = [...pages].sort((a, b) => a.from - b.from);
  for (let i = 1; i < sorted.length; i++) if (sorted[i]!.from <= sorted[i - 1]!.to) return [];
  return sorted;
}

function pageSubtotalRow(p: Json, columnCount: number, descIndex: number): TableRow {
  const parts = [
    present(p.monto_gravado) ? `Gravado ${formatMoney(p.monto_gravado)}` : '',
    present(p.exento) ? `Exento ${formatMoney(p.exento)}` : '',
    present(p.itbis) ? `ITBIS ${formatMoney(p.itbis)}` : '',
    present(p.impuesto_adicional) ? `Imp. adicional ${formatMoney(p.impuesto_adicional)}` : '',
    present(p.monto_no_facturable) ? `No facturable ${formatMoney(p.monto_no_facturable)}` : '',
  ].filter(Boolean);
  const cells: Run[][] = Array.from({ length: columnCount }, () => []);
  cells[descIndex] = [
    { text: `Subtotal página ${str(p.pagina)}`, role: 'strong' },
    ...(parts.length ? [{ text: parts.join(' · '), role: 'muted' as const }] : []),
  ];
  cells[columnCount - 1] = present(p.monto) ? [{ text: formatMoney(p.monto), role: 'strong' }] : [];
  return { cells, summary: true };
}

function subtotalsSection(doc: Json): TableSection | null {
  const subs = (doc.subtotales as Json[] | undefined) ?? [];
  if (!subs.length) return null;
  const ordered = [...subs].sort((a, b) => Number(a.orden ?? 0) - Number(b.orden ?? 0));
  const defs: Array<[string, string]> = [
    ['monto_gravado_total', 'Gravado'],
    ['itbis', 'ITBIS'],
    ['impuesto_adicional', 'Imp. adicional'],
    ['exento', 'Exento'],
    ['monto', 'Monto'],
  ];
  const used = defs.filter(([k]) => ordered.some((s) => present(s[k])));
  const columns: Column[] = [
    { header: 'Descripción', width: 0, flex: true, align: 'left' },
    ...used.map(([, h]) => ({ header: h, width: 72, align: 'right' as const })),
    { header: 'Líneas', width: 40, align: 'right' },
  ];
  const rows = ordered.map((s) => ({
    cells: [
      [{ text: [str(s.numero), str(s.descripcion)].filter(Boolean).join('. ') }],
      ...used.map(([k]) => (present(s[k]) ? [{ text: formatMoney(s[k]) }] : [])),
      present(s.lineas) ? [{ text: str(s.lineas) }] : [],
    ],
  }));
  return { kind: 'table', title: 'Subtotales informativos', columns, rows };
}

function adjustmentsSection(doc: Json): TableSection | null {
  const list = (doc.descuentos_recargos as Json[] | undefined) ?? [];
  if (!list.length) return null;
  const otherCurrency = list.some((d) => present(d.monto_otra_moneda));
  const columns: Column[] = [
    { header: 'Tipo', width: 62, align: 'left' },
    { header: 'Descripción', width: 0, flex: true, align: 'left' },
    { header: 'Valor', width: 60, align: 'right' },
    { header: 'Aplica a', width: 62, align: 'left' },
    ...(otherCurrency ? [{ header: str(doc.otra_moneda?.tipo_moneda) || 'Otra moneda', width: 68, align: 'right' as const }] : []),
    { header: 'Monto', width: 68, align: 'right' },
  ];
  const rows = list.map((d) => ({
    cells: [
      [{ text: d.tipo_ajuste === 'R' ? 'Recargo' : 'Descuento' }],
      [{ text: str(d.descripcion) }, ...(Number(d.indicador_norma_1007) === 1 ? [{ text: 'Norma 10-07', role: 'muted' as const }] : [])],
      present(d.valor) ? [{ text: d.tipo_valor === '%' ? formatRate(d.valor) : formatMoney(d.valor) }] : [],
      present(d.indicador_facturacion) ? [{ text: billingIndicator(doc, d.indicador_facturacion), role: 'small' as const }] : [],
      ...(otherCurrency ? [present(d.monto_otra_moneda) ? [{ text: formatMoney(d.monto_otra_moneda) }] : []] : []),
      present(d.monto) ? [{ text: `${d.tipo_ajuste === 'R' ? '+' : '-'}${formatMoney(d.monto)}` }] : [],
    ],
  }));
  return { kind: 'table', title: 'Descuentos y recargos globales', columns, rows };
}

function paymentSection(doc: Json): PairsSection | null {
  const id = (doc.id_doc as Json | undefined) ?? {};
  const pairs: Pair[] = ((id.formas_pago as Json[] | undefined) ?? []).map((f) => ({ label: label(FORMAS_PAGO, f.forma), value: formatMoney(f.monto) }));
  pairs.push(
    ...pairsOf(
      id,
      [
        ['tipo_cuenta_pago', 'Tipo de cuenta', (v) => label(TIPOS_CUENTA, v)],
        ['numero_cuenta_pago', 'Número de cuenta'],
        ['banco_pago', 'Banco'],
      ],
      doc,
    ),
  );
  return pairs.length ? { kind: 'pairs', title: 'Formas de pago', pairs } : null;
}

function otherCurrencySection(doc: Json): TableSection | null {
  const om = doc.otra_moneda as Json | undefined;
  if (!om) return null;
  const code = str(om.tipo_moneda);
  const lines = totalLines(om, doc, code);
  const title = [
    'Totales en otra moneda',
    code ? `${code}${MONEDAS[code] ? ` (${MONEDAS[code]})` : ''}` : '',
    present(om.tipo_cambio) ? `tipo de cambio ${formatNumber(om.tipo_cambio, 2, 4)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    kind: 'table',
    title,
    columns: [
      { header: 'Concepto', width: 0, flex: true, align: 'left' },
      { header: code || 'Monto', width: 90, align: 'right' },
    ],
    rows: lines.map((l) => ({ cells: [[{ text: l.label, role: l.strong ? 'strong' : 'normal' }], [{ text: l.value, role: l.strong ? 'strong' : 'normal' }]] })),
  };
}

function pairsSection(title: string, obj: Json | undefined, specs: readonly FieldSpec[], doc: Json): PairsSection | null {
  const pairs = pairsOf(obj, specs, doc);
  return pairs.length ? { kind: 'pairs', title, pairs } : null;
}

function issuerRuns(e: Json): Run[] {
  const runs: Run[] = [{ text: str(e.razon_social), role: 'title' }];
  if (present(e.nombre_comercial) && e.nombre_comercial !== e.razon_social) runs.push({ text: String(e.nombre_comercial), role: 'heading' });
  runs.push({ text: `RNC: ${str(e.rnc)}`, role: 'strong' });
  const place = [str(e.direccion), provinceName(e.municipio) && !present(e.provincia) ? provinceName(e.municipio) : '', provinceName(e.provincia) ?? '']
    .filter(Boolean)
    .join(', ');
  if (place) runs.push({ text: place });
  if (present(e.sucursal)) runs.push({ text: `Sucursal: ${e.sucursal}` });
  const phones = ((e.telefonos as string[] | undefined) ?? []).filter(present);
  if (phones.length) runs.push({ text: `Tel.: ${phones.join(' / ')}` });
  const contact = [present(e.correo) ? String(e.correo) : '', present(e.web_site) ? String(e.web_site) : ''].filter(Boolean).join(' · ');
  if (contact) runs.push({ text: contact });
  if (present(e.actividad_economica)) runs.push({ text: String(e.actividad_economica), role: 'muted' });
  return runs;
}

export interface ModelInput {
  tipo: EcfType;
  document: Json;
  context: BuildContext;
  fecha_hora_firma?: string;
}

/** Builds the print model of a parsed e-CF. */
export function buildPrintModel(input: ModelInput, security: { code: string; qrUrl: string }): PrintModel {
  const { tipo, document: doc, context } = input;
  const info = ECF_TYPE_INFO[tipo];
  const emisor = { ...(context.emisor as unknown as Json) };
  const docInfo: Pair[] = [{ label: 'Fecha de emisión', value: str(context.fecha_emision) }];
  if (!info.hidesSequenceExpiry && present(context.fecha_vencimiento_secuencia)) {
    docInfo.push({ label: 'Válido hasta', value: String(context.fecha_vencimiento_secuencia) });
  }
  docInfo.push(...pairsOf(doc.id_doc, ID_DOC_FIELDS, doc));
  const id = (doc.id_doc as Json | undefined) ?? {};
  if (present(id.fecha_desde) || present(id.fecha_hasta)) {
    docInfo.push({ label: 'Período facturado', value: `${str(id.fecha_desde) || '…'} al ${str(id.fecha_hasta) || '…'}` });
  }
  docInfo.push(...pairsOf(doc.emisor, EMISOR_DOC_FIELDS, doc));

  const counterpartyPairs = pairsOf(doc.comprador, COUNTERPARTY_FIELDS, doc);
  const sections = [
    subtotalsSection(doc),
    adjustmentsSection(doc),
    pairsSection('Información de referencia', doc.referencia, REFERENCE_FIELDS, doc),
    paymentSection(doc),
    pairsSection('Informaciones adicionales', doc.informaciones_adicionales, CUSTOMS_FIELDS, doc),
    pairsSection('Transporte', doc.transporte, TRANSPORT_FIELDS, doc),
    otherCurrencySection(doc),
    pairsSection('Información adicional del emisor', doc.emisor, [['informacion_adicional', 'Observaciones']], doc),
  ].filter((s): s is Section => s !== null);

  return {
    tipo,
    typeName: info.nameEs,
    encf: context.encf,
    issuer: issuerRuns(emisor),
    docInfo,
    ...(counterpartyPairs.length
      ? { counterparty: { kind: 'pairs' as const, title: ECF_TYPE_INFO[tipo].counterpartyTitle ?? 'Datos del comprador', pairs: counterpartyPairs } }
      : {}),
    items: itemsTable(doc),
    sections,
    totals: totalLines(doc.totales, doc, 'RD$'),
    security: { code: security.code, qrUrl: security.qrUrl, ...(input.fecha_hora_firma ? { signedAt: input.fecha_hora_firma } : {}) },
    issuerName: str(emisor.razon_social),
  };
}

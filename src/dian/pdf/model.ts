/**
 * The printed representation (representación gráfica) of a DIAN document as data: what goes in each area of the
 * page, derived from the request body and context `parseDianDocument` reads back (or the ones a document was built
 * from) plus the codes only the XML holds. No drawing here, and no branching on a kind: the title comes from
 * `DOCUMENT_TYPES` (`printTitle`), the code's label from its `uuidScheme`, the party titles from the kind's
 * `customerRole`, the lines and totals fields from `DIAN_KINDS`; sections appear when the document carries them.
 *
 * Pure: no I/O, no clock.
 */
import { add, cmp, div, mul, roundHalfEven, sum, ZERO, type Dec } from '../../shared/money/decimal.js';
import { dec, formatDec, formatNumber, formatRate } from '../../shared/pdf/numbers.js';
import type { Pair, PairsSection, Run, TableRow, TableSection, TotalLine } from '../../shared/pdf/sections.js';
import { amountInWords } from '../../shared/pdf/words.js';
import { TAX_NAMES } from '../spec/codes.js';
import { DIAN_KINDS, DOCUMENT_TYPES, type DianKindId } from '../spec/kinds.js';
import { COUNTRIES, DEPARTMENTS, MUNICIPALITIES } from '../spec/places.gen.js';
import {
  CORRECTION_CONCEPTS,
  CURRENCY_WORDS,
  ID_TYPES,
  LIABILITIES,
  named,
  OPERATION_TYPES,
  PARTY_TITLES,
  PAYMENT_FORMS,
  PAYMENT_MEANS,
  REGIMES,
  UNITS,
} from './catalogs.js';

// biome-ignore lint/suspicious/noExplicitAny: a parsed request body (JSON), read field by field with presence checks
type Json = Record<string, any>;

/** What the printed representation is made from. */
export interface DianPdfInput {
  kind: DianKindId;
  /** The request body (as `parseDianDocument` returns it, or the one the document was built from). */
  request: Json;
  /** `company`, `software`, `resolution`, `environment` (as `parseDianDocument` returns them). */
  context: Json;
  /** What only the XML holds. */
  codes: DianPdfCodes;
}

export interface DianPdfCodes {
  /** `cbc:UUID`: the CUFE, CUDE or CUDS. */
  uuid?: string;
  /** `cbc:UUID/@schemeName` (`CUFE-SHA384`, …); default: the document type's scheme. */
  scheme?: string;
  /** The QR text to encode (see `dianPdf`: `sts:QRCode`, else the search URL). */
  qrText: string;
  /** `xades:SigningTime` as written (e.g. `2025-03-14T10:30:00.000-05:00`), when signed. */
  signingTime?: string;
  /** The technology provider's name (not in the XML; from the caller). */
  providerName?: string;
}

export interface DianPrintModel {
  kind: DianKindId;
  typeCode: string;
  title: string;
  /** Prefix + number. */
  number: string;
  issuerName: string;
  /** Issuer block: name, trade name, NIT-DV, address, regime and responsibilities. */
  issuer: Run[];
  /** The document box: dates, payment, currency, operation. */
  docInfo: Pair[];
  counterparty: PairsSection;
  /** Blocks before the lines: numbering resolution, referenced document, exchange rate. */
  before: PairsSection[];
  lines: TableSection;
  /** Blocks after the lines: taxes, withholdings, allowances and charges, payments, notes, amount in words, codes. */
  after: Array<TableSection | PairsSection>;
  totals: TotalLine[];
  /** Total in words (Spanish, with the currency). */
  totalInWords: string;
  /** Short label of the code (`CUFE`, `CUDE`, `CUDS`) and its value. */
  code: { label: string; value: string };
  qrText: string;
  signingTime?: string;
  /** Issue date and time with its offset (`2025-03-14T10:24:37-05:00`), for the PDF's dates when not signed. */
  issuedAt?: string;
  currency: string;
  /** The POS receipt strip: cash register and the customer's benefits. */
  pos: Pair[];
  footer: string;
}

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const str = (v: unknown): string => (present(v) ? String(v) : '');

/** An amount field as an exact decimal (JSON numbers through their shortest text), null when absent. */
const amount = dec;

const money = (v: unknown): string => {
  const d = amount(v);
  return d === null ? str(v) : formatDec(d);
};

const list = (v: unknown): Json[] => (Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Json[]) : []);

function nitText(id: unknown, dv: unknown, type?: unknown): string {
  const kind = present(type) ? (ID_TYPES[String(type)] ?? String(type)) : 'NIT';
  return `${kind} ${str(id)}${present(dv) ? `-${dv}` : ''}`;
}

function place(p: Json): string {
  const country = str(p.country_code);
  const city = MUNICIPALITIES[str(p.municipality_code)];
  const dept = present(p.municipality_code) ? DEPARTMENTS[str(p.municipality_code).slice(0, 2)] : undefined;
  const parts = [str(p.address), city && dept && country === 'CO' ? `${city}, ${dept}` : '', COUNTRIES[country] ?? country];
  return parts.filter(Boolean).join(' - ');
}

function responsibilities(p: Json): string {
  const regime = present(p.regime_type_code) ? named(REGIMES, p.regime_type_code) : '';
  const liabilities = str(p.liability_type_code)
    .split(';')
    .filter(Boolean)
    .map((c) => named(LIABILITIES, c.trim()))
    .join(', ');
  return [regime, liabilities].filter(Boolean).join(' · ');
}

const SCHEME_LABELS: Readonly<Record<string, string>> = { 'CUFE-SHA384': 'CUFE', 'CUDE-SHA384': 'CUDE', 'CUDS-SHA384': 'CUDS' };

/** Sums the tax rows by tax and rate (or per-unit amount): one printed row per (tax, rate). */
function groupTaxes(rows: Json[]): Array<{ tax: string; rate: string; base: Dec; value: Dec }> {
  const groups = new Map<string, { tax: string; rate: string; base: Dec; value: Dec }>();
  for (const r of rows) {
    const code = str(r.tax_code).padStart(2, '0');
    const rate = present(r.percent)
      ? formatRate(r.percent)
      : present(r.per_unit_amount)
        ? `${money(r.per_unit_amount)} por ${formatNumber(r.base_unit_measure ?? 1, 0, 4)} ${UNITS[str(r.unit_measure_code)] ?? str(r.unit_measure_code)}`
        : '';
    const key = `${code}\u0000${rate}`;
    const g = groups.get(key) ?? { tax: TAX_NAMES[code] ?? code, rate, base: ZERO, value: ZERO };
    g.base = add(g.base, amount(r.taxable_amount) ?? ZERO);
    g.value = add(g.value, amount(r.tax_amount) ?? ZERO);
    groups.set(key, g);
  }
  return [...groups.values()];
}

const TAX_COLUMNS = [
  { header: 'Tributo', width: 0, flex: true, align: 'left' as const },
  { header: 'Tarifa', width: 120, align: 'right' as const },
  { header: 'Base gravable', width: 90, align: 'right' as const },
  { header: 'Valor', width: 90, align: 'right' as const },
];

function taxTable(title: string, rows: Json[]): TableSection | null {
  const groups = groupTaxes(rows);
  if (groups.length === 0) return null;
  return {
    kind: 'table',
    title,
    columns: TAX_COLUMNS,
    rows: groups.map((g) => ({ cells: [[{ text: g.tax }], [{ text: g.rate }], [{ text: formatDec(g.base) }], [{ text: formatDec(g.value) }]] })),
  };
}

function lineTaxes(line: Json): string {
  return [...list(line.tax_totals), ...list(line.withholding_tax_totals)]
    .map((t) => {
      const code = str(t.tax_code).padStart(2, '0');
      const rate = present(t.percent) ? ` ${formatRate(t.percent)}` : '';
      return `${TAX_NAMES[code] ?? code}${rate}: ${money(t.tax_amount)}`;
    })
    .join('\n');
}

function lineAllowances(line: Json): string {
  return list(line.allowance_charges)
    .map((a) => `${a.charge_indicator === true ? '+' : '-'}${money(a.amount)}`)
    .join('\n');
}

function lineDescription(line: Json): Run[] {
  const runs: Run[] = [{ text: str(line.description).replace(/;/g, '\n') }];
  const extra = [
    ...(present(line.brand_name) || present(line.model_name) ? [[str(line.brand_name), str(line.model_name)].filter(Boolean).join(' / ')] : []),
    ...list(line.additional_item_properties).map((p) => `${str(p.name)}: ${str(p.value)}`),
    ...list(line.notes).map((n) => str(n.text)),
    ...(line.free_of_charge_indicator === true ? ['Muestra gratis / sin costo'] : []),
  ].filter(Boolean);
  if (extra.length) runs.push({ text: extra.join('\n'), role: 'muted' });
  return runs;
}

const LINE_COLUMNS = [
  { header: '#', width: 16, align: 'right' as const },
  { header: 'Código', width: 60, align: 'left' as const },
  { header: 'Descripción', width: 0, flex: true, align: 'left' as const },
  { header: 'Cant.', width: 32, align: 'right' as const },
  { header: 'Unidad', width: 36, align: 'left' as const },
  { header: 'Precio unitario', width: 58, align: 'right' as const },
  { header: 'Desc./Cargo', width: 48, align: 'right' as const },
  { header: 'Impuestos', width: 70, align: 'right' as const },
  { header: 'Total', width: 60, align: 'right' as const },
];

function pairs(title: string, entries: Array<[string, unknown]>): PairsSection | null {
  const ps = entries.filter(([, v]) => present(v)).map(([label, v]) => ({ label, value: String(v) }));
  return ps.length ? { kind: 'pairs', title, pairs: ps } : null;
}

const dateTime = (d: unknown, t: unknown): string => [str(d), str(t)].filter(Boolean).join(' ');

/** Builds the print model of a DIAN document. */
export function dianPdfModel(input: DianPdfInput): DianPrintModel {
  const kind = DIAN_KINDS[input.kind];
  const req = input.request;
  const ctx = input.context;
  const typeCode = str(req.document_type_code) || kind.typeCodes[0]!;
  const type = DOCUMENT_TYPES[typeCode] ?? DOCUMENT_TYPES[kind.typeCodes[0]!]!;
  const company: Json = ctx.company ?? {};
  const customer: Json = req.customer ?? {};
  const titles = PARTY_TITLES[kind.customerRole];
  const number = `${str(req.prefix)}${str(req.number)}`;
  const currency = str(req.currency_type_code) || 'COP';
  const totalsObj: Json = req[kind.totalsField] ?? {};
  const lines = list(req[kind.linesField]);

  const issuerName = str(company.name) || 'Emisor';
  const issuer: Run[] = [
    { text: issuerName, role: 'title' },
    ...(present(company.trade_name) && company.trade_name !== company.name ? [{ text: str(company.trade_name), role: 'heading' as const }] : []),
    { text: nitText(req.identification_number, company.dv, company.identification_type_code), role: 'strong' },
    ...(place(company) ? [{ text: place(company) }] : []),
    ...([company.phone, company.email].some(present) ? [{ text: [str(company.phone), str(company.email)].filter(Boolean).join(' · ') }] : []),
    ...(responsibilities(company) ? [{ text: responsibilities(company), role: 'small' as const }] : []),
    ...(present(company.merchant_registration) ? [{ text: `Matrícula mercantil: ${company.merchant_registration}`, role: 'small' as const }] : []),
    { text: titles.issuer, role: 'muted' },
  ];

  const payments = list(req.payment_forms);
  const docInfo: Pair[] = [
    { label: 'Fecha de emisión', value: dateTime(req.date, req.time) },
    ...(present(req.due_date) ? [{ label: 'Vencimiento', value: str(req.due_date) }] : []),
    ...payments.flatMap((p) => [
      {
        label: 'Pago',
        value: [named(PAYMENT_FORMS, p.payment_form_code), named(PAYMENT_MEANS, p.payment_method_code)].filter(Boolean).join(', '),
      },
      ...(present(p.payment_due_date)
        ? [{ label: 'Fecha de pago', value: `${p.payment_due_date}${present(p.duration_measure) ? ` (${p.duration_measure} días)` : ''}` }]
        : []),
    ]),
    { label: 'Moneda', value: currency },
    ...(present(req.operation_type_code) ? [{ label: 'Operación', value: named(OPERATION_TYPES, req.operation_type_code) }] : []),
    ...(present(req.order_reference?.id) ? [{ label: 'Orden de compra', value: dateTime(req.order_reference.id, req.order_reference.issue_date) }] : []),
  ];

  const counterparty: PairsSection = {
    kind: 'pairs',
    title: titles.counterparty,
    pairs: (
      [
        ['Nombre o razón social', customer.name],
        ['Nombre comercial', customer.trade_name !== customer.name ? customer.trade_name : undefined],
        [
          'Identificación',
          present(customer.identification_number) ? nitText(customer.identification_number, customer.dv, customer.identification_type_code) : undefined,
        ],
        ['Dirección', place(customer)],
        ['Teléfono', customer.phone],
        ['Correo electrónico', customer.email],
        ['Responsabilidades', responsibilities(customer)],
      ] as Array<[string, unknown]>
    )
      .filter(([, v]) => present(v))
      .map(([label, v]) => ({ label, value: String(v) })),
  };
  if (counterparty.pairs.length === 0) counterparty.pairs.push({ label: 'Nombre o razón social', value: 'Consumidor final' });

  const before: PairsSection[] = [];
  const res: Json | undefined = kind.invoiceControl ? ctx.resolution : undefined;
  if (res && (present(req.resolution_number) || present(res.from))) {
    before.push({
      kind: 'pairs',
      title: 'Autorización de numeración',
      pairs: [
        {
          label: 'Resolución DIAN',
          value: `No. ${str(req.resolution_number)}${present(res.start_date) ? ` vigente del ${res.start_date} al ${str(res.end_date)}` : ''}`,
        },
        { label: 'Rango autorizado', value: `${str(res.prefix)}${str(res.from)} al ${str(res.prefix)}${str(res.to)}` },
        ...(present(res.prefix) ? [{ label: 'Prefijo', value: str(res.prefix) }] : []),
      ],
    });
  }
  const ref: Json | undefined = req.billing_reference;
  const disc: Json | undefined = req.discrepancy_response;
  const refSection = pairs('Documento referenciado', [
    ['Número', ref?.number],
    ['Fecha', ref?.issue_date],
    ['Tipo', ref?.type_document_code],
    [SCHEME_LABELS[str(ref?.algorithm)] ?? 'CUFE/CUDE', ref?.uuid],
    ['Concepto de corrección', present(disc?.correction_concept_code) ? named(CORRECTION_CONCEPTS[kind.root] ?? {}, disc?.correction_concept_code) : undefined],
    ['Descripción', disc?.description],
  ]);
  if (refSection) before.push(refSection);

  const rate: Json | undefined = req.payment_exchange_rate;
  const rateDec = amount(rate?.calculation_rate);
  const payable = amount(totalsObj.payable_amount) ?? ZERO;
  let otherTotal: TotalLine | null = null;
  if (rate && rateDec !== null && cmp(rateDec, ZERO) > 0) {
    const source = str(rate.currency_type_code);
    // The rate converts the other currency into the document's (COP documents) or the document's into COP.
    const [otherCode, value] = currency === 'COP' ? [source, div(payable, rateDec)] : ['COP', mul(payable, rateDec)];
    otherTotal = {
      label: `Equivalente en ${otherCode} (tasa ${formatNumber(rate.calculation_rate, 2, 6)})`,
      value: `${otherCode} ${formatDec(roundHalfEven(value, 2))}`,
    };
    before.push({
      kind: 'pairs',
      title: 'Tasa de cambio',
      pairs: [
        { label: 'Conversión', value: `${currency === 'COP' ? source : currency} a COP` },
        { label: 'Tasa de cambio', value: formatNumber(rate.calculation_rate, 2, 6) },
        ...(present(rate.date) ? [{ label: 'Fecha de la tasa', value: str(rate.date) }] : []),
      ],
    });
  }

  const rows: TableRow[] = lines.map((l, i) => {
    const total = amount(l.line_extension_amount);
    return {
      cells: [
        [{ text: String(i + 1) }],
        [{ text: str(l.code) || str(l.vendor_code) }],
        lineDescription(l),
        [{ text: formatNumber(l.invoiced_quantity, 0, 6) }],
        [{ text: UNITS[str(l.unit_measure_code)] ?? str(l.unit_measure_code), role: 'small' }],
        [{ text: money(l.price_amount) }],
        [{ text: lineAllowances(l), role: 'small' }],
        [{ text: lineTaxes(l), role: 'small' }],
        [{ text: money(l.line_extension_amount), role: 'strong' }],
      ],
      ...(total !== null ? { carry: total } : {}),
    };
  });
  const linesTable: TableSection = { kind: 'table', title: 'Detalle', columns: LINE_COLUMNS, rows };

  const after: Array<TableSection | PairsSection> = [];
  const taxes = taxTable('Impuestos', list(req.tax_totals));
  if (taxes) after.push(taxes);
  const withholdings = taxTable('Retenciones (informativas)', list(req.withholding_tax_totals));
  if (withholdings) after.push(withholdings);
  const charges = list(req.allowance_charges);
  if (charges.length) {
    after.push({
      kind: 'table',
      title: 'Descuentos y cargos',
      columns: [
        { header: 'Tipo', width: 60, align: 'left' },
        { header: 'Razón', width: 0, flex: true, align: 'left' },
        { header: 'Base', width: 90, align: 'right' },
        { header: 'Valor', width: 90, align: 'right' },
      ],
      rows: charges.map((c) => ({
        cells: [
          [{ text: c.charge_indicator === true ? 'Cargo' : 'Descuento' }],
          [{ text: str(c.allowance_charge_reason) }],
          [{ text: money(c.base_amount) }],
          [{ text: money(c.amount) }],
        ],
      })),
    });
  }
  const prepaid = list(req.prepaid_payments);
  if (prepaid.length) {
    after.push({
      kind: 'table',
      title: 'Anticipos',
      columns: [
        { header: 'Identificador', width: 90, align: 'left' },
        { header: 'Detalle', width: 0, flex: true, align: 'left' },
        { header: 'Fecha', width: 70, align: 'left' },
        { header: 'Valor', width: 90, align: 'right' },
      ],
      rows: prepaid.map((p) => ({
        cells: [
          [{ text: str(p.identifier) }],
          [{ text: str(p.instruction_id) }],
          [{ text: str(p.paid_date || p.received_date) }],
          [{ text: money(p.paid_amount) }],
        ],
      })),
    });
  }
  const notes = list(req.notes)
    .map((n) => str(n.text))
    .filter(Boolean);
  if (notes.length) after.push({ kind: 'pairs', title: 'Observaciones', pairs: notes.map((n, i) => ({ label: String(i + 1), value: n })) });

  const words = CURRENCY_WORDS[currency];
  const totalInWords = words ? capitalize(amountInWords(payable, words)) : `${currency} ${formatDec(payable)}`;
  after.push({ kind: 'pairs', title: 'Valor total en letras', pairs: [{ label: 'Son', value: totalInWords }] });

  const scheme = input.codes.scheme && SCHEME_LABELS[input.codes.scheme] ? input.codes.scheme : type.uuidScheme;
  const code = { label: SCHEME_LABELS[scheme]!, value: str(input.codes.uuid) };
  const software: Json = ctx.software ?? {};
  after.push({
    kind: 'pairs',
    title: 'Validación DIAN',
    pairs: [
      { label: code.label, value: code.value || '(sin código)' },
      ...(input.codes.signingTime ? [{ label: 'Fecha y hora de firma', value: input.codes.signingTime }] : []),
      ...(present(software.provider_nit) || input.codes.providerName
        ? [
            {
              label: 'Proveedor tecnológico',
              value: [
                input.codes.providerName,
                present(software.provider_nit) ? `NIT ${software.provider_nit}${present(software.provider_dv) ? `-${software.provider_dv}` : ''}` : '',
              ]
                .filter(Boolean)
                .join(', '),
            },
          ]
        : []),
      ...(present(software.id) ? [{ label: 'Software', value: str(software.id) }] : []),
      ...(present(ctx.environment)
        ? [{ label: 'Ambiente', value: str(ctx.environment) === '1' ? '1 - Producción' : `${ctx.environment} - Habilitación (pruebas)` }]
        : []),
    ],
  });

  const totals: TotalLine[] = [];
  const row = (label: string, v: unknown, strong = false) => {
    if (present(v)) totals.push({ label, value: money(v), strong });
  };
  const taxSum = sum(list(req.tax_totals).map((t) => amount(t.tax_amount) ?? ZERO));
  const prepaidSum = sum(prepaid.map((p) => amount(p.paid_amount) ?? ZERO));
  row('Subtotal (valor bruto)', totalsObj.line_extension_amount);
  row('Base gravable', totalsObj.tax_exclusive_amount);
  if (list(req.tax_totals).length) totals.push({ label: 'Impuestos', value: formatDec(taxSum) });
  row('Total con impuestos', totalsObj.tax_inclusive_amount);
  if (amount(totalsObj.allowance_total_amount) !== null && cmp(amount(totalsObj.allowance_total_amount)!, ZERO) !== 0)
    row('Descuentos', totalsObj.allowance_total_amount);
  if (amount(totalsObj.charge_total_amount) !== null && cmp(amount(totalsObj.charge_total_amount)!, ZERO) !== 0) row('Cargos', totalsObj.charge_total_amount);
  if (cmp(prepaidSum, ZERO) !== 0) totals.push({ label: 'Anticipos', value: formatDec(prepaidSum) });
  if (amount(totalsObj.payable_rounding_amount) !== null && cmp(amount(totalsObj.payable_rounding_amount)!, ZERO) !== 0)
    row('Redondeo', totalsObj.payable_rounding_amount);
  totals.push({ label: `Total a pagar ${currency}`, value: money(totalsObj.payable_amount), strong: true });
  if (otherTotal) totals.push(otherTotal);

  const pos: Pair[] = [];
  const cash: Json | undefined = req.cash_register;
  if (cash) {
    for (const [label, key] of [
      ['Caja', 'name'],
      ['Ubicación', 'ubication'],
      ['Cajero', 'cashier'],
      ['Tipo de caja', 'type'],
      ['Venta', 'sale_reference'],
    ] as const)
      if (present(cash[key])) pos.push({ label, value: str(cash[key]) });
  }
  const benefits: Json | undefined = req.customer_benefits;
  if (benefits && present(benefits.points)) pos.push({ label: 'Puntos acumulados', value: `${str(benefits.points)} (${str(benefits.name)})` });

  const issuedAt = present(req.date) && present(req.time) ? `${req.date}T${String(req.time).slice(0, 8)}-05:00` : undefined;
  return {
    kind: input.kind,
    typeCode,
    title: type.printTitle,
    number,
    issuerName,
    issuer,
    docInfo,
    counterparty,
    before,
    lines: linesTable,
    after,
    totals,
    totalInWords,
    code,
    qrText: input.codes.qrText,
    ...(input.codes.signingTime ? { signingTime: input.codes.signingTime } : {}),
    ...(issuedAt ? { issuedAt } : {}),
    currency,
    pos,
    footer: `${type.printTitle} ${number} · Representación gráfica del documento electrónico`,
  };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

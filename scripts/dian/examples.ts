/**
 * Writes examples/dian/: a minimal and a maximal request per DIAN kind and one issuer context, all fictitious.
 * The amounts of the maximal requests are computed here, so they are consistent by construction: line total =
 * price × quantity − discounts + charges, tax = base × percent (or per-unit amount × units), header taxes = sums
 * of the lines' taxes, payable = inclusive − allowances + charges − prepaid + rounding. The JSON files are the
 * source users read; this script only keeps them consistent when they change.
 *
 *   npx tsx scripts/dian/examples.ts          # rewrite the files
 *   npx tsx scripts/dian/examples.ts --check  # exit 1 when a file differs from what the script writes
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIAN_EVENT_CODES, TACIT_ACCEPTANCE_NOTE, type DianEventCode } from '../../src/dian/events/table.js';
import { payrollExamples } from './payroll-examples.js';

type Json = Record<string, unknown>;
type Kind =
  | 'invoice'
  | 'export-invoice'
  | 'contingency-invoice'
  | 'credit-note'
  | 'debit-note'
  | 'support-invoice'
  | 'note-support-invoice'
  | 'pos'
  | 'credit-note-equivalent';

const OUT = resolve(dirname(fileURLToPath(import.meta.url)), '../../examples/dian');

/** DIAN's check digit of a NIT (weights 3, 7, 13, … from the rightmost digit, modulo 11). */
function nitDv(nit: string): number {
  const w = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];
  let s = 0;
  [...nit].reverse().forEach((d, i) => {
    s += Number(d) * w[i]!;
  });
  const r = s % 11;
  return r > 1 ? 11 - r : r;
}

/** Cents-exact money arithmetic on JSON numbers (every amount here has at most 2 decimals). */
const cents = (x: number) => Math.round(x * 100);
const money = (c: number) => c / 100;
const pct = (base: number, percent: number) => money(Math.round((cents(base) * percent) / 100));

// ---- the issuer (fictitious) ----

const COMPANY_NIT = '901458732';
const DATE = '2025-03-14';
const TIME = '10:24:37';

const context = {
  company: {
    dv: String(nitDv(COMPANY_NIT)),
    name: 'Ferretería Ejemplo Andina S.A.S.',
    trade_name: 'Ferretería Ejemplo',
    organization_type_code: '1',
    identification_type_code: '31',
    regime_type_code: '48',
    liability_type_code: 'O-13;O-15',
    tax_code: '01',
    merchant_registration: '03456789',
    municipality_code: '11001',
    address: 'Carrera 13 # 45-20, Local 2',
    country_code: 'CO',
    phone: '(601) 555-0142',
    email: 'facturacion@ferreteria-ejemplo.example',
  },
  software: {
    id: '00000000-0000-4000-8000-000000000000',
    pin: '12345',
    provider_nit: COMPANY_NIT,
    provider_dv: String(nitDv(COMPANY_NIT)),
  },
  resolution: {
    prefix: 'SETP',
    from: '990000000',
    to: '995000000',
    start_date: '2025-01-01',
    end_date: '2026-12-31',
    technical_key: 'clave-tecnica-de-ejemplo-no-valida',
  },
  environment: '2',
};

// ---- customers (fictitious) ----

const CUSTOMER_NIT = '900712345';
const company = {
  identification_number: CUSTOMER_NIT,
  dv: nitDv(CUSTOMER_NIT),
  identification_type_code: '31',
  organization_type_code: '1',
  country_code: 'CO',
  municipality_code: '05001',
  regime_type_code: '48',
  tax_code: '01',
  liability_type_code: 'O-13',
  name: 'Constructora Ejemplo del Valle S.A.S.',
  trade_name: 'Constructora Ejemplo',
  phone: '(604) 444-0190',
  address: 'Calle 10 # 43A-30, Oficina 501',
  email: 'cuentasporpagar@constructora-ejemplo.example',
  merchant_registration: '21098765',
};
const consumer = (): Json => ({
  identification_number: '1020304050',
  identification_type_code: '13',
  organization_type_code: '2',
  country_code: 'CO',
  municipality_code: '11001',
  regime_type_code: '49',
  tax_code: 'ZZ',
  liability_type_code: 'R-99-PN',
  name: 'María Ejemplo Gómez',
  phone: '300 555 0123',
  address: 'Calle 72 # 11-40, Apto 302',
  email: 'maria.ejemplo@correo.example',
  merchant_registration: '0',
});
const foreign = (): Json => ({
  identification_number: '1790000000001',
  identification_type_code: '50',
  organization_type_code: '1',
  country_code: 'EC',
  regime_type_code: '49',
  tax_code: 'ZZ',
  liability_type_code: 'R-99-PN',
  name: 'Importadora Ejemplo del Pacífico S.A.',
  trade_name: 'Importadora Ejemplo',
  phone: '+593 2 555 0100',
  address: 'Av. de los Ejemplos N34-120, Quito',
  email: 'compras@importadora-ejemplo.example',
  merchant_registration: '0',
});
/** The seller of a support document: a resident natural person not obliged to invoice (operation 10: NIT and dv). */
const SELLER_NIT = '79555123';
const seller = (): Json => ({
  identification_number: SELLER_NIT,
  dv: nitDv(SELLER_NIT),
  identification_type_code: '31',
  organization_type_code: '2',
  country_code: 'CO',
  municipality_code: '25754',
  regime_type_code: '49',
  tax_code: 'ZZ',
  liability_type_code: 'R-99-PN',
  name: 'Pedro Ejemplo Rincón',
  trade_name: 'Transportes Ejemplo',
  phone: '310 555 0177',
  address: 'Carrera 7 # 12-15, Soacha',
  email: 'pedro.ejemplo@correo.example',
  merchant_registration: '0',
});

// ---- lines with computed amounts ----

interface TaxSpec {
  code: string;
  percent?: number;
  /** A per-unit tax (bags, INPP): amount per unit, on the line's quantity. */
  perUnit?: number;
}
interface LineSpec {
  description: string;
  code: string;
  scheme?: string;
  unit?: string;
  qty: number;
  price: number;
  discount?: { reason: string; percent: number };
  charge?: { reason: string; amount: number };
  taxes: TaxSpec[];
  withholdings?: { code: string; percent: number; onTax?: string }[];
  extra?: Json;
}

function line(s: LineSpec): Json {
  const unit = s.unit ?? '94';
  const gross = money(Math.round(cents(s.price) * s.qty));
  const allowance_charges: Json[] = [];
  let total = cents(gross);
  if (s.discount) {
    const amount = pct(gross, s.discount.percent);
    total -= cents(amount);
    allowance_charges.push({
      charge_indicator: false,
      allowance_charge_reason: s.discount.reason,
      multiplier_factor_numeric: s.discount.percent,
      amount,
      base_amount: gross,
    });
  }
  if (s.charge) {
    total += cents(s.charge.amount);
    allowance_charges.push({ charge_indicator: true, allowance_charge_reason: s.charge.reason, amount: s.charge.amount, base_amount: gross });
  }
  const lea = money(total);
  const tax_totals = s.taxes.map((t) =>
    t.perUnit !== undefined
      ? {
          tax_code: t.code,
          tax_amount: money(Math.round(cents(t.perUnit) * s.qty)),
          taxable_amount: lea,
          unit_measure_code: unit,
          per_unit_amount: t.perUnit,
          base_unit_measure: s.qty,
        }
      : { tax_code: t.code, percent: t.percent!, tax_amount: pct(lea, t.percent!), taxable_amount: lea },
  );
  const seen = new Set<string>();
  for (const t of tax_totals) {
    if (!seen.has(t.tax_code)) (t as Json).rounding_amount = 0;
    seen.add(t.tax_code);
  }
  const out: Json = {
    unit_measure_code: unit,
    invoiced_quantity: s.qty,
    line_extension_amount: lea,
    ...(allowance_charges.length ? { allowance_charges } : {}),
    tax_totals,
  };
  if (s.withholdings)
    out.withholding_tax_totals = s.withholdings.map((w) => {
      const base = w.onTax ? (tax_totals.find((t) => t.tax_code === w.onTax)!.tax_amount as number) : lea;
      return { tax_code: w.code, percent: w.percent, tax_amount: pct(base, w.percent), taxable_amount: base };
    });
  return {
    ...out,
    description: s.description,
    code: s.code,
    item_identification_type_code: s.scheme ?? '999',
    price_amount: s.price,
    base_quantity: s.qty,
    ...s.extra,
  };
}

/** Header tax (or withholding) entries: the lines' entries summed per tax code and rate, one code's entries together. */
function headerTaxes(lines: Json[], key: 'tax_totals' | 'withholding_tax_totals', rounding: boolean): Json[] {
  const groups = new Map<string, Json>();
  for (const l of lines)
    for (const t of (l[key] as Json[] | undefined) ?? []) {
      const k = `${t.tax_code}|${t.percent ?? ''}|${t.per_unit_amount ?? ''}`;
      const g = groups.get(k);
      if (!g) {
        groups.set(k, { ...t });
        continue;
      }
      g.tax_amount = money(cents(g.tax_amount as number) + cents(t.tax_amount as number));
      g.taxable_amount = money(cents(g.taxable_amount as number) + cents(t.taxable_amount as number));
      if (g.base_unit_measure !== undefined) g.base_unit_measure = (g.base_unit_measure as number) + (t.base_unit_measure as number);
    }
  const list = [...groups.values()].sort((a, b) => String(a.tax_code).localeCompare(String(b.tax_code)));
  if (rounding) {
    const seen = new Set<unknown>();
    for (const t of list) {
      if (!seen.has(t.tax_code)) t.rounding_amount = 0;
      seen.add(t.tax_code);
    }
  }
  return list;
}

interface TotalsSpec {
  allowances?: { reason: string; code?: string; percent: number }[];
  charges?: { reason: string; amount: number }[];
  prepaid?: number;
}

/** Header taxes, global allowances and charges and the totals of a request with these lines. */
function totals(lines: Json[], spec: TotalsSpec = {}): { tax_totals: Json[]; withholding?: Json[]; allowance_charges?: Json[]; totals: Json } {
  const lineExt = lines.reduce((s, l) => s + cents(l.line_extension_amount as number), 0);
  // FAU04: each line's taxable base once (its largest TaxableAmount).
  const taxExcl = lines.reduce((s, l) => s + Math.max(0, ...((l.tax_totals as Json[]) ?? []).map((t) => cents(t.taxable_amount as number))), 0);
  const taxes = lines.reduce((s, l) => s + ((l.tax_totals as Json[]) ?? []).reduce((a, t) => a + cents(t.tax_amount as number), 0), 0);
  const inclusive = lineExt + taxes;
  const allowance_charges: Json[] = [];
  let allowance = 0;
  let charge = 0;
  for (const a of spec.allowances ?? []) {
    const amount = pct(money(lineExt), a.percent);
    allowance += cents(amount);
    allowance_charges.push({
      charge_indicator: false,
      ...(a.code ? { discount_code: a.code } : {}),
      allowance_charge_reason: a.reason,
      amount,
      base_amount: money(lineExt),
    });
  }
  for (const c of spec.charges ?? []) {
    charge += cents(c.amount);
    allowance_charges.push({ charge_indicator: true, allowance_charge_reason: c.reason, amount: c.amount, base_amount: money(lineExt) });
  }
  const prepaid = cents(spec.prepaid ?? 0);
  const raw = inclusive - allowance + charge - prepaid;
  // Payable rounded to whole pesos; the difference is the rounding amount.
  const payable = Math.round(raw / 100) * 100;
  // The spec types the document-level withholding code as an integer (5 ReteIVA, 6 ReteRenta, 7 ReteICA).
  const withholding = headerTaxes(lines, 'withholding_tax_totals', false).map((w) => ({ ...w, tax_code: Number(w.tax_code) }));
  return {
    tax_totals: headerTaxes(lines, 'tax_totals', true),
    ...(withholding.length ? { withholding } : {}),
    ...(allowance_charges.length ? { allowance_charges } : {}),
    totals: {
      line_extension_amount: money(lineExt),
      tax_exclusive_amount: money(taxExcl),
      tax_inclusive_amount: money(inclusive),
      allowance_total_amount: money(allowance),
      charge_total_amount: money(charge),
      payable_rounding_amount: money(payable - raw),
      payable_amount: money(payable),
    },
  };
}

// ---- minimal requests: required fields only, one line ----

const minimalLine = () => line({ description: 'Martillo de uña 16 oz', code: 'MAR-016', qty: 2, price: 38500, taxes: [{ code: '01', percent: 19 }] });

function minimal(kind: Kind): Json {
  const l = minimalLine();
  const t = totals([l]);
  const { payable_rounding_amount: _r, ...tot } = t.totals;
  const head = (documentType: string, prefix: string, number: number, operation = '10'): Json => ({
    number,
    prefix,
    operation_type_code: operation,
    document_type_code: documentType,
    identification_number: Number(COMPANY_NIT),
    resolution_number: 18760000001,
    date: DATE,
    time: TIME,
    currency_type_code: 'COP',
  });
  const pay = { payment_forms: [{ payment_form_code: '1', payment_method_code: '10' }] };
  const taxes = { tax_totals: t.tax_totals.map(({ rounding_amount: _x, ...x }) => x) };
  const light = { identification_number: '222222222222', name: 'Consumidor final', email: 'sin-correo@ferreteria-ejemplo.example' };
  const ref = { number: 'SETP990000101', uuid: REF_CUFE, issue_date: '2025-03-10' };
  switch (kind) {
    case 'invoice':
      return { ...head('01', 'SETP', 990000001), customer: company, ...pay, ...taxes, legal_monetary_totals: tot, invoice_lines: [l] };
    case 'export-invoice':
      return {
        ...head('02', 'SETP', 990000002),
        payment_exchange_rate: { currency_type_code: 'USD', calculation_rate: 4120.35, date: DATE },
        customer: { identification_number: '1790000000001', name: 'Importadora Ejemplo del Pacífico S.A.', email: 'compras@importadora-ejemplo.example' },
        ...pay,
        ...taxes,
        legal_monetary_totals: tot,
        invoice_lines: [{ ...l, brand_name: 'Ejemplo', model_name: 'M16' }],
      };
    case 'contingency-invoice':
      return { ...head('04', 'SETP', 990000003), send_dian: false, customer: light, ...pay, ...taxes, legal_monetary_totals: tot, invoice_lines: [l] };
    case 'credit-note':
      return {
        ...head('91', 'NC', 1, '20'),
        customer: company,
        billing_reference: ref,
        discrepancy_response: { correction_concept_code: '2' },
        ...pay,
        ...taxes,
        legal_monetary_totals: tot,
        credit_note_lines: [l],
      };
    case 'debit-note':
      return { ...head('92', 'ND', 1, '30'), customer: light, billing_reference: ref, ...pay, ...taxes, requested_monetary_totals: tot, debit_note_lines: [l] };
    case 'support-invoice':
      return {
        ...head('05', 'SETP', 990000004),
        customer: seller(),
        ...pay,
        ...taxes,
        legal_monetary_totals: tot,
        invoice_lines: [{ ...l, invoice_period: { start_date: DATE, form_generation_transmission_code: 1 }, tax_amount: 14630, taxable_amount: 77000 }],
      };
    case 'note-support-invoice':
      return {
        ...head('95', 'NAS', 1),
        customer: seller(),
        billing_reference: { number: 'SETP990000104', uuid: REF_CUDS, issue_date: '2025-03-10' },
        ...pay,
        ...taxes,
        legal_monetary_totals: tot,
        credit_note_lines: [l],
      };
    case 'pos':
      return {
        ...head('20', 'SETP', 990000005),
        customer: light,
        cash_register: {
          name: 'CAJA-01',
          ubication: 'Mostrador principal',
          cashier: 'Cajero 1',
          type: 'Caja registradora',
          sale_reference: 'V-000001',
          subtotal: '77000.00',
        },
        customer_benefits: { identification_number: '0', name: 'Consumidor final', points: '0' },
        software_manufacturer: { software_developer: 'Equipo de sistemas', registration_name: context.company.name, software_name: 'Caja Ejemplo' },
        ...pay,
        ...taxes,
        legal_monetary_totals: tot,
        invoice_lines: [l],
      };
    case 'credit-note-equivalent':
      return {
        ...head('94', 'NCP', 1, '20'),
        customer: company,
        billing_reference: { number: 'SETP990000105', uuid: REF_CUDE, issue_date: '2025-03-10', type_document_code: '20' },
        ...pay,
        ...taxes,
        legal_monetary_totals: tot,
        credit_note_lines: [l],
      };
  }
}

/** Codes of the documents the examples refer to: 96 hex digits, visibly made up. */
const REF_CUFE = `${'0a1b2c3d4e5f'.repeat(8)}`;
const REF_CUDE = `${'c0dec0de1234'.repeat(8)}`;
const REF_CUDS = `${'5d5d5d5d0001'.repeat(8)}`;

// ---- maximal requests ----

const notes = (t: string) => [{ text: t }];
const itemProps = [
  { name: 'Color', value: 'Rojo' },
  { name: 'Peso neto', value: '2,3 kg', value_quantity: 2.3, unit_measure_code: 94 },
];

/** Three lines: a discounted tool, an installation service with a charge, and plastic bags with the per-unit INPP. */
function storeLines(kind: Kind, withWithholding: boolean): Json[] {
  const w = withWithholding;
  return [
    line({
      description: 'Taladro percutor 1/2" 750 W;Incluye maletín y juego de brocas',
      code: 'TAL-750',
      qty: 2,
      price: 350000,
      discount: { reason: 'Descuento por volumen', percent: 10 },
      taxes: [{ code: '01', percent: 19 }],
      ...(w ? { withholdings: [{ code: '06', percent: 2.5 }] } : {}),
      extra: { notes: notes('Garantía de 12 meses'), additional_item_properties: itemProps },
    }),
    line({
      description: 'Instalación y puesta en marcha de equipos',
      code: '7701234000015',
      scheme: '010',
      unit: 'HUR',
      qty: 3,
      price: 60000,
      charge: { reason: 'Desplazamiento del técnico', amount: 20000 },
      taxes: [{ code: '01', percent: 19 }],
      ...(w ? { withholdings: [{ code: '05', percent: 15, onTax: '01' }] } : {}),
      extra: kind === 'export-invoice' ? {} : { information_content_provider_party: { identification_number: 900555321, identification_type_code: 31 } },
    }),
    line({
      description: 'Bolsa plástica para carga',
      code: 'BOL-001',
      qty: 2,
      price: 200,
      taxes: [
        { code: '01', percent: 19 },
        { code: '22', perUnit: 66 },
      ],
    }),
  ];
}

function withTotals(req: Json, lines: Json[], spec: TotalsSpec, linesField: string, totalsField: string): Json {
  const t = totals(lines, spec);
  return {
    ...req,
    ...(t.allowance_charges ? { allowance_charges: t.allowance_charges } : {}),
    tax_totals: t.tax_totals,
    ...(t.withholding ? { withholding_tax_totals: t.withholding } : {}),
    [totalsField]: t.totals,
    [linesField]: lines,
  };
}

const invoiceHeader = (documentType: string, number: number, operation = '10'): Json => ({
  number,
  prefix: 'SETP',
  notes: notes('Documento de ejemplo: empresa y cliente ficticios.'),
  operation_type_code: operation,
  document_type_code: documentType,
  identification_number: Number(COMPANY_NIT),
  resolution_number: 18760000001,
  date: DATE,
  time: TIME,
  due_date: '2025-04-13',
  currency_type_code: 'COP',
  order_reference: { id: 'OC-2025-0147', issue_date: '2025-03-10' },
});
const creditTerms = [
  { payment_form_code: '1', payment_method_code: '10' },
  { payment_form_code: '2', payment_method_code: '42', payment_due_date: '2025-04-13', duration_measure: 30 },
];
const period = { start_date: '2025-03-01', start_time: '00:00:00', end_date: '2025-03-14', end_time: '23:59:59' };
const delivery = (terms: string, risk: string) => ({
  actual_delivery_date: DATE,
  actual_delivery_time: '15:00:00',
  delivery_terms: [{ special_terms: terms, loss_risk: risk }],
});
const prepaid = (amount: number) => [
  {
    identifier: 'ANT-2025-031',
    paid_amount: amount,
    received_date: '2025-03-05',
    paid_date: '2025-03-05',
    instruction_id: 'Anticipo del 30 % según cotización COT-0098',
  },
];
const noteRef = (prefix: string, number: string, uuid: string, algorithm?: string) => ({
  number: `${prefix}${number}`,
  uuid,
  ...(algorithm ? { algorithm } : {}),
  issue_date: '2025-03-07',
  document_reference_type_code: 1,
});
const storeTotals = (prepaidAmount?: number): TotalsSpec => ({
  allowances: [{ reason: 'Descuento comercial por pronto pago', code: '01', percent: 2 }],
  charges: [{ reason: 'Flete de entrega en obra', amount: 45000 }],
  ...(prepaidAmount !== undefined ? { prepaid: prepaidAmount } : {}),
});

function maximal(kind: Kind): Json {
  switch (kind) {
    case 'invoice':
      return withTotals(
        {
          ...invoiceHeader('01', 990000101),
          invoice_period: period,
          customer: company,
          delivery: delivery('Entrega en obra, Calle 10 # 43A-30, Medellín', 'Vendedor hasta la entrega en obra'),
          payment_forms: creditTerms,
          prepaid_payments: prepaid(300000),
        },
        storeLines(kind, true),
        storeTotals(300000),
        'invoice_lines',
        'legal_monetary_totals',
      );
    case 'export-invoice': {
      const lines = [
        line({
          description: 'Taladro percutor 1/2" 750 W',
          code: 'TAL-750',
          qty: 40,
          price: 350000,
          discount: { reason: 'Descuento por volumen', percent: 5 },
          taxes: [{ code: '01', percent: 0 }],
          extra: { notes: notes('Partida arancelaria 8467.21.00.00'), additional_item_properties: itemProps, brand_name: 'Ejemplo Pro', model_name: 'TP-750' },
        }),
        line({
          description: 'Pulidora angular 4 1/2" 900 W',
          code: 'PUL-900',
          qty: 25,
          price: 210000,
          charge: { reason: 'Embalaje de exportación', amount: 150000 },
          taxes: [{ code: '01', percent: 0 }],
          extra: { brand_name: 'Ejemplo Pro', model_name: 'PA-900' },
        }),
      ];
      return withTotals(
        {
          ...invoiceHeader('02', 990000102),
          payment_exchange_rate: { currency_type_code: 'USD', calculation_rate: 4120.35, date: DATE },
          invoice_period: period,
          customer: foreign(),
          delivery: delivery('Entrega a bordo en el puerto de Buenaventura', 'FOB'),
          payment_forms: creditTerms,
          prepaid_payments: prepaid(5000000),
        },
        lines,
        {
          allowances: [{ reason: 'Descuento comercial por pronto pago', code: '01', percent: 1 }],
          charges: [{ reason: 'Transporte interno hasta el puerto', amount: 850000 }],
          prepaid: 5000000,
        },
        'invoice_lines',
        'legal_monetary_totals',
      );
    }
    case 'contingency-invoice':
      return withTotals(
        {
          ...invoiceHeader('03', 990000103),
          send_dian: false,
          invoice_period: period,
          additional_document_references: [{ number: 'TAL-004512', issue_date: DATE, type_of_non_tax_document_id: '03' }],
          credit_note_document_references: [noteRef('NC', '12', REF_CUDE)],
          debit_note_document_references: [noteRef('ND', '4', REF_CUDE)],
          customer: company,
          delivery: delivery('Retira el cliente en el almacén', 'Comprador desde el retiro'),
          payment_forms: creditTerms,
          prepaid_payments: prepaid(300000),
        },
        storeLines(kind, true),
        storeTotals(300000),
        'invoice_lines',
        'legal_monetary_totals',
      );
    case 'support-invoice': {
      const periodLine = (start: string, form: number) => ({ invoice_period: { start_date: start, form_generation_transmission_code: form } });
      const l1 = line({
        description: 'Servicio de transporte de mercancía Bogotá - Soacha',
        code: 'TRA-001',
        qty: 1,
        price: 1200000,
        taxes: [{ code: '01', percent: 0 }],
        withholdings: [
          { code: '06', percent: 3.5 },
          { code: '07', percent: 0.69 },
        ],
        extra: {
          notes: notes('Viaje del 14 de marzo'),
          additional_item_properties: [
            { name: 'Placa del vehículo', value: 'XYZ-123' },
            { name: 'Carga transportada', value: '3,5 toneladas', value_quantity: 3500, unit_measure_code: 94 },
          ],
          vendor_code: 'SERV-TRA',
          ...periodLine(DATE, 1),
          order_line_reference: { id: 'OS-2025-0033', issue_date: '2025-03-12' },
          receipt_line_reference: { id: 'RC-2025-0091', issue_date: DATE },
        },
      });
      const l2 = line({
        description: 'Cargue y descargue de material (semana)',
        code: 'CAR-001',
        unit: 'HUR',
        qty: 12,
        price: 25000,
        discount: { reason: 'Horas no laboradas por lluvia', percent: 5 },
        taxes: [{ code: '01', percent: 0 }],
        withholdings: [{ code: '06', percent: 3.5 }],
        extra: { vendor_code: 'SERV-CAR', ...periodLine('2025-03-08', 2) },
      });
      for (const l of [l1, l2]) {
        l.tax_amount = 0;
        l.taxable_amount = l.line_extension_amount;
      }
      return withTotals(
        {
          ...invoiceHeader('05', 990000104),
          customer: seller(),
          invoice_document_references: [noteRef('SETP', '990000090', REF_CUDS, 'CUDS-SHA384')],
          credit_note_document_references: [noteRef('NAS', '2', REF_CUDS, 'CUDS-SHA384')],
          debit_note_document_references: [noteRef('NAS', '3', REF_CUDS, 'CUDS-SHA384')],
          receipt_document_references: [{ id: 'RC-2025-0091', issue_date: DATE }],
          payment_forms: [
            { payment_form_code: '1', payment_method_code: '47' },
            { payment_form_code: '2', payment_method_code: '47', payment_due_date: '2025-04-13', duration_measure: 30 },
          ],
          prepaid_payments: prepaid(200000),
        },
        [l1, l2],
        { allowances: [{ reason: 'Descuento por pronto pago', code: '01', percent: 1 }], prepaid: 200000 },
        'invoice_lines',
        'legal_monetary_totals',
      );
    }
    case 'pos': {
      const lines = storeLines(kind, false);
      const t = totals(lines);
      return withTotals(
        {
          ...invoiceHeader('20', 990000105),
          due_date: DATE,
          order_reference: { id: 'PED-000871', issue_date: DATE },
          invoice_period: { start_date: DATE, start_time: '10:20:00', end_date: DATE, end_time: '10:24:00' },
          additional_document_references: [{ number: 'TIR-000871', issue_date: DATE, type_of_non_tax_document_id: '01' }],
          credit_note_document_references: [noteRef('NCP', '7', REF_CUDE)],
          debit_note_document_references: [noteRef('NDP', '2', REF_CUDE)],
          customer: consumer(),
          cash_register: {
            name: 'CAJA-01',
            ubication: 'Mostrador principal, Carrera 13 # 45-20',
            cashier: 'Cajero 1',
            type: 'Caja registradora',
            sale_reference: 'V-000871',
            subtotal: (t.totals.line_extension_amount as number).toFixed(2),
          },
          customer_benefits: { identification_number: '1020304050', name: 'María Ejemplo Gómez', points: '86' },
          software_manufacturer: { software_developer: 'Equipo de sistemas', registration_name: context.company.name, software_name: 'Caja Ejemplo' },
          delivery: delivery('Entrega en mostrador', 'Comprador desde la entrega'),
          payment_forms: [{ payment_form_code: '1', payment_method_code: '48' }],
          prepaid_payments: prepaid(100000),
        },
        lines,
        { allowances: [{ reason: 'Descuento por puntos acumulados', code: '01', percent: 1 }], prepaid: 100000 },
        'invoice_lines',
        'legal_monetary_totals',
      );
    }
    case 'credit-note':
    case 'credit-note-equivalent':
    case 'note-support-invoice':
    case 'debit-note': {
      // A partial return (credit), or the interest and expenses charged later (debit), on the maximal invoice's lines.
      const debit = kind === 'debit-note';
      const lines = debit
        ? [
            line({
              description: 'Intereses de mora sobre la factura SETP990000101',
              code: 'INT-MORA',
              qty: 1,
              price: 25000,
              taxes: [{ code: '01', percent: 19 }],
              extra: {
                notes: notes('15 días de mora'),
                additional_item_properties: [{ name: 'Días de mora', value: '15 días', value_quantity: 15, unit_measure_code: 94 }],
              },
            }),
            line({
              description: 'Gastos de cobranza',
              code: 'GAS-COB',
              qty: 1,
              price: 40000,
              charge: { reason: 'Envío de correspondencia certificada', amount: 12000 },
              taxes: [{ code: '01', percent: 19 }],
              extra: { information_content_provider_party: { identification_number: 900555321, identification_type_code: 31 } },
            }),
          ]
        : kind === 'note-support-invoice'
          ? [
              line({
                description: 'Ajuste: servicio de transporte no prestado',
                code: 'TRA-001',
                qty: 1,
                price: 300000,
                discount: { reason: 'Descuento pactado', percent: 10 },
                taxes: [{ code: '01', percent: 0 }],
                extra: {
                  notes: notes('Viaje cancelado'),
                  additional_item_properties: [
                    { name: 'Placa del vehículo', value: 'XYZ-123' },
                    { name: 'Carga no transportada', value: '1 tonelada', value_quantity: 1000, unit_measure_code: 94 },
                  ],
                  invoice_period: { start_date: DATE, form_generation_transmission_code: 1 },
                  information_content_provider_party: { identification_number: 900555321, identification_type_code: 31 },
                },
              }),
            ]
          : [
              line({
                description: 'Devolución: taladro percutor 1/2" 750 W',
                code: 'TAL-750',
                qty: 1,
                price: 350000,
                discount: { reason: 'Descuento por volumen', percent: 10 },
                taxes: [{ code: '01', percent: 19 }],
                extra: {
                  notes: notes('Devuelto sin uso, empaque original'),
                  additional_item_properties: itemProps,
                  information_content_provider_party: { identification_number: 900555321, identification_type_code: 31 },
                },
              }),
            ];
      const docType = { 'credit-note': '91', 'debit-note': '92', 'note-support-invoice': '95', 'credit-note-equivalent': '94' }[kind];
      const op = { 'credit-note': '20', 'debit-note': '30', 'note-support-invoice': '10', 'credit-note-equivalent': '20' }[kind];
      const prefix = { 'credit-note': 'NC', 'debit-note': 'ND', 'note-support-invoice': 'NAS', 'credit-note-equivalent': 'NCP' }[kind];
      const billing =
        kind === 'credit-note-equivalent'
          ? { number: 'SETP990000105', uuid: REF_CUDE, issue_date: DATE, type_document_code: '20' }
          : kind === 'note-support-invoice'
            ? { number: 'SETP990000104', uuid: REF_CUDS, issue_date: DATE }
            : { number: 'SETP990000101', uuid: REF_CUFE, issue_date: DATE };
      const concept = {
        'credit-note': { reference: 'SETP990000101', correction_concept_code: '1', description: 'Devolución parcial de los bienes' },
        'debit-note': { reference: 'SETP990000101', correction_concept_code: '1', description: 'Intereses de mora y gastos de cobranza' },
        'note-support-invoice': { reference: 'SETP990000104', correction_concept_code: '2', description: 'Anulación parcial: servicio no prestado' },
        'credit-note-equivalent': { reference: 'SETP990000105', correction_concept_code: '1', description: 'Devolución parcial en tienda' },
      }[kind];
      const req: Json = {
        number: 15,
        prefix,
        resolution_number: 18760000001,
        notes: notes('Documento de ejemplo: empresa y cliente ficticios.'),
        operation_type_code: op,
        document_type_code: docType,
        identification_number: Number(COMPANY_NIT),
        date: '2025-03-20',
        time: '16:05:12',
        currency_type_code: 'COP',
        order_reference: { id: 'OC-2025-0147', issue_date: '2025-03-10' },
        ...(kind === 'note-support-invoice'
          ? {}
          : { invoice_period: { start_date: '2025-03-01', start_time: '00:00:00', end_date: '2025-03-20', end_time: '23:59:59' } }),
        ...(kind === 'debit-note' || kind === 'credit-note-equivalent'
          ? { additional_document_references: [{ number: 'RAD-2025-0042', issue_date: '2025-03-18', type_of_non_tax_document_id: '01' }] }
          : {}),
        billing_reference: billing,
        discrepancy_response: concept,
        customer: kind === 'note-support-invoice' ? seller() : kind === 'credit-note-equivalent' ? consumer() : company,
        ...(kind === 'note-support-invoice' ? {} : { delivery: delivery('Recogida en la obra del cliente', 'Vendedor desde la recogida') }),
        payment_forms: kind === 'debit-note' ? creditTerms.slice(1) : [{ payment_form_code: '1', payment_method_code: '10' }],
        ...(debit ? { prepaid_payments: prepaid(10000) } : {}),
      };
      return withTotals(
        req,
        lines,
        debit
          ? { charges: [{ reason: 'Gastos administrativos', amount: 8000 }], prepaid: 10000 }
          : { allowances: [{ reason: 'Descuento comercial por pronto pago', code: '01', percent: 2 }] },
        DIAN_LINES[kind],
        debit ? 'requested_monetary_totals' : 'legal_monetary_totals',
      );
    }
  }
}

const DIAN_LINES: Record<Kind, string> = {
  invoice: 'invoice_lines',
  'export-invoice': 'invoice_lines',
  'contingency-invoice': 'invoice_lines',
  'support-invoice': 'invoice_lines',
  pos: 'invoice_lines',
  'credit-note': 'credit_note_lines',
  'debit-note': 'debit_note_lines',
  'note-support-invoice': 'credit_note_lines',
  'credit-note-equivalent': 'credit_note_lines',
};

export const EXAMPLE_KINDS = Object.keys(DIAN_LINES) as Kind[];

const files: Record<string, unknown> = { 'context.json': context };
for (const k of EXAMPLE_KINDS) {
  files[`${k}.min.json`] = minimal(k);
  files[`${k}.max.json`] = maximal(k);
}

/** A fictitious CUFE: SHA-384 of a label (the shape of a real one, the value of none). */
const fictitiousCufe = (label: string) => createHash('sha384').update(`ecf-kit example: ${label}`).digest('hex');

/**
 * An event request (`event-<code>.json`). 030–033: the context's company, as buyer, answers a supplier's invoice;
 * 034: the company, as issuer, declares the tacit acceptance of its own invoice (the maximal invoice example).
 */
function eventExample(code: DianEventCode): Json {
  const company = { identification_type_code: 31, identification_number: '901458732', name: context.company.name };
  const bought = { number: 'FEV12345', uuid: fictitiousCufe('supplier invoice FEV12345') };
  const base: Json = { event_code: code, number: 101, identification_number: 901458732, sender_party: company };
  if (code === '034')
    return {
      ...base,
      document_reference: { number: 'SETP990000101', uuid: fictitiousCufe('invoice SETP990000101') },
      notes: [{ text: TACIT_ACCEPTANCE_NOTE }],
    };
  return {
    ...base,
    receiver_party: { identification_type_code: 31, identification_number: '900611234', name: 'Distribuidora Ejemplo de Herramientas S.A.S.' },
    document_reference: bought,
    person: {
      identification_type_code: 13,
      identification_number: '52123456',
      first_name: 'Laura',
      family_name: 'Castro Peña',
      job_title: 'Jefe de bodega',
      organization_department: 'Logística',
    },
    ...(code === '031' ? { rejection_concept_code: '03', notes: [{ text: 'Llegaron 8 de las 10 cajas facturadas.' }] } : {}),
  };
}
for (const code of DIAN_EVENT_CODES) files[`event-${code}.json`] = eventExample(code);
Object.assign(files, payrollExamples());

const check = process.argv.includes('--check');
let differs = 0;
if (!check) mkdirSync(OUT, { recursive: true });
for (const [name, value] of Object.entries(files)) {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const path = resolve(OUT, name);
  if (check) {
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
      console.error(`differs: examples/dian/${name}`);
      differs++;
    }
  } else writeFileSync(path, text);
}
if (check && differs) process.exit(1);
if (!check) console.log(`wrote ${Object.keys(files).length} files to examples/dian/`);

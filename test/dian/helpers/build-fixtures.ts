/** A company context and request bodies per kind for builder tests (minimal: required fields; maximal: most fields). */
import type { DianContext } from '../../../src/dian/build/context.js';
import type { DianKindId } from '../../../src/dian/spec/kinds.js';

export const CONTEXT: DianContext = {
  company: {
    dv: '8',
    name: 'Ferretería El Tornillo S.A.S.',
    trade_name: 'El Tornillo',
    organization_type_code: '1',
    identification_type_code: '31',
    regime_type_code: '48',
    liability_type_code: 'O-13',
    tax_code: '01',
    merchant_registration: '123456',
    municipality_code: '11001',
    address: 'Calle 10 # 20-30',
    country_code: 'CO',
    phone: '601 555 0101',
    email: 'facturacion@tornillo.example',
  },
  software: { id: '56f2ae4e-9812-4fad-9255-08fcfcd5ccb0', pin: '12345', provider_nit: '900508908', provider_dv: '9' },
  resolution: {
    prefix: 'SETP',
    from: '990000000',
    to: '995000000',
    start_date: '2019-01-19',
    end_date: '2030-01-19',
    technical_key: 'fc8eac422eba16e22ffd8c6f94b3f40a6e38162c2',
  },
  environment: '2',
};

const customer = {
  identification_number: '900108281',
  dv: 3,
  identification_type_code: '31',
  organization_type_code: '1',
  country_code: 'CO',
  municipality_code: '05001',
  regime_type_code: '48',
  tax_code: '01',
  liability_type_code: 'O-13',
  name: 'Ópticas GMO Colombia S.A.S.',
  phone: '(604) 444-1234',
  address: 'Carrera 8 # 20-14',
  email: 'compras@gmo.example',
  merchant_registration: '90518',
};

const line = (n: number) => ({
  unit_measure_code: '94',
  invoiced_quantity: 2,
  line_extension_amount: 200000,
  tax_totals: [{ tax_code: '01', percent: 19, tax_amount: 38000, taxable_amount: 200000 }],
  description: `Producto ${n}`,
  code: `P-${n}`,
  item_identification_type_code: '999',
  price_amount: 100000,
  base_quantity: 1,
});

const totals = (lines: number) => ({
  line_extension_amount: 200000 * lines,
  tax_exclusive_amount: 200000 * lines,
  tax_inclusive_amount: 238000 * lines,
  allowance_total_amount: 0,
  charge_total_amount: 0,
  payable_amount: 238000 * lines,
});

/** A minimal request of `kind` with `lines` lines. */
export function minimalRequest(kind: DianKindId, lines = 1): Record<string, unknown> {
  const ls = Array.from({ length: lines }, (_, i) => line(i + 1));
  const base: Record<string, unknown> = {
    number: 990000001,
    prefix: 'SETP',
    operation_type_code: '10',
    identification_number: 900508908,
    resolution_number: 18760000001,
    date: '2026-11-24',
    time: '10:15:00',
    currency_type_code: 'COP',
    customer,
    payment_forms: [{ payment_form_code: '1', payment_method_code: '10' }],
    tax_totals: [{ tax_code: '01', percent: 19, tax_amount: 38000 * lines, taxable_amount: 200000 * lines }],
  };
  const billing = { number: 'SETP990000001', uuid: 'a'.repeat(96), issue_date: '2026-11-20' };
  switch (kind) {
    case 'invoice':
      return { ...base, document_type_code: '01', legal_monetary_totals: totals(lines), invoice_lines: ls };
    case 'export-invoice':
      return {
        ...base,
        document_type_code: '02',
        payment_exchange_rate: { currency_type_code: 'USD', calculation_rate: 4012.35, date: '2026-11-24' },
        exchange_rate: {},
        legal_monetary_totals: totals(lines),
        invoice_lines: ls.map((l) => ({ ...l, brand_name: 'Marca', model_name: 'Modelo' })),
      };
    case 'contingency-invoice':
      return { ...base, document_type_code: '04', send_dian: false, legal_monetary_totals: totals(lines), invoice_lines: ls };
    case 'support-invoice':
      return {
        ...base,
        prefix: 'DS',
        document_type_code: '05',
        legal_monetary_totals: totals(lines),
        invoice_lines: ls.map((l) => ({
          ...l,
          invoice_period: { start_date: '2026-11-24', form_generation_transmission_code: 1 },
          tax_amount: 38000,
          taxable_amount: 200000,
        })),
      };
    case 'pos':
      return {
        ...base,
        prefix: 'POS',
        document_type_code: '20',
        cash_register: { name: 'CAJA-01', ubication: 'Piso 1', cashier: 'Ana', type: 'Caja principal', sale_reference: 'V-1', subtotal: '200000' },
        customer_benefits: { identification_number: '900108281', name: 'Ópticas GMO', points: '0' },
        software_manufacturer: { software_developer: 'Equipo ecf-kit', registration_name: 'ecf-kit', software_name: 'ecf-kit' },
        legal_monetary_totals: totals(lines),
        invoice_lines: ls,
      };
    case 'credit-note':
      return {
        ...base,
        prefix: 'NC',
        operation_type_code: '20',
        document_type_code: '91',
        billing_reference: billing,
        discrepancy_response: { correction_concept_code: '2' },
        legal_monetary_totals: totals(lines),
        credit_note_lines: ls,
      };
    case 'debit-note':
      return {
        ...base,
        prefix: 'ND',
        operation_type_code: '30',
        document_type_code: '92',
        billing_reference: billing,
        discrepancy_response: { correction_concept_code: '1' },
        requested_monetary_totals: totals(lines),
        debit_note_lines: ls,
      };
    case 'note-support-invoice':
      return {
        ...base,
        prefix: 'NDS',
        document_type_code: '95',
        billing_reference: { ...billing, number: 'DS990000001' },
        discrepancy_response: { correction_concept_code: '1' },
        legal_monetary_totals: totals(lines),
        credit_note_lines: ls,
      };
    case 'credit-note-equivalent':
      return {
        ...base,
        prefix: 'NCQ',
        operation_type_code: '10',
        document_type_code: '94',
        billing_reference: { ...billing, type_document_code: '20' },
        discrepancy_response: { correction_concept_code: '2' },
        legal_monetary_totals: totals(lines),
        credit_note_lines: ls,
      };
  }
}

/**
 * A minimal valid request body per DIAN kind (dian-service.md "Resources and fields"): only required fields,
 * plus what the conditional rules ask for (a `dv` with NIT, a municipality in CO, a signing date for the support
 * document's period rule). Amounts are consistent (one line of 100 000 COP with 19 % IVA). Every call returns a
 * fresh object, so a test may mutate it.
 */
import type { DianKindId } from '../../../src/dian/spec/kinds.js';
import type { DianRequestByKind } from '../../../src/dian/spec/types.gen.js';

export const REQUEST_DATE = '2024-05-10';

const fullCustomer = () => ({
  identification_number: '900108281',
  dv: 3,
  identification_type_code: '31',
  organization_type_code: '1',
  country_code: 'CO',
  municipality_code: '11001',
  regime_type_code: '48',
  tax_code: '01',
  liability_type_code: 'O-13',
  name: 'Comercializadora Andina S.A.S.',
  phone: '+57 (601) 555-0101',
  address: 'Calle 26 # 68-35',
  email: 'facturas@andina.example.co',
  merchant_registration: '0001234567',
});

const lightCustomer = () => ({ identification_number: '222222222222', name: 'Consumidor final', email: 'cliente@example.co' });

const header = (documentType: string, operation = '10') => ({
  number: 990000001,
  prefix: 'SETP',
  operation_type_code: operation,
  document_type_code: documentType,
  identification_number: 900373076,
  resolution_number: 18760000001,
  date: REQUEST_DATE,
  time: '10:15:00',
  currency_type_code: 'COP',
  payment_forms: [{ payment_form_code: '1', payment_method_code: '10' }],
  tax_totals: [{ tax_code: '01', percent: 19, tax_amount: 19000, taxable_amount: 100000 }],
});

const totals = () => ({
  line_extension_amount: 100000,
  tax_exclusive_amount: 100000,
  tax_inclusive_amount: 119000,
  allowance_total_amount: 0,
  charge_total_amount: 0,
  payable_amount: 119000,
});

const line = () => ({
  unit_measure_code: '94',
  invoiced_quantity: 1,
  line_extension_amount: 100000,
  tax_totals: [{ tax_code: '01', percent: 19, tax_amount: 19000, taxable_amount: 100000 }],
  description: 'Servicio de consultoría',
  code: 'SERV-001',
  item_identification_type_code: '999',
  price_amount: 100000,
  base_quantity: 1,
});

const billingReference = () => ({
  number: 'SETP990000000',
  uuid: 'a'.repeat(96),
  issue_date: '2024-05-02',
});

const BUILDERS: { [K in DianKindId]: () => DianRequestByKind[K] } = {
  invoice: () => ({ ...header('01'), customer: fullCustomer(), legal_monetary_totals: totals(), invoice_lines: [line()] }),
  'export-invoice': () => ({
    ...header('02'),
    payment_exchange_rate: { currency_type_code: 'USD', calculation_rate: 3950.5, date: REQUEST_DATE },
    customer: lightCustomer(),
    legal_monetary_totals: totals(),
    invoice_lines: [{ ...line(), brand_name: 'Andina', model_name: 'Consultoría 2024' }],
  }),
  'contingency-invoice': () => ({ ...header('04'), send_dian: false, customer: lightCustomer(), legal_monetary_totals: totals(), invoice_lines: [line()] }),
  'credit-note': () => ({
    ...header('91', '20'),
    customer: fullCustomer(),
    billing_reference: billingReference(),
    discrepancy_response: { correction_concept_code: '2' },
    legal_monetary_totals: totals(),
    credit_note_lines: [line()],
  }),
  'debit-note': () => ({
    ...header('92', '30'),
    customer: lightCustomer(),
    billing_reference: billingReference(),
    requested_monetary_totals: totals(),
    debit_note_lines: [line()],
  }),
  'support-invoice': () => ({
    ...header('05'),
    customer: fullCustomer(),
    legal_monetary_totals: totals(),
    invoice_lines: [
      { ...line(), invoice_period: { start_date: REQUEST_DATE, form_generation_transmission_code: 1 }, tax_amount: 19000, taxable_amount: 100000 },
    ],
  }),
  'note-support-invoice': () => ({
    ...header('95'),
    customer: fullCustomer(),
    billing_reference: billingReference(),
    legal_monetary_totals: totals(),
    credit_note_lines: [line()],
  }),
  pos: () => ({
    ...header('20'),
    customer: lightCustomer(),
    cash_register: {
      name: 'CAJA-01',
      ubication: 'Local 3, Bogotá',
      cashier: 'Ana Pérez',
      type: 'Caja de apoyo',
      sale_reference: 'V-000123',
      subtotal: '100000.00',
    },
    customer_benefits: { identification_number: '0', name: 'Consumidor final', points: '0' },
    software_manufacturer: { software_developer: 'Laura Gómez', registration_name: 'Software Andino S.A.S.', software_name: 'Caja Andina' },
    legal_monetary_totals: totals(),
    invoice_lines: [line()],
  }),
  'credit-note-equivalent': () => ({
    ...header('94', '20'),
    customer: fullCustomer(),
    billing_reference: { ...billingReference(), type_document_code: '20' },
    legal_monetary_totals: totals(),
    credit_note_lines: [line()],
  }),
};

/** A fresh minimal valid request body for `kind`. */
export function minimalDianRequest<K extends DianKindId>(kind: K): DianRequestByKind[K] {
  return BUILDERS[kind]();
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIAN_FIELDS } from '../../../src/dian/spec/fields.js';
import { DIAN_KIND_IDS, type DianKindId } from '../../../src/dian/spec/kinds.js';
import { isCalendarDate, toDianValidationBody, validateDianRequest } from '../../../src/dian/validate/request.js';
import type { Issue } from '../../../src/shared/issues.js';
import { minimalDianRequest, REQUEST_DATE } from '../helpers/requests.js';

type Body = Record<string, any>;

interface Row {
  name: string;
  kind: DianKindId;
  edit: (b: Body) => void;
  /** The issue expected (matched on every given property). */
  expect: Partial<Issue>;
  options?: { today?: string };
}

function run(kind: DianKindId, edit: (b: Body) => void, options: { today?: string } = {}) {
  const body = minimalDianRequest(kind) as Body;
  edit(body);
  return validateDianRequest(kind, body, options);
}

const errors = (issues: Issue[]) => issues.filter((i) => i.severity === 'error');

describe('validateDianRequest: minimal bodies', () => {
  it.each(DIAN_KIND_IDS)('%s: the minimal body passes with no issue and comes back unchanged', (kind) => {
    const body = minimalDianRequest(kind);
    const r = validateDianRequest(kind, body);
    expect(r.issues).toEqual([]);
    expect(r.value).toEqual(body);
  });
});

const generic: Row[] = [
  {
    name: 'integer with decimals',
    kind: 'invoice',
    edit: (b) => (b.number = 1.5),
    expect: { path: 'number', code: 'invalid_type', message: 'debe ser un número entero' },
  },
  { name: 'integer as text', kind: 'invoice', edit: (b) => (b.resolution_number = '187'), expect: { path: 'resolution_number', code: 'invalid_type' } },
  {
    name: 'number as text',
    kind: 'invoice',
    edit: (b) => (b.legal_monetary_totals.payable_amount = '119000'),
    expect: { path: 'legal_monetary_totals.payable_amount', code: 'invalid_type', message: 'debe ser un número' },
  },
  {
    name: 'non-finite number',
    kind: 'invoice',
    edit: (b) => (b.invoice_lines[0].price_amount = Number.POSITIVE_INFINITY),
    expect: { path: 'invoice_lines.0.price_amount', code: 'invalid_type' },
  },
  {
    name: 'boolean as text',
    kind: 'invoice',
    edit: (b) => (b.send = 'true'),
    expect: { path: 'send', code: 'invalid_type', message: 'debe ser verdadero o falso (booleano)' },
  },
  {
    name: 'date not a calendar day',
    kind: 'invoice',
    edit: (b) => (b.date = '2023-02-29'),
    expect: { path: 'date', code: 'date', message: 'debe ser una fecha real con formato YYYY-MM-DD' },
  },
  { name: 'date in another format', kind: 'invoice', edit: (b) => (b.due_date = '10/05/2024'), expect: { path: 'due_date', code: 'date' } },
  {
    name: 'time past 23:59:59',
    kind: 'invoice',
    edit: (b) => (b.time = '24:00:00'),
    expect: { path: 'time', code: 'pattern', message: 'debe ser una hora con formato HH:mm:ss (24 horas)' },
  },
  { name: 'time without seconds', kind: 'invoice', edit: (b) => (b.time = '10:15'), expect: { path: 'time', code: 'pattern' } },
  {
    name: 'object expected',
    kind: 'invoice',
    edit: (b) => (b.customer = 'Ana'),
    expect: { path: 'customer', code: 'invalid_type', message: 'debe ser un objeto' },
  },
  {
    name: 'array expected',
    kind: 'invoice',
    edit: (b) => (b.invoice_lines = {}),
    expect: { path: 'invoice_lines', code: 'invalid_type', message: 'debe ser una lista' },
  },
  {
    name: 'required customer field',
    kind: 'invoice',
    edit: (b) => delete b.customer.email,
    expect: { path: 'customer.email', code: 'required', message: 'es obligatorio' },
  },
  { name: 'required per kind (full customer)', kind: 'invoice', edit: (b) => delete b.customer.phone, expect: { path: 'customer.phone', code: 'required' } },
  {
    name: 'required in a nested array',
    kind: 'invoice',
    edit: (b) => delete b.invoice_lines[0].tax_totals[0].taxable_amount,
    expect: { path: 'invoice_lines.0.tax_totals.0.taxable_amount', code: 'required', message: 'es obligatorio' },
  },
  { name: 'required top-level object', kind: 'pos', edit: (b) => delete b.cash_register, expect: { path: 'cash_register', code: 'required' } },
  { name: 'required lines', kind: 'credit-note', edit: (b) => delete b.credit_note_lines, expect: { path: 'credit_note_lines', code: 'required' } },
  {
    name: 'field of another kind',
    kind: 'invoice',
    edit: (b) => (b.pos_pdf = true),
    expect: { path: 'pos_pdf', code: 'not_allowed', message: 'no se admite en factura electrónica de venta' },
  },
  {
    name: 'line field of another kind',
    kind: 'invoice',
    edit: (b) => (b.invoice_lines[0].brand_name = 'X'),
    expect: { path: 'invoice_lines.0.brand_name', code: 'not_allowed' },
  },
  { name: 'lines array of another root', kind: 'invoice', edit: (b) => (b.credit_note_lines = []), expect: { path: 'credit_note_lines', code: 'not_allowed' } },
  {
    name: 'open object not on the kind',
    kind: 'note-support-invoice',
    edit: (b) => (b.branch_office = { a: 1 }),
    expect: { path: 'branch_office', code: 'not_allowed' },
  },
  {
    name: 'unknown field',
    kind: 'invoice',
    edit: (b) => (b.customer.nickname = 'x'),
    expect: { path: 'customer.nickname', code: 'unknown_field', message: 'campo desconocido' },
  },
  {
    name: 'unknown field named like a prototype key',
    kind: 'invoice',
    edit: (b) => (b.customer = { ...b.customer, constructor: 1 }),
    expect: { path: 'customer.constructor', code: 'unknown_field' },
  },
  {
    name: 'maxLength (vendor_code 50)',
    kind: 'support-invoice',
    edit: (b) => (b.invoice_lines[0].vendor_code = 'V'.repeat(51)),
    expect: { path: 'invoice_lines.0.vendor_code', code: 'max_length', message: 'admite como máximo 50 caracteres' },
  },
  {
    name: 'pattern (phone characters)',
    kind: 'invoice',
    edit: (b) => (b.customer.phone = '300 555 ext. 2'),
    expect: { path: 'customer.phone', code: 'pattern', message: 'formato inválido: solo dígitos, espacios y los símbolos + - _ ( )' },
  },
  {
    name: 'enum (string)',
    kind: 'debit-note',
    edit: (b) => (b.accreditation_operation = 'SS-X'),
    expect: { path: 'accreditation_operation', code: 'enum', message: 'debe ser uno de: SS-CUFE, SS-CUDE, SS-POS' },
  },
  {
    name: 'enum (integer)',
    kind: 'support-invoice',
    edit: (b) => (b.invoice_lines[0].invoice_period.form_generation_transmission_code = 3),
    expect: { path: 'invoice_lines.0.invoice_period.form_generation_transmission_code', code: 'enum' },
  },
  {
    name: 'maxItems',
    kind: 'invoice',
    edit: (b) => (b.delivery = { actual_delivery_date: REQUEST_DATE, actual_delivery_time: '09:00:00', delivery_terms: [{}, {}] }),
    expect: { path: 'delivery.delivery_terms', code: 'too_many', message: 'admite como máximo 1 elemento(s)' },
  },
  {
    name: 'obsolete field: warning naming the replacement',
    kind: 'pos',
    edit: (b) => (b.invoice_lines[0].free_of_charge_indicator = false),
    expect: { path: 'invoice_lines.0.free_of_charge_indicator', code: 'rule', severity: 'warning', ruleId: 'DIAN-SVC-OBSOLETE' },
  },
  {
    name: 'amount with 3 decimals: warning',
    kind: 'invoice',
    edit: (b) => (b.legal_monetary_totals.payable_amount = 119000.005),
    expect: {
      path: 'legal_monetary_totals.payable_amount',
      code: 'decimals',
      severity: 'warning',
      ruleId: 'DIAN-SVC-DECIMALS',
      message: 'tiene más de 2 decimales: el XML lo redondea a 2 decimales (mitad al par)',
    },
  },
  {
    name: "municipality not in DIAN's list (a warning)",
    kind: 'invoice',
    edit: (b) => (b.customer.municipality_code = '99999'),
    expect: { path: 'customer.municipality_code', code: 'enum', ruleId: 'DIAN-SVC-MUNICIPALITY-LIST', severity: 'warning' },
  },
];

const conditional: Row[] = [
  { name: 'dv with NIT', kind: 'invoice', edit: (b) => delete b.customer.dv, expect: { path: 'customer.dv', code: 'required', ruleId: 'DIAN-SVC-DV-NIT' } },
  {
    name: 'municipality in CO',
    kind: 'invoice',
    edit: (b) => delete b.customer.municipality_code,
    expect: { path: 'customer.municipality_code', code: 'required', ruleId: 'DIAN-SVC-MUNICIPALITY-CO', message: 'es obligatorio cuando el país es CO' },
  },
  {
    name: 'credit: payment_due_date',
    kind: 'invoice',
    edit: (b) => (b.payment_forms[0].payment_form_code = '2'),
    expect: { path: 'payment_forms.0.payment_due_date', code: 'required', ruleId: 'DIAN-SVC-CREDIT-TERMS' },
  },
  {
    name: 'credit: duration_measure',
    kind: 'invoice',
    edit: (b) => (b.payment_forms[0] = { payment_form_code: '2', payment_method_code: '10', payment_due_date: '2024-06-09' }),
    expect: { path: 'payment_forms.0.duration_measure', code: 'required', ruleId: 'DIAN-SVC-CREDIT-TERMS' },
  },
  {
    name: 'credit in the obsolete payment_form',
    kind: 'pos',
    edit: (b) => {
      b.payment_form = { payment_form_code: '2', payment_method_code: '10' };
      delete b.payment_forms;
    },
    expect: { path: 'payment_form.payment_due_date', code: 'required', ruleId: 'DIAN-SVC-CREDIT-TERMS' },
  },
  {
    name: 'export invoice in COP',
    kind: 'export-invoice',
    edit: (b) => (b.currency_type_code = 'USD'),
    expect: { path: 'currency_type_code', code: 'rule', ruleId: 'DIAN-SVC-EXPORT-COP', message: 'debe ser COP en la factura de exportación' },
  },
  {
    name: 'export invoice exchange rate',
    kind: 'export-invoice',
    edit: (b) => delete b.payment_exchange_rate,
    expect: { path: 'payment_exchange_rate', code: 'required' },
  },
  {
    name: 'support document, resident: NIT',
    kind: 'support-invoice',
    edit: (b) => (b.customer.identification_type_code = '13'),
    expect: { path: 'customer.identification_type_code', code: 'rule', ruleId: 'DIAN-SVC-DS-RESIDENT' },
  },
  {
    name: 'support document, resident: dv',
    kind: 'support-invoice',
    edit: (b) => {
      b.customer.identification_type_code = '13';
      delete b.customer.dv;
    },
    expect: { path: 'customer.dv', code: 'required', ruleId: 'DIAN-SVC-DS-RESIDENT' },
  },
  {
    name: 'support line period, form 1, other day than the request date',
    kind: 'support-invoice',
    edit: (b) => (b.invoice_lines[0].invoice_period.start_date = '2024-05-09'),
    expect: { path: 'invoice_lines.0.invoice_period.start_date', code: 'rule', ruleId: 'DIAN-SVC-DS-PERIOD-DATE' },
  },
  {
    name: 'support line period, form 1, no date: compared with today',
    kind: 'support-invoice',
    edit: (b) => delete b.date,
    options: { today: '2024-05-11' },
    expect: {
      path: 'invoice_lines.0.invoice_period.start_date',
      ruleId: 'DIAN-SVC-DS-PERIOD-DATE',
      message: 'debe ser igual a la fecha de firma (2024-05-11) cuando la forma de generación es 1 (por operación)',
    },
  },
  {
    name: 'support line period, form 2, 5 days before signing',
    kind: 'support-invoice',
    edit: (b) => (b.invoice_lines[0].invoice_period = { start_date: '2024-05-05', form_generation_transmission_code: 2 }),
    expect: { path: 'invoice_lines.0.invoice_period.start_date', code: 'rule', ruleId: 'DIAN-SVC-DS-PERIOD-DATE' },
  },
  {
    name: 'support line period, form 2, after signing',
    kind: 'support-invoice',
    edit: (b) => (b.invoice_lines[0].invoice_period = { start_date: '2024-05-12', form_generation_transmission_code: 2 }),
    expect: { path: 'invoice_lines.0.invoice_period.start_date', ruleId: 'DIAN-SVC-DS-PERIOD-DATE' },
  },
  {
    name: 'sector identification with operation 11',
    kind: 'invoice',
    edit: (b) => (b.operation_type_code = '11'),
    expect: { path: 'invoice_lines.0.item_sector_identification_type_code', code: 'required', ruleId: 'DIAN-SVC-SECTOR-ID' },
  },
  {
    name: 'sector identification with operation 12 (credit-note lines)',
    kind: 'credit-note',
    edit: (b) => (b.operation_type_code = '12'),
    expect: { path: 'credit_note_lines.0.item_sector_identification_type_code', ruleId: 'DIAN-SVC-SECTOR-ID' },
  },
  {
    name: 'per-unit tax base without its unit (document level)',
    kind: 'invoice',
    edit: (b) => (b.tax_totals[0].base_unit_measure = 1),
    expect: { path: 'tax_totals.0.unit_measure_code', code: 'required', ruleId: 'DIAN-SVC-PER-UNIT-UNIT' },
  },
  {
    name: 'per-unit tax base without its unit (line level)',
    kind: 'debit-note',
    edit: (b) => (b.debit_note_lines[0].tax_totals[0].base_unit_measure = 250),
    expect: { path: 'debit_note_lines.0.tax_totals.0.unit_measure_code', ruleId: 'DIAN-SVC-PER-UNIT-UNIT' },
  },
  {
    name: 'accreditation with SS-Recaudo',
    kind: 'debit-note',
    edit: (b) => (b.operation_type_code = 'SS-Recaudo'),
    expect: { path: 'accreditation_operation', code: 'required', ruleId: 'DIAN-SVC-ACCREDITATION' },
  },
  {
    name: 'reference amount without concept',
    kind: 'support-invoice',
    edit: (b) => (b.invoice_document_references = [{ number: 'F1', uuid: 'u', issue_date: '2024-05-01', amount: 5000 }]),
    expect: { path: 'invoice_document_references.0.concept', code: 'required', ruleId: 'DIAN-SVC-REF-AMOUNT-CONCEPT' },
  },
  {
    name: 'reference concept without amount',
    kind: 'pos',
    edit: (b) => (b.credit_note_document_references = [{ number: 'N1', uuid: 'u', issue_date: '2024-05-01', concept: 'copago' }]),
    expect: { path: 'credit_note_document_references.0.amount', code: 'required', ruleId: 'DIAN-SVC-REF-AMOUNT-CONCEPT' },
  },
  {
    name: "document type not one of the kind's",
    kind: 'invoice',
    edit: (b) => (b.document_type_code = '02'),
    expect: { path: 'document_type_code', code: 'enum', ruleId: 'DIAN-SVC-DOCUMENT-TYPE', message: 'debe ser uno de: 01 (factura electrónica de venta)' },
  },
  {
    name: 'contingency 03 without additional references',
    kind: 'contingency-invoice',
    edit: (b) => (b.document_type_code = '03'),
    expect: { path: 'additional_document_references', code: 'required', ruleId: 'DIAN-SVC-CONTINGENCY-03' },
  },
  {
    name: 'payment_form and payment_forms together',
    kind: 'pos',
    edit: (b) => (b.payment_form = { payment_form_code: '1', payment_method_code: '10' }),
    expect: { path: 'payment_form', code: 'rule', ruleId: 'DIAN-SVC-PAYMENT-FORM' },
  },
  {
    name: 'payment_form on a kind without it',
    kind: 'invoice',
    edit: (b) => (b.payment_form = { payment_form_code: '1', payment_method_code: '10' }),
    expect: { path: 'payment_form', code: 'not_allowed' },
  },
];

describe('validateDianRequest: generic checks', () => {
  it.each(generic.map((r) => [r.name, r] as const))('%s', (_, row) => {
    const r = run(row.kind, row.edit, row.options);
    expect(r.issues).toContainEqual(expect.objectContaining(row.expect));
    if (row.expect.severity === 'warning') {
      expect(errors(r.issues)).toEqual([]);
      expect(r.value).toBeDefined();
    } else expect(r.value).toBeUndefined();
  });
});

describe('validateDianRequest: conditional rules', () => {
  it.each(conditional.map((r) => [r.name, r] as const))('%s', (_, row) => {
    const r = run(row.kind, row.edit, row.options);
    expect(r.issues).toContainEqual(expect.objectContaining({ severity: 'error', ...row.expect }));
    expect(r.value).toBeUndefined();
  });

  const passing: Array<[string, DianKindId, (b: Body) => void, { today?: string }?]> = [
    [
      'no dv with another identification type',
      'invoice',
      (b) => {
        b.customer.identification_type_code = '13';
        delete b.customer.dv;
      },
    ],
    [
      'no municipality outside CO',
      'invoice',
      (b) => {
        b.customer.country_code = 'US';
        delete b.customer.municipality_code;
      },
    ],
    ['light customer: only id, name and e-mail', 'pos', (b) => (b.customer = { identification_number: '1', name: 'A', email: 'a@b.co' })],
    [
      'credit with its terms',
      'invoice',
      (b) => (b.payment_forms[0] = { payment_form_code: '2', payment_method_code: '10', payment_due_date: '2024-06-09', duration_measure: 30 }),
    ],
    [
      'support period form 2, exactly 6 days before',
      'support-invoice',
      (b) => (b.invoice_lines[0].invoice_period = { start_date: '2024-05-04', form_generation_transmission_code: 2 }),
    ],
    [
      'support period form 2, a month before',
      'support-invoice',
      (b) => (b.invoice_lines[0].invoice_period = { start_date: '2024-04-10', form_generation_transmission_code: 2 }),
    ],
    ['support period form 1 on today without a date', 'support-invoice', (b) => delete b.date, { today: REQUEST_DATE }],
    [
      'support period without any signing date: not judged',
      'support-invoice',
      (b) => {
        b.invoice_lines[0].invoice_period.start_date = '2020-01-01';
        delete b.date;
      },
    ],
    [
      'support operation 11 with the sector code',
      'support-invoice',
      (b) => {
        b.operation_type_code = '11';
        b.invoice_lines[0].item_sector_identification_type_code = 1;
      },
    ],
    [
      'accreditation given',
      'credit-note-equivalent',
      (b) => {
        b.operation_type_code = 'SS-Recaudo';
        b.accreditation_operation = 'SS-POS';
      },
    ],
    [
      'reference with amount and concept',
      'support-invoice',
      (b) => (b.invoice_document_references = [{ number: 'F', uuid: 'u', issue_date: '2024-05-01', amount: 1, concept: 'copago' }]),
    ],
    [
      'contingency 03 with the talonario reference',
      'contingency-invoice',
      (b) => {
        b.document_type_code = '03';
        b.additional_document_references = [{ number: 'T-1', issue_date: '2024-05-09' }];
      },
    ],
    ['open object takes any property', 'invoice', (b) => (b.branch_office = { name: 'Sede norte', anything: [1, { a: 2 }] })],
  ];
  it.each(passing)('passes: %s', (_, kind, edit, options) => {
    const r = run(kind, edit, options ?? {});
    expect(errors(r.issues)).toEqual([]);
    expect(r.value).toBeDefined();
  });

  it('NIT without dv on a resident support document is reported once', () => {
    const r = run('support-invoice', (b) => delete b.customer.dv);
    expect(r.issues.filter((i) => i.path === 'customer.dv')).toEqual([expect.objectContaining({ ruleId: 'DIAN-SVC-DV-NIT' })]);
  });

  it('the obsolete payment_form becomes the only payment_forms entry, with a warning', () => {
    const form = { payment_form_code: '1', payment_method_code: '10' };
    const r = run('debit-note', (b) => {
      delete b.payment_forms;
      b.payment_form = form;
    });
    expect(errors(r.issues)).toEqual([]);
    expect(r.issues).toEqual([expect.objectContaining({ path: 'payment_form', severity: 'warning', ruleId: 'DIAN-SVC-OBSOLETE' })]);
    expect(r.value).toMatchObject({ payment_forms: [form] });
    expect(r.value).not.toHaveProperty('payment_form');
  });

  it('issues are collected, not first-fail', () => {
    const r = run('invoice', (b) => {
      b.number = 'x';
      delete b.customer.email;
      b.customer.phone = 'abc';
      b.invoice_lines[0].price_amount = '1';
    });
    expect(errors(r.issues).map((i) => i.path)).toEqual(['number', 'customer.phone', 'customer.email', 'invoice_lines.0.price_amount']);
  });
});

describe('validateDianRequest: hostile input', () => {
  const hostile: unknown[] = [null, undefined, 0, 'x', true, [], [1, 2], () => 1, Symbol('s'), new Date(0), Object.create(null)];
  it.each(hostile.map((h) => [String(typeof h), h] as const))('body %s does not throw', (_, h) => {
    for (const kind of DIAN_KIND_IDS) {
      const r = validateDianRequest(kind, h);
      expect(errors(r.issues).length).toBeGreaterThan(0);
      expect(r.value).toBeUndefined();
    }
  });

  it('every field set to each wrong type: issues, never a throw', () => {
    const wrong: unknown[] = [null, [], {}, 'x', 1.5, true, Number.NaN, [[null]], { __proto__: null }];
    for (const kind of DIAN_KIND_IDS) {
      for (const f of DIAN_FIELDS) {
        for (const w of wrong) {
          const body = minimalDianRequest(kind) as Body;
          body[f.key] = w;
          const r = validateDianRequest(kind, body);
          expect(Array.isArray(r.issues)).toBe(true);
        }
      }
    }
  });

  it('prototype keys are plain unknown fields and pollute nothing', () => {
    const body = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}, "customer": {"__proto__": 1}}');
    const r = validateDianRequest('invoice', body);
    expect(r.issues).toContainEqual(expect.objectContaining({ path: '__proto__', code: 'unknown_field' }));
    expect(r.issues).toContainEqual(expect.objectContaining({ path: 'constructor', code: 'unknown_field' }));
    expect(r.issues).toContainEqual(expect.objectContaining({ path: 'customer.__proto__', code: 'unknown_field' }));
    expect(({} as Body).polluted).toBeUndefined();
  });

  it('an unknown kind is an issue, not a throw', () => {
    const r = validateDianRequest('nope' as DianKindId, {});
    expect(r.issues).toEqual([expect.objectContaining({ code: 'enum', path: '' })]);
  });

  it('arbitrary JSON values never throw', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DIAN_KIND_IDS), fc.jsonValue(), (kind, v) => {
        const r = validateDianRequest(kind, v);
        return Array.isArray(r.issues);
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary values inside a valid body never throw', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DIAN_KIND_IDS),
        fc.constantFrom('customer', 'invoice_lines', 'payment_forms', 'payment_form', 'date'),
        fc.anything(),
        (kind, key, v) => {
          const body = minimalDianRequest(kind) as Body;
          body[key] = v;
          return Array.isArray(validateDianRequest(kind, body).issues);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('isCalendarDate', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['1900-02-29', false],
    ['2000-02-29', true],
    ['2024-04-31', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-5-10', false],
  ])('%s → %s', (text, ok) => expect(isCalendarDate(text)).toBe(ok));
});

describe('toDianValidationBody', () => {
  it('is the 422 body of the service: statusCode 13, errors and detailedErrors, no warnings', () => {
    const r = run('invoice', (b) => {
      delete b.customer.email;
      b.customer.phone = 'abc';
      b.legal_monetary_totals.payable_amount = 1.005;
    });
    const body = toDianValidationBody('SETP990000001', r.issues);
    expect(body).toEqual({
      status: 'error',
      message: 'El documento no superó las validaciones del servicio',
      document: {
        number: 'SETP990000001',
        statusCode: 13,
        statusDescription: 'Documento con errores en las validaciones del servicio',
        errors: ['customer.phone: formato inválido: solo dígitos, espacios y los símbolos + - _ ( )', 'customer.email: es obligatorio'],
        detailedErrors: {
          'customer.phone': ['formato inválido: solo dígitos, espacios y los símbolos + - _ ( )'],
          'customer.email': ['es obligatorio'],
        },
      },
    });
  });

  it('keeps a `__proto__` path as an own key', () => {
    const body = toDianValidationBody('1', validateDianRequest('invoice', JSON.parse('{"__proto__": 1}')).issues);
    expect(Object.hasOwn(body.document.detailedErrors, '__proto__')).toBe(true);
  });
});

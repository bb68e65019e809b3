/**
 * The payroll examples of examples/dian/ (written by scripts/dian/examples.ts): a minimal and a maximal individual
 * payroll (102) and the two adjustment notes (103: replace, delete), all fictitious. The maximal request fills every
 * key the payroll description (src/dian/payroll/plan.ts over the XSD tree) lets a request carry, so it grows with
 * the description; its totals are computed here (the sums the validator checks), so they are consistent by
 * construction.
 */
import { createHash } from 'node:crypto';
import { bodyNode, entriesOf, textScalar, VALUE_KEY, type PayrollEntry, type PayrollScalar } from '../../src/dian/payroll/plan.js';
import { sumMoney } from '../../src/dian/payroll/validate.js';
import { sub, toNumber } from '../../src/shared/money/decimal.js';

type Json = Record<string, unknown>;

const fictitiousCune = (label: string) => createHash('sha384').update(`ecf-kit example: ${label}`).digest('hex');

const employer = {
  name: 'Ferretería Ejemplo Andina S.A.S.',
  nit: '901458732',
  dv: '8',
  country_code: 'CO',
  department_code: '11',
  municipality_code: '11001',
  address: 'Carrera 13 # 45-20, Local 2',
};
const place = { country_code: 'CO', department_code: '11', municipality_code: '11001', language_code: 'es' };

/** The smallest valid 102: a month's basic salary and transport aid, health and pension. */
export const payrollMin: Json = {
  period: { hire_date: '2024-02-01', settlement_start_date: '2026-03-01', settlement_end_date: '2026-03-31', time_worked: '790' },
  sequence: { prefix: 'NOM', consecutive: '1' },
  place,
  general: { generation_date: '2026-04-01', generation_time: '08:30:00', payroll_period_code: '5', currency_code: 'COP' },
  employer,
  employee: {
    worker_type_code: '01',
    worker_subtype_code: '00',
    high_risk_pension: false,
    identification_type_code: '13',
    identification_number: '1020304050',
    first_surname: 'Rodríguez',
    second_surname: 'Gómez',
    first_name: 'Andrea',
    work_country_code: 'CO',
    work_department_code: '11',
    work_municipality_code: '11001',
    work_address: 'Carrera 13 # 45-20, Local 2',
    integral_salary: false,
    contract_type_code: '2',
    salary: 1750905,
  },
  payment: { payment_form_code: '1', payment_method_code: '42' },
  payment_dates: ['2026-03-31'],
  earnings: { basic: { days_worked: 30, salary_worked: 1750905 }, transport: [{ transport_aid: 249095 }] },
  deductions: { health: { percentage: 4, deduction: 70036.2 }, pension_fund: { percentage: 4, deduction: 70036.2 } },
  earnings_total: 2000000,
  deductions_total: 140072.4,
  voucher_total: 1859927.6,
};

/** Values for keys whose form a generic filler would get wrong (codes from DIAN's tables, names, dates in range). */
const KNOWN: Record<string, unknown> = {
  ...(payrollMin.employee as Json),
  other_names: 'María',
  worker_code: 'EMP-0042',
  termination_date: '2026-03-31',
  percentage: 4,
  subsistence_percentage: 0.5,
  quantity: 2,
  days_worked: 30,
  type_code: '1',
  bank: 'Banco de Ejemplo',
  account_type: 'Ahorros',
  account_number: '000123456789',
  exchange_rate: 1,
  description: 'Concepto de ejemplo',
  start_date: '2026-03-10',
  end_date: '2026-03-11',
  start_time: '2026-03-10T18:00:00',
  end_time: '2026-03-10T20:00:00',
  value: false,
  cune: fictitiousCune('novelty'),
};

let counter = 0;
function fill(s: PayrollScalar, key: string): unknown {
  if (Object.hasOwn(KNOWN, key)) return KNOWN[key];
  switch (s.type) {
    case 'number':
      counter += 1;
      return s.decimals === 'money' ? 10000 + counter * 1250 : counter;
    case 'integer':
      return 1;
    case 'code':
      return '1';
    case 'boolean':
      return false;
    case 'date':
      return '2026-03-15';
    case 'time':
      return '08:30:00';
    case 'dateTime':
      return '2026-03-15T08:00:00';
    default:
      return `Texto de ejemplo (${key})`;
  }
}

/** Every request key of an element's object, filled (the minimal example's blocks kept where it has them). */
function fillObject(entries: readonly PayrollEntry[], base: Json): Json {
  const out: Json = {};
  for (const e of entries) {
    if (e.derived) continue;
    if (Object.hasOwn(base, e.key) && !e.child) {
      out[e.key] = base[e.key];
      continue;
    }
    if (e.attr) {
      out[e.key] = fill(e.attr.scalar, e.key);
      continue;
    }
    const ch = e.child!;
    const node = ch.item ?? ch.node;
    const one = (): unknown =>
      ch.form === 'scalar'
        ? fill(textScalar(node), e.key)
        : {
            ...(ch.form === 'valued' ? { [VALUE_KEY]: fill(textScalar(node), VALUE_KEY) } : {}),
            ...fillObject(entriesOf(node), Object.hasOwn(base, e.key) && !ch.list ? (base[e.key] as Json) : {}),
          };
    out[e.key] = ch.list ? [one()] : one();
  }
  return out;
}

/** The maximal 102: every key the description allows, totals computed. */
export function payrollMax(): Json {
  counter = 0;
  const body = bodyNode('payroll')!;
  const max = fillObject(entriesOf(body), { ...payrollMin, earnings_total: 0, deductions_total: 0, voucher_total: 0, rounding: 0 });
  max.sequence = { worker_code: 'EMP-0042', prefix: 'NOM', consecutive: '2' };
  max.payment_dates = ['2026-03-15', '2026-03-31'];
  max.notes = ['Nómina de marzo de 2026.', 'Incluye horas extra y recargos del período.'];
  max.general = { ...(payrollMin.general as Json), exchange_rate: 1 };
  max.employer = { ...employer, first_surname: 'Pérez', second_surname: 'Ruiz', first_name: 'Carlos', other_names: 'Alberto' };
  max.provider = {
    name: 'Soluciones de Software Ejemplo S.A.S.',
    first_surname: 'Mejía',
    second_surname: 'Torres',
    first_name: 'Julián',
    other_names: 'David',
  };
  const earnings = sumMoney(entriesOf(body.children.find((c) => c.name === 'Devengados')!), max.earnings);
  const deductions = sumMoney(entriesOf(body.children.find((c) => c.name === 'Deducciones')!), max.deductions);
  max.rounding = 0;
  max.earnings_total = toNumber(earnings);
  max.deductions_total = toNumber(deductions);
  max.voucher_total = toNumber(sub(earnings, deductions));
  return max;
}

/** 103 replacing the minimal example: the same month with the transport aid corrected. */
export const payrollAdjustmentReplace: Json = {
  note_type: '1',
  predecessor: { number: 'NOM1', cune: fictitiousCune('payroll NOM1'), generation_date: '2026-04-01' },
  ...payrollMin,
  sequence: { prefix: 'NA', consecutive: '1' },
  general: { generation_date: '2026-04-03', generation_time: '10:15:00', payroll_period_code: '5', currency_code: 'COP' },
  notes: ['Corrige el auxilio de transporte de marzo de 2026.'],
  earnings: { basic: { days_worked: 30, salary_worked: 1750905 }, transport: [{ transport_aid: 200000 }] },
  earnings_total: 1950905,
  voucher_total: 1810832.6,
};

/** 103 deleting the minimal example. */
export const payrollAdjustmentDelete: Json = {
  note_type: '2',
  predecessor: { number: 'NOM1', cune: fictitiousCune('payroll NOM1'), generation_date: '2026-04-01' },
  sequence: { prefix: 'NA', consecutive: '2' },
  place,
  general: { generation_date: '2026-04-03', generation_time: '11:00:00' },
  notes: ['Documento emitido por error: la trabajadora no tuvo pagos en el período.'],
  employer,
};

/** The payroll files of examples/dian/, by name. */
export function payrollExamples(): Record<string, Json> {
  return {
    'payroll-min.json': payrollMin,
    'payroll-max.json': payrollMax(),
    'payroll-adjustment-replace.json': payrollAdjustmentReplace,
    'payroll-adjustment-delete.json': payrollAdjustmentDelete,
  };
}

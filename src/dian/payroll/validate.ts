/**
 * Validation of a payroll request (102) or adjustment note request (103): the generic checks driven by the
 * payroll description (src/dian/payroll/plan.ts over the generated XSD tree: required keys, unknown keys, types,
 * dates, codes) and the payroll rules of PAYROLL_RULES (totals within DIAN's ±2.00 tolerance, period dates,
 * exchange rate). Every problem is collected (never first-fail), with the request path and a Spanish message;
 * never throws, whatever the input. Pure.
 */
import type { Issue, IssueCode } from '../../shared/issues.js';
import { abs, add, cmp, decimalsOf, numberText, parseDec, roundHalfEven, sub, toFixed, ZERO, type Dec } from '../../shared/money/decimal.js';
import { isCalendarDate } from '../validate/request.js';
import { bodyNode, entriesOf, rootEntries, textScalar, VALUE_KEY, type PayrollEntry, type PayrollScalar } from './plan.js';
import { PAYROLL_KINDS, PAYROLL_NOTE_TYPES, PAYROLL_TOLERANCE, type PayrollKindId, type PayrollRuleId } from './table.js';

/** A payroll request body (the shape PAYROLL_XSD and the key tables describe; see docs/dian-payroll-fields.md). */
export type PayrollRequest = Record<string, unknown>;

/** The outcome of {@link validateDianPayroll}. */
export interface PayrollValidationResult {
  /** Every problem found: errors (refused) and warnings (accepted). */
  issues: Issue[];
  /** The request, when there is no error. */
  value?: PayrollRequest;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Obj, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
const join = (path: string, key: string | number): string => (path === '' ? String(key) : `${path}.${key}`);

const TYPE_TEXT: Record<PayrollScalar['type'], string> = {
  string: 'un texto',
  code: 'un código de dígitos, como texto ("13")',
  integer: 'un número entero no negativo',
  number: 'un número',
  boolean: 'verdadero o falso (booleano)',
  date: 'una fecha con formato YYYY-MM-DD',
  time: 'una hora con formato HH:mm:ss (24 horas)',
  dateTime: 'una fecha y hora con formato YYYY-MM-DDTHH:mm:ss',
};
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const TOLERANCE = parseDec(PAYROLL_TOLERANCE)!;

class Collector {
  readonly issues: Issue[] = [];
  add(code: IssueCode, path: string, message: string, severity: Issue['severity'] = 'error', ruleId?: PayrollRuleId, params?: Record<string, unknown>): void {
    const issue: Issue = { code, path, message, severity };
    if (ruleId) issue.ruleId = ruleId;
    if (params) issue.params = params;
    this.issues.push(issue);
  }
}

/**
 * Validates a payroll request of `kind` (`payroll` 102, `payroll-adjustment` 103).
 *
 * @example
 * const r = validateDianPayroll('payroll', request);
 * r.issues.filter((i) => i.severity === 'error') //=> [{ code: 'required', path: 'employee.salary', message: 'es obligatorio', … }]
 */
export function validateDianPayroll(kind: PayrollKindId, request: unknown): PayrollValidationResult {
  const c = new Collector();
  if (!Object.hasOwn(PAYROLL_KINDS, kind)) {
    c.add('enum', '', `Tipo de documento de nómina desconocido: "${String(kind)}" (payroll o payroll-adjustment).`);
    return { issues: c.issues };
  }
  if (!isObj(request)) {
    c.add('invalid_type', '', 'El cuerpo de la solicitud debe ser un objeto JSON.');
    return { issues: c.issues };
  }
  let body = bodyNode(kind);
  let zeroTotals = false;
  const extra = rootEntries(kind);
  if (kind === 'payroll-adjustment') {
    const noteType = own(request, 'note_type');
    if (noteType === '1' || noteType === '2') {
      body = bodyNode(kind, noteType);
      zeroTotals = PAYROLL_NOTE_TYPES[noteType].zeroTotals;
    } else {
      const message =
        noteType === undefined
          ? 'es obligatorio (1 reemplazar, 2 eliminar)'
          : `debe ser "1" (reemplazar) o "2" (eliminar); se recibió ${JSON.stringify(noteType)}`;
      c.add(noteType === undefined ? 'required' : 'enum', 'note_type', message, 'error', 'DIAN-NOM-NOTE-TYPE');
      return { issues: c.issues };
    }
  }
  walkObject(c, [...extra, ...entriesOf(body!)], request, '', PAYROLL_KINDS[kind].name);
  if (!zeroTotals) totalsRules(c, request);
  periodRule(c, request);
  exchangeRateRule(c, request);
  return c.issues.some((i) => i.severity === 'error') ? { issues: c.issues } : { issues: c.issues, value: request };
}

function walkObject(c: Collector, entries: readonly PayrollEntry[], value: Obj, path: string, where: string, valued?: PayrollScalar): void {
  const known = new Map(entries.map((e) => [e.key, e]));
  for (const key of Object.keys(value)) {
    const e = known.get(key);
    if (valued && key === VALUE_KEY) continue;
    if (!e) c.add('unknown_field', join(path, key), 'campo desconocido', 'error', undefined, { field: key });
    else if (e.derived) c.add('not_allowed', join(path, key), `no se envía: lo escribe el servicio en ${where}`, 'error', undefined, { field: key });
  }
  if (valued) {
    const v = own(value, VALUE_KEY);
    if (v === undefined) c.add('required', join(path, VALUE_KEY), 'es obligatorio');
    else checkScalar(c, valued, v, join(path, VALUE_KEY));
  }
  for (const e of entries) {
    if (e.derived) continue;
    const v = own(value, e.key);
    const p = join(path, e.key);
    if (v === undefined || v === null) {
      if (e.required) c.add('required', p, 'es obligatorio');
      continue;
    }
    if (e.attr) {
      checkScalar(c, e.attr.scalar, v, p);
      continue;
    }
    const ch = e.child!;
    const node = ch.item ?? ch.node;
    if (ch.list) {
      if (!Array.isArray(v)) {
        c.add('invalid_type', p, 'debe ser una lista');
        continue;
      }
      if (v.length === 0 && (e.required || (ch.item !== undefined && ch.item.min > 0))) c.add('too_few', p, 'debe tener al menos un elemento');
      for (let i = 0; i < v.length; i++) checkElement(c, node, ch.form, v[i], join(p, i), where);
    } else checkElement(c, node, ch.form, v, p, where);
  }
}

function checkElement(c: Collector, node: Parameters<typeof entriesOf>[0], form: string, v: unknown, path: string, where: string): void {
  if (form === 'scalar') {
    checkScalar(c, textScalar(node), v, path);
    return;
  }
  if (!isObj(v)) {
    c.add('invalid_type', path, 'debe ser un objeto');
    return;
  }
  walkObject(c, entriesOf(node), v, path, where, form === 'valued' ? textScalar(node) : undefined);
}

function checkScalar(c: Collector, s: PayrollScalar, v: unknown, path: string): void {
  const wrong = () => c.add('invalid_type', path, `debe ser ${TYPE_TEXT[s.type]}`, 'error', undefined, { expected: s.type });
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') wrong();
      else if (v.trim() === '') c.add('required', path, 'no puede estar vacío');
      return;
    case 'code':
      if (typeof v !== 'string' || !/^\d{1,20}$/.test(v)) wrong();
      return;
    case 'integer':
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) wrong();
      return;
    case 'boolean':
      if (typeof v !== 'boolean') wrong();
      return;
    case 'date':
      if (typeof v !== 'string' || !isCalendarDate(v)) wrong();
      return;
    case 'time':
      if (typeof v !== 'string' || !TIME_RE.test(v)) wrong();
      return;
    case 'dateTime': {
      const m = typeof v === 'string' ? DATE_TIME_RE.exec(v) : null;
      if (!m || !isCalendarDate(m[1]!)) wrong();
      return;
    }
    case 'number': {
      const text = typeof v === 'number' ? numberText(v) : null;
      if (text === null || parseDec(text) === null) {
        wrong();
        return;
      }
      if ((v as number) < 0 && s.xsdName !== 'Redondeo') c.add('range', path, 'no puede ser negativo', 'error', 'DIAN-NOM-NEGATIVE');
      if (s.decimals === 'money' && decimalsOf(text) > 2) {
        c.add('decimals', path, 'tiene más de 2 decimales; se escribirá redondeado (mitad al par) a 2', 'warning', 'DIAN-NOM-DECIMALS');
      }
    }
  }
}

/** A JSON number as written in the XML (money: half-to-even, 2 decimals), or null when it is not a number. */
function writtenMoney(v: unknown): Dec | null {
  if (typeof v !== 'number') return null;
  const text = numberText(v);
  const d = text === null ? null : parseDec(text);
  return d === null ? null : roundHalfEven(d, 2);
}

/** The sum of every money value below `value` (an object of `entries`), as written. */
export function sumMoney(entries: readonly PayrollEntry[], value: unknown): Dec {
  if (!isObj(value)) return ZERO;
  let total = ZERO;
  for (const e of entries) {
    const v = own(value, e.key);
    if (v === undefined || v === null) continue;
    if (e.attr) {
      if (e.attr.scalar.decimals === 'money') total = add(total, writtenMoney(v) ?? ZERO);
      continue;
    }
    const ch = e.child!;
    const node = ch.item ?? ch.node;
    const items = ch.list ? (Array.isArray(v) ? v : []) : [v];
    for (const item of items) {
      if (ch.form === 'scalar') {
        if (textScalar(node).decimals === 'money') total = add(total, writtenMoney(item) ?? ZERO);
      } else total = add(total, sumMoney(entriesOf(node), item));
    }
  }
  return total;
}

function totalsRules(c: Collector, request: Obj): void {
  const body = bodyNode('payroll')!;
  const entry = (key: string) => entriesOf(body).find((e) => e.key === key)!;
  const earnings = own(request, 'earnings');
  const deductions = own(request, 'deductions');
  const earningsTotal = writtenMoney(own(request, 'earnings_total'));
  const deductionsTotal = writtenMoney(own(request, 'deductions_total'));
  const voucherTotal = writtenMoney(own(request, 'voucher_total'));
  if (earningsTotal !== null && isObj(earnings)) {
    const sum = sumMoney(entriesOf(entry('earnings').child!.node), earnings);
    tolerance(c, 'earnings_total', earningsTotal, sum, 'la suma de los devengados', 'DIAN-NOM-EARNINGS-TOTAL');
  }
  if (deductionsTotal !== null && isObj(deductions)) {
    const sum = sumMoney(entriesOf(entry('deductions').child!.node), deductions);
    tolerance(c, 'deductions_total', deductionsTotal, sum, 'la suma de las deducciones', 'DIAN-NOM-DEDUCTIONS-TOTAL');
  }
  if (voucherTotal !== null && earningsTotal !== null && deductionsTotal !== null) {
    tolerance(c, 'voucher_total', voucherTotal, sub(earningsTotal, deductionsTotal), 'devengados menos deducciones', 'DIAN-NOM-VOUCHER-TOTAL');
  }
}

/** Equal: nothing; within ±2.00: a warning; beyond: an error (DIAN's tolerance on monetary checks). */
function tolerance(c: Collector, path: string, declared: Dec, computed: Dec, what: string, ruleId: PayrollRuleId): void {
  const diff = abs(sub(declared, computed));
  if (cmp(diff, ZERO) === 0) return;
  const within = cmp(diff, TOLERANCE) <= 0;
  const message = within
    ? `difiere de ${what} (${toFixed(computed)}) en ${toFixed(diff)}, dentro de la tolerancia de ±${PAYROLL_TOLERANCE} de la DIAN`
    : `debe ser ${what} (${toFixed(computed)}) con una tolerancia de ±${PAYROLL_TOLERANCE}; difiere en ${toFixed(diff)}`;
  c.add('totals', path, message, within ? 'warning' : 'error', ruleId, { expected: toFixed(computed), difference: toFixed(diff) });
}

function periodRule(c: Collector, request: Obj): void {
  const period = own(request, 'period');
  if (!isObj(period)) return;
  const start = own(period, 'settlement_start_date');
  const end = own(period, 'settlement_end_date');
  const hire = own(period, 'hire_date');
  const valid = (d: unknown): d is string => typeof d === 'string' && isCalendarDate(d);
  if (valid(start) && valid(end) && start > end) {
    c.add('rule', 'period.settlement_start_date', 'no puede ser posterior a period.settlement_end_date', 'error', 'DIAN-NOM-PERIOD');
  }
  if (valid(hire) && valid(end) && hire > end)
    c.add('rule', 'period.hire_date', 'no puede ser posterior a period.settlement_end_date', 'error', 'DIAN-NOM-PERIOD');
}

function exchangeRateRule(c: Collector, request: Obj): void {
  const general = own(request, 'general');
  if (!isObj(general)) return;
  const currency = own(general, 'currency_code');
  if (typeof currency === 'string' && currency !== 'COP' && own(general, 'exchange_rate') === undefined) {
    c.add(
      'required',
      'general.exchange_rate',
      `es obligatorio cuando la moneda (general.currency_code) es ${currency}, no COP`,
      'error',
      'DIAN-NOM-EXCHANGE-RATE',
    );
  }
}

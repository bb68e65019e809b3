/**
 * The DIAN service's own validation of a document request body (dian-service.md "Resources and fields",
 * "Limits", "422 from the service's own validations"). Two layers, both collected (never first-fail) and never
 * throwing, whatever the input:
 *
 * 1. Generic checks driven by {@link DIAN_FIELDS}: types, required per kind, fields not available on the kind
 *    (`not_allowed`), unknown fields, maxLength, pattern, enum, maxItems, obsolete fields (warning) and amounts
 *    with more than two decimals (warning: the XML rounds them half-to-even).
 * 2. The conditional rules of the spec, each with a stable `ruleId` (`DIAN-SVC-…`), listed in {@link DIAN_REQUEST_RULES}.
 *
 * Pure: the date rules take "today" (Bogotá, `yyyy-MM-dd`) as an option, never from a clock.
 */
import type { Issue, IssueCode } from '../../shared/issues.js';
import { toIssueReport } from '../../shared/issues.js';
import { decimalsOf, numberText } from '../../shared/money/decimal.js';
import { MUNICIPALITIES } from '../spec/places.gen.js';
import { DIAN_FIELDS, type FieldDef, fieldOn, fieldRequired } from '../spec/fields.js';
import { DIAN_KINDS, type DianKindId } from '../spec/kinds.js';
import type { DianRequest } from '../spec/types.gen.js';

export interface DianValidationOptions {
  /** Today in Bogotá (`yyyy-MM-dd`): the signing date of the support-invoice period rule when the request has no `date`. */
  today?: string;
}

export interface DianValidationResult {
  /** Every problem found: errors (the request is refused) and warnings (it is not). */
  issues: Issue[];
  /** The normalized request (obsolete `payment_form` turned into `payment_forms`), present when there is no error. */
  value?: DianRequest;
}

/**
 * Obsolete top-level fields that stand for another: the key is accepted in place of the value's array, as its
 * only entry (`payment_form` → `payment_forms: [payment_form]`), and satisfies its requirement.
 */
export const DIAN_SUPERSEDED: Readonly<Record<string, string>> = { payment_form: 'payment_forms' };

/** The conditional rules (ruleId → what it checks), for the docs and tests. */
export const DIAN_REQUEST_RULES = {
  'DIAN-SVC-DV-NIT': '`customer.dv` is required when `customer.identification_type_code` is 31 (NIT)',
  'DIAN-SVC-MUNICIPALITY-CO': '`customer.municipality_code` is required when `customer.country_code` is CO',
  'DIAN-SVC-MUNICIPALITY-LIST':
    "a Colombian `customer.municipality_code` not in DIAN's municipality list is accepted with a warning (no place names are written)",
  'DIAN-SVC-CREDIT-TERMS': '`payment_due_date` and `duration_measure` are required when `payment_form_code` is 2 (credit)',
  'DIAN-SVC-EXPORT-COP': 'the export invoice requires `currency_type_code` COP',
  'DIAN-SVC-DS-RESIDENT': 'support document with operation 10 (resident): customer identification type 31 and `dv` informed',
  'DIAN-SVC-DS-PERIOD-DATE': 'support-document line `invoice_period.start_date` against the signing date (form 1 equal; form 2 at least 6 days before)',
  'DIAN-SVC-SECTOR-ID': '`item_sector_identification_type_code` is required on every line when the operation type is 11 or 12',
  'DIAN-SVC-ACCREDITATION': '`accreditation_operation` is required when the operation type is SS-Recaudo',
  'DIAN-SVC-REF-AMOUNT-CONCEPT': 'a reference with `amount` needs `concept` and the other way round',
  'DIAN-SVC-DOCUMENT-TYPE': "`document_type_code` must be one of the endpoint's document types",
  'DIAN-SVC-CONTINGENCY-03': 'contingency document type 03 requires `additional_document_references`',
  'DIAN-SVC-PAYMENT-FORM': 'obsolete `payment_form` and `payment_forms` cannot both be given',
  'DIAN-SVC-PER-UNIT-UNIT': 'a tax with `base_unit_measure` needs `unit_measure_code` (the XSD requires the unit of the base)',
  'DIAN-SVC-OBSOLETE': 'an obsolete field is accepted with a warning naming its replacement',
  'DIAN-SVC-DECIMALS': 'an amount with more than 2 decimals is accepted with a warning (the XML rounds half-to-even)',
} as const;

export type DianRequestRuleId = keyof typeof DIAN_REQUEST_RULES;

type Obj = Record<string, unknown>;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const TYPE_TEXT: Record<FieldDef['type'], string> = {
  string: 'un texto',
  integer: 'un número entero',
  number: 'un número',
  boolean: 'verdadero o falso (booleano)',
  date: 'una fecha con formato YYYY-MM-DD',
  time: 'una hora con formato HH:mm:ss (24 horas)',
  object: 'un objeto',
  array: 'una lista',
};

const patterns = new Map<string, RegExp | null>();
function patternOf(source: string): RegExp | null {
  let re = patterns.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source);
    } catch {
      re = null;
    }
    patterns.set(source, re);
  }
  return re;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Own property read that never reaches the prototype chain (`constructor`, `__proto__` are plain keys here). */
const own = (o: Obj, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
const join = (path: string, key: string | number): string => (path === '' ? String(key) : `${path}.${key}`);

/** Whether `yyyy-MM-dd` names a real calendar date. */
export function isCalendarDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  return d <= days;
}

/** Days from calendar date `a` to `b` (`b − a`), both valid `yyyy-MM-dd`. */
function daysBetween(a: string, b: string): number {
  const day = (t: string) => Date.UTC(Number(t.slice(0, 4)), Number(t.slice(5, 7)) - 1, Number(t.slice(8, 10))) / 86_400_000;
  return day(b) - day(a);
}

class Collector {
  readonly issues: Issue[] = [];
  /** The keys and indices from the body down to the value being walked; its path is built only for an issue. */
  readonly steps: (string | number)[] = [];
  constructor(readonly kind: DianKindId) {}
  add(code: IssueCode, path: string, message: string, severity: Issue['severity'] = 'error', ruleId?: string, params?: Record<string, unknown>): void {
    const issue: Issue = { code, path, message, severity };
    if (ruleId) issue.ruleId = ruleId;
    if (params) issue.params = params;
    this.issues.push(issue);
  }
  /** The dotted path of the value being walked (`invoice_lines.0.tax_totals.1.percent`). */
  path(): string {
    let p = '';
    for (const s of this.steps) p = join(p, s);
    return p;
  }
  /** The path of `key` below the value being walked. */
  pathTo(key: string): string {
    return join(this.path(), key);
  }
}

/** A field of an object as walked on one kind: its definition, whether it is required there, and what can stand for it. */
interface PlannedField {
  readonly def: FieldDef;
  readonly required: boolean;
  /** Obsolete top-level keys accepted in its place (DIAN_SUPERSEDED); checked only at the top. */
  readonly alternates: readonly string[];
}

/** How one field list is walked on one kind, built once per list and kind (the description is static). */
interface FieldPlan {
  /** Every definition by key, on the kind or not (a key not on the kind is `not_allowed`, not unknown). */
  readonly byKey: ReadonlyMap<string, FieldDef>;
  /** The fields that exist on the kind, in definition order (the order issues are reported in). */
  readonly fields: readonly PlannedField[];
}

const PLANS = new WeakMap<readonly FieldDef[], Partial<Record<DianKindId, FieldPlan>>>();
const NO_FIELDS: readonly FieldDef[] = [];
const NO_ALTERNATES: readonly string[] = [];

function planOf(fields: readonly FieldDef[], kind: DianKindId): FieldPlan {
  let byKind = PLANS.get(fields);
  if (!byKind) {
    byKind = {};
    PLANS.set(fields, byKind);
  }
  let plan = byKind[kind];
  if (!plan) {
    const planned: PlannedField[] = [];
    for (const def of fields) {
      if (!fieldOn(def, kind)) continue;
      const alternates = Object.entries(DIAN_SUPERSEDED)
        .filter(([, now]) => now === def.key)
        .map(([old]) => old);
      planned.push({ def, required: fieldRequired(def, kind), alternates: alternates.length ? alternates : NO_ALTERNATES });
    }
    plan = { byKey: new Map(fields.map((f) => [f.key, f])), fields: planned };
    byKind[kind] = plan;
  }
  return plan;
}

/** True when `value` has one of `keys` (own, not undefined). */
function hasAny(value: Obj, keys: readonly string[]): boolean {
  for (const k of keys) if (own(value, k) !== undefined) return true;
  return false;
}

/** Validates `fields` of one object (at the collector's current path); returns the normalized copy (known fields only). */
function walkObject(c: Collector, fields: readonly FieldDef[], value: Obj, top: boolean): Obj {
  const out: Obj = {};
  const plan = planOf(fields, c.kind);
  for (const key of Object.keys(value)) {
    const def = plan.byKey.get(key);
    if (!def) c.add('unknown_field', c.pathTo(key), 'campo desconocido', 'error', undefined, { field: key });
    else if (!fieldOn(def, c.kind))
      c.add('not_allowed', c.pathTo(key), `no se admite en ${DIAN_KINDS[c.kind].name}`, 'error', undefined, { field: key, kind: c.kind });
  }
  for (const f of plan.fields) {
    const def = f.def;
    const v = own(value, def.key);
    if (v === undefined) {
      if (f.required && !(top && hasAny(value, f.alternates))) c.add('required', c.pathTo(def.key), 'es obligatorio');
      continue;
    }
    c.steps.push(def.key);
    if (def.obsolete) c.add('rule', c.path(), `campo obsoleto: ${def.obsolete}`, 'warning', 'DIAN-SVC-OBSOLETE');
    const normalized = walkValue(c, def, v);
    c.steps.pop();
    if (normalized !== undefined) out[def.key] = normalized;
  }
  return out;
}

/** Records a value of the wrong JSON type (module level: no closure per value on this hot path). */
function wrongType(c: Collector, def: FieldDef): undefined {
  c.add('invalid_type', c.path(), `debe ser ${TYPE_TEXT[def.type]}`, 'error', undefined, { expected: def.type });
  return undefined;
}

/** The definition of an array's items: the array's own, typed as its items, without the array-only properties. */
const ITEM_DEFS = new WeakMap<FieldDef, FieldDef>();
function itemDefOf(def: FieldDef): FieldDef {
  let item = ITEM_DEFS.get(def);
  if (!item) {
    item = { ...def, type: def.items ?? 'string', obsolete: undefined, maxItems: undefined };
    ITEM_DEFS.set(def, item);
  }
  return item;
}

/** Validates one value of `def` at the collector's current path; returns its normalized form (undefined: dropped). */
function walkValue(c: Collector, def: FieldDef, v: unknown): unknown {
  switch (def.type) {
    case 'string': {
      if (typeof v !== 'string') return wrongType(c, def);
      // Code points, not UTF-16 units; counted only when the units could exceed the limit.
      if (def.maxLength !== undefined && v.length > def.maxLength && [...v].length > def.maxLength) {
        c.add('max_length', c.path(), `admite como máximo ${def.maxLength} caracteres`, 'error', undefined, { maxLength: def.maxLength });
      }
      checkPattern(c, def, v);
      checkEnum(c, def, v);
      return v;
    }
    case 'integer': {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) return wrongType(c, def);
      if (def.enum) checkEnum(c, def, String(v));
      return v;
    }
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return wrongType(c, def);
      // An integer below 1e21 prints without exponent or decimals: no text to look at.
      if (Number.isInteger(v) && v < 1e21 && v > -1e21) return v;
      const text = numberText(v);
      if (text === null || decimalsOf(text) > 2) {
        c.add('decimals', c.path(), 'tiene más de 2 decimales: el XML lo redondea a 2 decimales (mitad al par)', 'warning', 'DIAN-SVC-DECIMALS', {
          value: v,
        });
      }
      return v;
    }
    case 'boolean':
      return typeof v === 'boolean' ? v : wrongType(c, def);
    case 'date': {
      if (typeof v !== 'string') return wrongType(c, def);
      if (!isCalendarDate(v)) {
        c.add('date', c.path(), 'debe ser una fecha real con formato YYYY-MM-DD');
        return undefined;
      }
      return v;
    }
    case 'time': {
      if (typeof v !== 'string') return wrongType(c, def);
      if (!TIME_RE.test(v)) {
        c.add('pattern', c.path(), 'debe ser una hora con formato HH:mm:ss (24 horas)');
        return undefined;
      }
      return v;
    }
    case 'object': {
      if (!isObj(v)) return wrongType(c, def);
      if (def.open) return { ...v };
      return walkObject(c, def.fields ?? NO_FIELDS, v, false);
    }
    case 'array': {
      if (!Array.isArray(v)) return wrongType(c, def);
      if (def.maxItems !== undefined && v.length > def.maxItems) {
        c.add('too_many', c.path(), `admite como máximo ${def.maxItems} elemento(s)`, 'error', undefined, { maxItems: def.maxItems });
      }
      const itemDef = itemDefOf(def);
      // As `v.map`: same length, holes of a sparse array stay holes.
      const out: unknown[] = new Array(v.length);
      for (let i = 0; i < v.length; i++) {
        if (!(i in v)) continue;
        c.steps.push(i);
        out[i] = walkValue(c, itemDef, v[i]);
        c.steps.pop();
      }
      return out;
    }
    default:
      return undefined;
  }
}

function checkPattern(c: Collector, def: FieldDef, v: string): void {
  if (!def.pattern) return;
  const re = patternOf(def.pattern);
  if (re && !re.test(v)) {
    c.add('pattern', c.path(), def.patternText ? `formato inválido: ${def.patternText}` : 'formato inválido', 'error', undefined, { pattern: def.pattern });
  }
}

function checkEnum(c: Collector, def: FieldDef, v: string): void {
  if (def.enum && !def.enum.includes(v)) c.add('enum', c.path(), `debe ser uno de: ${def.enum.join(', ')}`, 'error', undefined, { allowed: def.enum });
}

// ---------------------------------------------------------------------------------------------------------
// Conditional rules. Each reads the raw body defensively and only judges values of the right type (a wrong
// type was already reported by the generic walk).

const str = (o: unknown, k: string): string | undefined => {
  const v = isObj(o) ? own(o, k) : undefined;
  return typeof v === 'string' ? v : undefined;
};
const present = (o: unknown, k: string): boolean => isObj(o) && own(o, k) !== undefined;
const list = (o: unknown, k: string): unknown[] => {
  const v = isObj(o) ? own(o, k) : undefined;
  return Array.isArray(v) ? v : [];
};

/** The top-level lists whose items have both `amount` and `concept` (DIAN-SVC-REF-AMOUNT-CONCEPT), found once. */
const AMOUNT_CONCEPT_LISTS: readonly FieldDef[] = DIAN_FIELDS.filter((def) => {
  if (def.type !== 'array') return false;
  const keys = new Set((def.fields ?? []).map((f) => f.key));
  return keys.has('amount') && keys.has('concept');
});

/** Top-level definitions by key. */
const TOP_BY_KEY: ReadonlyMap<string, FieldDef> = new Map(DIAN_FIELDS.map((f) => [f.key, f]));

function conditionalRules(c: Collector, body: Obj, options: DianValidationOptions): void {
  const kind = DIAN_KINDS[c.kind];
  const customer = own(body, 'customer');
  const operation = str(body, 'operation_type_code');
  const documentType = str(body, 'document_type_code');

  // The customer's check digit and municipality.
  if (isObj(customer)) {
    if (str(customer, 'identification_type_code') === '31' && !present(customer, 'dv')) {
      c.add('required', 'customer.dv', 'es obligatorio cuando el tipo de identificación es NIT (31)', 'error', 'DIAN-SVC-DV-NIT');
    }
    if (str(customer, 'country_code') === 'CO' && !present(customer, 'municipality_code')) {
      c.add('required', 'customer.municipality_code', 'es obligatorio cuando el país es CO', 'error', 'DIAN-SVC-MUNICIPALITY-CO');
    }
    // DIAN's list may lag a new municipality: a warning, not a refusal (the code is written; its names are not).
    const municipality = str(customer, 'municipality_code');
    if (str(customer, 'country_code') === 'CO' && municipality !== undefined && !Object.hasOwn(MUNICIPALITIES, municipality)) {
      c.add(
        'enum',
        'customer.municipality_code',
        'no está en la lista de municipios de la DIAN (código DANE de 5 dígitos)',
        'warning',
        'DIAN-SVC-MUNICIPALITY-LIST',
      );
    }
    if (c.kind === 'support-invoice' && operation === '10') {
      const type = str(customer, 'identification_type_code');
      if (type !== undefined && type !== '31') {
        c.add('rule', 'customer.identification_type_code', 'debe ser 31 (NIT) cuando el tipo de operación es 10 (residente)', 'error', 'DIAN-SVC-DS-RESIDENT');
      }
      // With type 31 and no `dv`, DIAN-SVC-DV-NIT has already said it.
      if (type !== '31' && !present(customer, 'dv')) {
        c.add('required', 'customer.dv', 'es obligatorio cuando el tipo de operación es 10 (residente)', 'error', 'DIAN-SVC-DS-RESIDENT');
      }
    }
  }

  // Credit payment terms, in payment_forms entries and in the obsolete payment_form.
  const forms: Array<[unknown, string]> = list(body, 'payment_forms').map((f, i) => [f, `payment_forms.${i}`]);
  if (isObj(own(body, 'payment_form'))) forms.push([own(body, 'payment_form'), 'payment_form']);
  for (const [form, p] of forms) {
    if (str(form, 'payment_form_code') !== '2') continue;
    for (const k of ['payment_due_date', 'duration_measure']) {
      if (!present(form, k)) c.add('required', `${p}.${k}`, 'es obligatorio cuando la forma de pago es crédito (2)', 'error', 'DIAN-SVC-CREDIT-TERMS');
    }
  }
  if (present(body, 'payment_form') && present(body, 'payment_forms') && fieldOnTop('payment_form', c.kind)) {
    c.add('rule', 'payment_form', 'no puede enviarse junto con `payment_forms`: use solo `payment_forms`', 'error', 'DIAN-SVC-PAYMENT-FORM');
  }

  if (c.kind === 'export-invoice') {
    const currency = str(body, 'currency_type_code');
    if (currency !== undefined && currency !== 'COP') {
      c.add('rule', 'currency_type_code', 'debe ser COP en la factura de exportación', 'error', 'DIAN-SVC-EXPORT-COP');
    }
  }

  if (documentType !== undefined && !kind.typeCodes.includes(documentType)) {
    c.add('enum', 'document_type_code', `debe ser uno de: ${kind.typeCodes.join(', ')} (${kind.name})`, 'error', 'DIAN-SVC-DOCUMENT-TYPE', {
      allowed: kind.typeCodes,
    });
  }
  if (c.kind === 'contingency-invoice' && documentType === '03' && list(body, 'additional_document_references').length === 0) {
    c.add('required', 'additional_document_references', 'es obligatorio cuando el tipo de documento es 03 (talonario)', 'error', 'DIAN-SVC-CONTINGENCY-03');
  }

  if (operation === 'SS-Recaudo' && fieldOnTop('accreditation_operation', c.kind) && !present(body, 'accreditation_operation')) {
    c.add('required', 'accreditation_operation', 'es obligatorio cuando el tipo de operación es SS-Recaudo', 'error', 'DIAN-SVC-ACCREDITATION');
  }

  // References: amount ⇔ concept, wherever an item has both fields (data-driven).
  for (const def of AMOUNT_CONCEPT_LISTS) {
    if (!fieldOn(def, c.kind)) continue;
    const refs = list(body, def.key);
    for (let i = 0; i < refs.length; i++) {
      if (!(i in refs)) continue; // as forEach: a hole is no reference
      const ref = refs[i];
      const hasAmount = present(ref, 'amount');
      const hasConcept = present(ref, 'concept');
      if (hasAmount && !hasConcept)
        c.add('required', `${def.key}.${i}.concept`, 'es obligatorio cuando se informa `amount`', 'error', 'DIAN-SVC-REF-AMOUNT-CONCEPT');
      if (hasConcept && !hasAmount)
        c.add('required', `${def.key}.${i}.amount`, 'es obligatorio cuando se informa `concept`', 'error', 'DIAN-SVC-REF-AMOUNT-CONCEPT');
    }
  }

  // Lines.
  const lines = list(body, kind.linesField);
  const sector = operation === '11' || operation === '12';
  const signing = signingDate(body, options);
  for (let i = 0; i < lines.length; i++) {
    if (!(i in lines)) continue; // as forEach: a hole is no line
    const line = lines[i];
    const p = `${kind.linesField}.${i}`;
    if (sector && isObj(line) && !present(line, 'item_sector_identification_type_code')) {
      c.add(
        'required',
        `${p}.item_sector_identification_type_code`,
        `es obligatorio cuando el tipo de operación es ${operation}`,
        'error',
        'DIAN-SVC-SECTOR-ID',
      );
    }
    if (c.kind === 'support-invoice' && signing !== undefined)
      periodRule(c, isObj(line) ? own(line, 'invoice_period') : undefined, `${p}.invoice_period`, signing);
    if (isObj(line)) perUnitRule(c, list(line, 'tax_totals'), `${p}.tax_totals`);
  }
  perUnitRule(c, list(body, 'tax_totals'), 'tax_totals');
}

/** A per-unit tax states the unit of its base: `BaseUnitMeasure/@unitCode` is required by the XSD. */
function perUnitRule(c: Collector, taxes: unknown[], path: string): void {
  for (let i = 0; i < taxes.length; i++) {
    const t = taxes[i];
    if (isObj(t) && present(t, 'base_unit_measure') && !present(t, 'unit_measure_code')) {
      c.add('required', `${path}.${i}.unit_measure_code`, 'es obligatorio cuando se informa `base_unit_measure`', 'error', 'DIAN-SVC-PER-UNIT-UNIT');
    }
  }
}

function fieldOnTop(key: string, kind: DianKindId): boolean {
  const def = TOP_BY_KEY.get(key);
  return def !== undefined && fieldOn(def, kind);
}

/** The signing date the period rule compares with: the request's own valid `date`, else `options.today`. */
function signingDate(body: Obj, options: DianValidationOptions): string | undefined {
  const date = str(body, 'date');
  if (date !== undefined) return isCalendarDate(date) ? date : undefined;
  return typeof options.today === 'string' && isCalendarDate(options.today) ? options.today : undefined;
}

/**
 * Support-document line `invoice_period.start_date` (the purchase date) against the signing date. The spec:
 * "for purchases reported weekly it is rejected when it is less than 6 calendar days from the signing of the
 * document; for purchases reported per operation it is rejected when it differs from the signing date".
 *
 * Reading: with form 1 (per operation) the purchase is reported on its own day, so start_date must equal the
 * signing date. With form 2 (weekly accumulation) the distance from start_date to the signing date, in
 * calendar days (signing − start), must be at least 6: a week that has not closed yet (0 to 5 days, or a
 * start date after the signing) is rejected. The spec gives no upper bound, so none is checked here.
 */
function periodRule(c: Collector, period: unknown, path: string, signing: string): void {
  const start = str(period, 'start_date');
  if (start === undefined || !isCalendarDate(start)) return;
  const form = isObj(period) ? own(period, 'form_generation_transmission_code') : undefined;
  if (form === 1 && start !== signing) {
    c.add(
      'rule',
      `${path}.start_date`,
      `debe ser igual a la fecha de firma (${signing}) cuando la forma de generación es 1 (por operación)`,
      'error',
      'DIAN-SVC-DS-PERIOD-DATE',
      {
        signing,
      },
    );
  }
  if (form === 2 && daysBetween(start, signing) < 6) {
    c.add(
      'rule',
      `${path}.start_date`,
      `debe ser al menos 6 días calendario anterior a la fecha de firma (${signing}) cuando la forma de generación es 2 (acumulado semanal)`,
      'error',
      'DIAN-SVC-DS-PERIOD-DATE',
      { signing },
    );
  }
}

/**
 * Validates a DIAN document request body for `kind`. Never throws: any input (null, arrays, strings, wrong
 * types, prototype keys) gives issues. `value` is the normalized request when no issue is an error.
 */
export function validateDianRequest(kind: DianKindId, body: unknown, options: DianValidationOptions = {}): DianValidationResult {
  if (!Object.hasOwn(DIAN_KINDS, kind)) {
    return { issues: [{ code: 'enum', path: '', message: `tipo de documento desconocido: ${String(kind)}`, severity: 'error' }] };
  }
  const c = new Collector(kind);
  if (!isObj(body)) {
    c.add('invalid_type', '', 'el cuerpo de la solicitud debe ser un objeto JSON');
    return { issues: c.issues };
  }
  const out = walkObject(c, DIAN_FIELDS, body, true);
  conditionalRules(c, body, options);
  for (const [old, now] of Object.entries(DIAN_SUPERSEDED)) {
    if (out[old] !== undefined && out[now] === undefined) out[now] = [out[old]];
    delete out[old];
  }
  if (hasError(c.issues)) return { issues: c.issues };
  return { issues: c.issues, value: out as unknown as DianRequest };
}

function hasError(issues: readonly Issue[]): boolean {
  for (const i of issues) if (i.severity === 'error') return true;
  return false;
}

/** The service's 422 body for its own validations (dian-service.md), `statusCode` 13; warnings are left out. */
export interface DianValidationBody {
  status: 'error';
  message: string;
  document: {
    number: string;
    statusCode: 13;
    statusDescription: string;
    errors: string[];
    detailedErrors: Record<string, string[]>;
  };
}

/** Builds the 422 body of the service's own validations for document `number` (prefix and consecutive). */
export function toDianValidationBody(number: string, issues: readonly Issue[]): DianValidationBody {
  const report = toIssueReport(issues);
  return {
    status: 'error',
    message: 'El documento no superó las validaciones del servicio',
    document: {
      number,
      statusCode: 13,
      statusDescription: 'Documento con errores en las validaciones del servicio',
      errors: report.errors,
      detailedErrors: report.detailed_errors,
    },
  };
}

/**
 * The JSON Schema (2020-12) of a payroll request body, generated from the same description the validator, builder
 * and parser walk (src/dian/payroll/plan.ts over the generated XSD tree): keys, required keys, JSON types, lists,
 * and for the adjustment note (103) one branch per note type. The rules beyond shape (totals within ±2.00, periods,
 * exchange rate) are validateDianPayroll's. Pure.
 */
import type { PayrollXsdNode } from '../spec/payroll-xsd.js';
import { bodyNode, entriesOf, type PayrollEntry, type PayrollForm, type PayrollScalar, rootEntries, textScalar, VALUE_KEY } from './plan.js';
import { PAYROLL_KINDS, PAYROLL_NOTE_TYPES, type PayrollKindId } from './table.js';

type Schema = Record<string, unknown>;

const SCALARS: Record<PayrollScalar['type'], Schema> = {
  string: { type: 'string', minLength: 1 },
  code: { type: 'string', pattern: '^\\d{1,20}$' },
  integer: { type: 'integer', minimum: 0 },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  time: { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$' },
  dateTime: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$' },
};

function scalar(s: PayrollScalar, description: string): Schema {
  return { ...SCALARS[s.type], description };
}

function element(node: PayrollXsdNode, form: PayrollForm): Schema {
  if (form === 'scalar') return scalar(textScalar(node), node.name);
  const extra: Record<string, Schema> = form === 'valued' ? { [VALUE_KEY]: scalar(textScalar(node), `${node.name} (texto)`) } : {};
  return object(entriesOf(node), extra, form === 'valued' ? [VALUE_KEY] : [], node.name);
}

function object(entries: readonly PayrollEntry[], extra: Record<string, Schema>, required: string[], description: string): Schema {
  const properties: Record<string, Schema> = { ...extra };
  const req = [...required];
  for (const e of entries) {
    if (e.derived) continue;
    if (e.required) req.push(e.key);
    if (e.attr) {
      properties[e.key] = scalar(e.attr.scalar, e.ref);
      continue;
    }
    const ch = e.child!;
    const item = element(ch.item ?? ch.node, ch.form);
    properties[e.key] = ch.list
      ? { type: 'array', items: item, ...(e.required || (ch.item && ch.item.min > 0) ? { minItems: 1 } : {}), description: e.ref }
      : item;
  }
  return { type: 'object', description, additionalProperties: false, required: req, properties };
}

/**
 * The JSON Schema of a `kind` payroll request (`payroll` 102, `payroll-adjustment` 103).
 *
 * @example
 * payrollRequestJsonSchema('payroll').required //=> ['sequence', 'place', 'general', 'employer', 'employee', …]
 */
export function payrollRequestJsonSchema(kind: PayrollKindId): Schema {
  const head = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://ecf-kit.dev/schemas/dian-${kind}.schema.json`,
    title: PAYROLL_KINDS[kind].name,
  };
  if (kind === 'payroll') return { ...head, ...object(entriesOf(bodyNode(kind)!), {}, [], PAYROLL_KINDS[kind].root) };
  const branches = (Object.keys(PAYROLL_NOTE_TYPES) as ('1' | '2')[]).map((noteType) => {
    const entries = [...rootEntries(kind).filter((e) => e.key !== 'note_type'), ...entriesOf(bodyNode(kind, noteType)!)];
    return object(
      entries,
      { note_type: { const: noteType, description: `TipoNota: ${PAYROLL_NOTE_TYPES[noteType].name}` } },
      ['note_type'],
      PAYROLL_NOTE_TYPES[noteType].wrapper,
    );
  });
  return { ...head, type: 'object', required: ['note_type'], oneOf: branches };
}

/** payrollRequestJsonSchema: the examples conform to the generated schema; it refuses what the validator refuses by shape. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PayrollKindId, payrollRequestJsonSchema, validateDianPayroll } from '../../../src/dian/index.js';
import { repoRoot } from '../helpers/env.js';

type S = Record<string, unknown>;

/** The problems of `v` against the subset of JSON Schema the generator writes (paths as the validator's). */
function problems(schema: S, v: unknown, path = ''): string[] {
  if (Array.isArray(schema.oneOf)) {
    const fits = (schema.oneOf as S[]).filter((b) => problems(b, v, path).length === 0);
    return fits.length === 1 ? [] : [`${path}: ${fits.length} branches fit`];
  }
  if ('const' in schema) return v === schema.const ? [] : [`${path}: const`];
  const at = (k: string | number) => (path === '' ? String(k) : `${path}.${k}`);
  switch (schema.type) {
    case 'object': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return [`${path}: object`];
      const o = v as S;
      const props = (schema.properties ?? {}) as Record<string, S>;
      const out = ((schema.required ?? []) as string[]).filter((k) => o[k] === undefined).map((k) => `${at(k)}: required`);
      for (const [k, x] of Object.entries(o)) {
        if (!props[k]) out.push(`${at(k)}: unknown`);
        else out.push(...problems(props[k]!, x, at(k)));
      }
      return out;
    }
    case 'array':
      if (!Array.isArray(v)) return [`${path}: array`];
      return v.flatMap((x, i) => problems(schema.items as S, x, at(i)));
    case 'string':
      if (typeof v !== 'string') return [`${path}: string`];
      return typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(v) ? [`${path}: pattern`] : [];
    case 'integer':
      return Number.isInteger(v) ? [] : [`${path}: integer`];
    case 'number':
      return typeof v === 'number' ? [] : [`${path}: number`];
    case 'boolean':
      return typeof v === 'boolean' ? [] : [`${path}: boolean`];
    default:
      return [];
  }
}

const EXAMPLES: [string, PayrollKindId][] = [
  ['payroll-min', 'payroll'],
  ['payroll-max', 'payroll'],
  ['payroll-adjustment-replace', 'payroll-adjustment'],
  ['payroll-adjustment-delete', 'payroll-adjustment'],
];
const load = (name: string): S => JSON.parse(readFileSync(join(repoRoot, `examples/dian/${name}.json`), 'utf8'));

describe('payrollRequestJsonSchema', () => {
  it.each(EXAMPLES)('%s conforms to the %s schema', (name, kind) => {
    expect(problems(payrollRequestJsonSchema(kind), load(name))).toEqual([]);
  });

  it('refuses by shape what the validator refuses: a missing required key, an unknown key, a code as a number', () => {
    const bad = load('payroll-min');
    delete bad.employee;
    bad.surprise = 1;
    (bad.period as S).time_worked = 790;
    const found = problems(payrollRequestJsonSchema('payroll'), bad);
    expect(found).toEqual(expect.arrayContaining(['employee: required', 'surprise: unknown', 'period.time_worked: string']));
    const paths = validateDianPayroll('payroll', bad).issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['employee', 'surprise', 'period.time_worked']));
  });

  it('103: one branch per note type; a delete note carries no employee', () => {
    const schema = payrollRequestJsonSchema('payroll-adjustment') as { oneOf: { properties: S; required: string[] }[] };
    expect(schema.oneOf).toHaveLength(2);
    expect(schema.oneOf[0]!.properties).toHaveProperty('employee');
    expect(schema.oneOf[1]!.properties).not.toHaveProperty('employee');
    expect(problems(schema as S, { ...load('payroll-adjustment-delete'), employee: {} })).not.toEqual([]);
  });
});

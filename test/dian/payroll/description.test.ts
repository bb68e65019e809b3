/**
 * The payroll description: every element and attribute of DIAN's payroll XSDs has a request key (or is the
 * builder's), keys are unique within each object, and the maximal example carries every key a request can carry.
 */
import { describe, expect, it } from 'vitest';
import { PAYROLL_XSD, type PayrollXsdNode } from '../../../src/dian/index.js';
import { bodyNode, entriesOf, rootEntries, type PayrollEntry } from '../../../src/dian/payroll/plan.js';
import { example } from './fixtures.js';

/** Every request path (`earnings.daytime_overtime.start_time`, list indices left out) the description allows below `entries`. */
function allowedPaths(entries: readonly PayrollEntry[], prefix = ''): string[] {
  const out: string[] = [];
  for (const e of entries) {
    if (e.derived) continue;
    const p = prefix ? `${prefix}.${e.key}` : e.key;
    out.push(p);
    const node = e.child?.item ?? e.child?.node;
    if (node && e.child!.form !== 'scalar') {
      out.push(...allowedPaths(entriesOf(node), p));
      if (e.child!.form === 'valued') out.push(`${p}.value`);
    }
  }
  return out;
}
function presentPaths(v: unknown, prefix = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x) => presentPaths(x, prefix));
  if (typeof v !== 'object' || v === null) return [];
  return Object.entries(v).flatMap(([k, x]) => {
    const p = prefix ? `${prefix}.${k}` : k;
    return [p, ...presentPaths(x, p)];
  });
}

describe('the payroll description', () => {
  it('gives every element of both XSDs a form and unique keys per object', () => {
    let elements = 0;
    const walk = (n: PayrollXsdNode) => {
      elements++;
      const keys = entriesOf(n).map((e) => e.key);
      expect(new Set(keys).size, n.name).toBe(keys.length);
      for (const c of n.children) walk(c);
    };
    walk(PAYROLL_XSD.NominaIndividual);
    walk(PAYROLL_XSD.NominaIndividualDeAjuste);
    // The sizes of DIAN's v1.0.6 schemas: a new version shows up here.
    expect(elements).toBe(203);
  });

  it('the maximal 102 example carries every key a request can carry', () => {
    const allowed = allowedPaths(entriesOf(bodyNode('payroll')!));
    const present = new Set(presentPaths(example('payroll-max')));
    expect(allowed.filter((p) => !present.has(p))).toEqual([]);
    expect([...present].filter((p) => !allowed.includes(p))).toEqual([]);
  });

  it('the adjustment note adds note_type and the predecessor; a delete note carries only its seven keys', () => {
    expect(rootEntries('payroll-adjustment').map((e) => e.key)).toEqual(['note_type']);
    expect(
      entriesOf(bodyNode('payroll-adjustment', '2')!)
        .filter((e) => !e.derived)
        .map((e) => e.key),
    ).toEqual(['predecessor', 'sequence', 'place', 'provider', 'general', 'notes', 'employer']);
  });
});

/**
 * DIAN's official sample documents (test/dian/fixtures/toolbox) parse without loss of any element the description
 * covers: each invoice and note is parsed into a request and a context, rebuilt, and every value the sample has at a
 * path the mapping fills from the request or the context comes back at that path, in order (amounts compared as
 * decimals, times without their offset). Values the mapping writes in several places from one field (a copy) may
 * differ in the samples; those paths are listed with the reason, and nothing else may differ.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDianDocument } from '../../../src/dian/build/build.js';
import type { DianContext } from '../../../src/dian/build/context.js';
import { parseDianDocument } from '../../../src/dian/parse/parse.js';
import { dataPaths } from '../../../src/dian/spec/coverage.js';
import { parseDec } from '../../../src/shared/money/decimal.js';
import { readUbl } from '../../../src/dian/ubl/read.js';
import type { UblNode } from '../../../src/dian/ubl/tree.js';

const dir = resolve(import.meta.dirname, '../fixtures/toolbox');
const documents = readdirSync(dir)
  .filter((f) => f.endsWith('.xml'))
  .map((f) => {
    const r = readUbl(readFileSync(resolve(dir, f), 'utf8'));
    if (!r.ok) throw new Error(`${f}: ${r.message}`);
    return [f, r.root] as const;
  })
  .filter(([, root]) => ['Invoice', 'CreditNote', 'DebitNote'].includes(root.name));

/**
 * Copies whose sample values may differ from the value they copy, and why the request has one value for them.
 * Matched on the path's end.
 */
const COPIES_THAT_MAY_DIFFER: Record<string, string> = {
  'cac:PartyTaxScheme/cac:RegistrationAddress': 'the registration address is written as a copy of the party address',
  'cac:PartyLegalEntity/cbc:RegistrationName': 'the legal name is written as a copy of the registered name',
  'cac:PartyLegalEntity/cbc:CompanyID': 'the legal entity id and check digit are copies of the tax scheme ones (samples disagree with themselves)',
  'cac:Price/cbc:BaseQuantity@unitCode': "the price's base unit is the line's unit of measure",
};

/** Paths where the request holds one value and samples several: the first must come back, the others are not kept. */
const FIRST_ONLY: Record<string, string> = {
  'cac:PartyName/cbc:Name': 'samples list several names (store, establishment, company); the request has one trade name',
};

const endsAt = (path: string, end: string) => path.endsWith(end) || path.includes(`${end}/`) || path.includes(`${end}@`);

function valuesAt(root: UblNode, paths: ReadonlyMap<string, unknown>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const push = (p: string, v: string) => {
    const list = out.get(p);
    if (list) list.push(v);
    else out.set(p, [v]);
  };
  const walk = (n: UblNode, p: string) => {
    if (paths.has(p) && n.text !== undefined) push(p, n.text);
    for (const [a, v] of n.attrs) if (paths.has(`${p}@${a}`)) push(`${p}@${a}`, v);
    for (const c of n.children) walk(c, `${p}/${c.name}`);
  };
  walk(root, root.name);
  return out;
}

const norm = (v: string) => {
  const d = parseDec(v.trim());
  return d === null ? v.replace(/-05:00$/, '') : String(d);
};

describe('parseDianDocument on DIAN toolbox samples', () => {
  it.each(documents)('%s: no covered value is lost', (_file, root) => {
    const parsed = parseDianDocument(root);
    if (!parsed.ok) throw new Error(parsed.message);
    const c = parsed.context as Record<string, Record<string, unknown>>;
    const context = {
      ...c,
      software: { pin: 'sample', ...c.software },
      resolution: { technical_key: 'sample', from: '1', to: '9', start_date: '2019-01-01', end_date: '2030-12-31', ...c.resolution },
    } as unknown as DianContext;
    const rebuilt = buildDianDocument(parsed.kind, parsed.request, context);
    if (!rebuilt.ok) throw new Error(JSON.stringify(rebuilt.issues));
    const paths = dataPaths(parsed.kind);
    const before = valuesAt(root, paths);
    const after = valuesAt(rebuilt.root, paths);
    const lost: string[] = [];
    for (const [path, values] of before) {
      const a = values.map(norm);
      const b = (after.get(path) ?? []).map(norm);
      if (JSON.stringify(a) === JSON.stringify(b)) continue;
      const copy = paths.get(path) === 'copy' && Object.keys(COPIES_THAT_MAY_DIFFER).some((end) => endsAt(path, end));
      const firstOnly = Object.keys(FIRST_ONLY).some((end) => endsAt(path, end)) && b.length === 1 && a[0] === b[0];
      const excused = copy || firstOnly;
      if (!excused) lost.push(`${path}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
    }
    expect(lost).toEqual([]);
    // And the sample's data is really there: the parse found its lines and its parties.
    expect(Object.keys(parsed.request)).toEqual(expect.arrayContaining(['number', 'customer', 'identification_number']));
  });

  it('covers every invoice and note sample of the toolbox (and only the event and payroll samples are left out)', () => {
    expect(documents).toHaveLength(37);
  });
});

/**
 * The fast readers of the rule checks and the tree helpers give exactly what the plain versions give (the
 * decimal reader is the kernel's `parseDec`, tested in test/shared/money/parse-dec.test.ts): `dayNumber` against the regular-expression-and-Date reading it replaced, and `at`/`all`
 * with split-once paths against a step-by-step walk.
 */
import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../../src/dian/rules/context.js';
import { all, allSteps, at, atSteps, childrenNamed, el, pathSteps, textAt, textAtSteps, type UblNode } from '../../../src/dian/ubl/tree.js';

/** The reading `dayNumber` had before: a regular expression, then `Date.UTC` and a round trip. */
function dayNumberPlain(date: string | undefined): number | null {
  const m = date === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / 86_400_000;
}

/** A deterministic pseudo-random generator (no Math.random: reproducible cases). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('dayNumber', () => {
  const fixed = [
    undefined,
    '',
    '2024-02-29',
    '2023-02-29',
    '1900-02-29',
    '2000-02-29',
    '2019-13-01',
    '2019-00-10',
    '2019-01-00',
    '2019-04-31',
    '2019-12-31',
    '0050-01-01',
    '0099-12-31',
    '0100-01-01',
    '1970-01-01',
    '1969-12-31',
    '9999-12-31',
    '2019-1-01',
    '2019-01-1',
    '2019/01/01',
    '20190101',
    '2019-01-01 ',
    ' 2019-01-01',
    '2019-01-01T00:00:00',
    'abcd-ef-gh',
    '２０１９-01-01',
  ];
  it.each(fixed)('reads %j as the regular-expression reading does', (t) => {
    expect(dayNumber(t)).toBe(dayNumberPlain(t));
  });

  it('agrees on every day of 1899 to 2101 and on impossible days of each month', () => {
    for (let y = 1899; y <= 2101; y++)
      for (let m = 1; m <= 12; m++)
        for (let d = 0; d <= 32; d++) {
          const t = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          expect(dayNumber(t), t).toBe(dayNumberPlain(t));
        }
  });
});

describe('tree paths', () => {
  const leaf = (name: string, text: string): UblNode => el(name, text);
  const root: UblNode = el('Invoice');
  const a1 = el('cac:A');
  a1.children.push(leaf('cbc:X', ' one '), leaf('cbc:X', 'two'));
  const a2 = el('cac:A');
  a2.children.push(leaf('cbc:X', 'three'));
  root.children.push(a1, leaf('cbc:Y', 'y'), a2);

  it('at, all and textAt give the step-by-step results, with and without a pre-split path', () => {
    expect(at(root, 'cac:A/cbc:X')).toBe(a1.children[0]);
    expect(atSteps(root, pathSteps('cac:A/cbc:X'))).toBe(a1.children[0]);
    expect(at(root, '/cac:A//cbc:X/')).toBe(a1.children[0]);
    expect(at(root, '')).toBe(root);
    expect(at(root, '/')).toBe(root);
    expect(at(undefined, '')).toBeUndefined();
    expect(at(root, 'cac:A/cbc:Z')).toBeUndefined();
    expect(all(root, 'cac:A/cbc:X').map((n) => n.text)).toEqual([' one ', 'two', 'three']);
    expect(allSteps(root, pathSteps('cac:A/cbc:X'))).toEqual(all(root, 'cac:A/cbc:X'));
    expect(all(root, '')).toEqual([root]);
    expect(all(undefined, 'cac:A')).toEqual([]);
    expect(textAt(root, 'cac:A/cbc:X')).toBe('one');
    expect(textAtSteps(root, pathSteps('cbc:Y'))).toBe('y');
    expect(childrenNamed(root, 'cac:A')).toEqual([a1, a2]);
    expect(childrenNamed(undefined, 'cac:A')).toEqual([]);
  });

  it('returns a fresh array from all and childrenNamed (callers may change it)', () => {
    const first = all(root, 'cac:A');
    first.pop();
    expect(all(root, 'cac:A')).toHaveLength(2);
    const kids = childrenNamed(root, 'cac:A');
    kids.pop();
    expect(childrenNamed(root, 'cac:A')).toHaveLength(2);
  });

  it('splits a path once: the same steps array for the same path text, and the steps are frozen', () => {
    expect(pathSteps('cac:A/cbc:X')).toBe(pathSteps(['cac:A', 'cbc:X'].join('/')));
    expect(Object.isFrozen(pathSteps('cac:A/cbc:X'))).toBe(true);
    expect(pathSteps('/a//b/')).toEqual(['a', 'b']);
  });
});

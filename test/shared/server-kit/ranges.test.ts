import { describe, expect, it } from 'vitest';
import { mergeRanges } from '../../../src/shared/server-kit/ranges.js';

describe('range merging', () => {
  it('joins overlapping and adjacent ranges, sorted', () => {
    expect(
      mergeRanges([
        { from: 4, to: 6 },
        { from: 1, to: 3 },
        { from: 9, to: 9 },
        { from: 5, to: 7 },
      ]),
    ).toEqual([
      { from: 1, to: 7 },
      { from: 9, to: 9 },
    ]);
    expect(mergeRanges([])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { pollDelay, retryDelay } from '../../../src/ecf/server/worker/index.js';

describe('pollDelay', () => {
  it('grows 0.5 s, 1 s, 2 s … and stops at 5 minutes by default', () => {
    expect([0, 1, 2, 3, 4].map((n) => pollDelay(n))).toEqual([500, 1_000, 2_000, 4_000, 8_000]);
    expect(pollDelay(9)).toBe(256_000);
    expect(pollDelay(10)).toBe(300_000);
    expect(pollDelay(1_000)).toBe(300_000);
  });
  it('follows a configured schedule', () => {
    expect([0, 1, 2, 3].map((n) => pollDelay(n, { initialMs: 100, factor: 3, maxMs: 1_000 }))).toEqual([100, 300, 900, 1_000]);
  });
});

describe('retryDelay', () => {
  it('doubles from 1 s up to 5 minutes, with jitter taking up to half off', () => {
    expect(retryDelay(0, {}, () => 0)).toBe(1_000);
    expect(retryDelay(0, {}, () => 0.999999)).toBe(500);
    expect(retryDelay(3, {}, () => 0)).toBe(8_000);
    expect(retryDelay(30, {}, () => 0)).toBe(300_000);
    expect(retryDelay(5_000, {}, () => 0.5)).toBe(225_000);
  });
  it('spreads retries of workers that failed together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelay(4)));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(8_000);
    for (const d of delays) expect(d).toBeLessThanOrEqual(16_000);
  });
});

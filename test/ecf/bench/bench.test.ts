/**
 * The pipeline benchmark runs end to end in quick mode (BENCH_QUICK=1, results to a temporary
 * BENCH_RESULTS_DIR) and writes the figures users and CI read from pipeline.json. No timing thresholds:
 * only that every figure is there, positive, and consistent with the others.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ECF_TYPES } from '../../../src/ecf/spec/model.js';
import { repoRoot } from '../helpers/env.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'ecf-bench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIELDS = ['docs_per_second', 'ms_per_doc', 'floor_docs_per_second', 'floor_ms', 'ratio_to_floor'] as const;
type Json = Record<string, any>;

function expectPositive(x: unknown): void {
  expect(typeof x).toBe('number');
  expect(Number.isFinite(x)).toBe(true);
  expect(x as number).toBeGreaterThan(0);
}

/** The named figures of one 10-line type: present, positive and consistent with one another. */
function expectTypeFigures(r: Json): void {
  for (const f of FIELDS) expectPositive(r[f]);
  // ratio_to_floor = ms_per_doc / floor_ms, rounded to 2 decimals (ms to 4 decimals).
  expect(Math.abs(r.ratio_to_floor - r.ms_per_doc / r.floor_ms)).toBeLessThanOrEqual(0.006);
  // docs/s = 1000 / ms, rounded to 1 decimal.
  expect(Math.abs(r.docs_per_second - 1000 / r.ms_per_doc)).toBeLessThanOrEqual(0.05 + r.docs_per_second * 1e-3);
  expect(Math.abs(r.floor_docs_per_second - 1000 / r.floor_ms)).toBeLessThanOrEqual(0.05 + r.floor_docs_per_second * 1e-3);
  expectPositive(r.peak_rss_mb);
  expectPositive(r.rss_before_mb);
  expect(r.peak_rss_mb).toBeGreaterThanOrEqual(r.rss_before_mb);
  expect(r.memory_scope).toBe('own process');
}

function resolvable(name: string): boolean {
  try {
    createRequire(join(repoRoot, 'package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

describe('bench/pipeline.ts (quick mode)', () => {
  it('writes all ten types, the large documents and the peers with consistent figures', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/pipeline.ts'], {
      cwd: repoRoot,
      env: { ...process.env, BENCH_QUICK: '1', BENCH_RESULTS_DIR: dir },
      maxBuffer: 16 * 2 ** 20,
      timeout: 170_000,
    });
    const json = JSON.parse(readFileSync(join(dir, 'pipeline.json'), 'utf8')) as Json;
    expect(json.quick).toBe(true);
    expectPositive(json.process_peak_rss_mb);

    // The 10-line 31 under the names users and CI read, equal to its by_type entry.
    const p31 = json.pipeline_31_10_lines as Json;
    expectTypeFigures(p31);
    expect(p31.target_ratio_max).toBe(3);
    for (const f of FIELDS) expect(p31[f]).toBe(json.by_type['31'][f]);

    expect(Object.keys(json.by_type).sort()).toEqual([...ECF_TYPES].sort());
    for (const tipo of ECF_TYPES) {
      const r = json.by_type[tipo] as Json;
      expect(r.tipo).toBe(tipo);
      expect(r.lines).toBe(10);
      expectTypeFigures(r);
      expect(r.iterations).toBeGreaterThan(0);
      expect(r.round_ratio.min).toBeLessThanOrEqual(r.round_ratio.median);
      expect(r.round_ratio.median).toBeLessThanOrEqual(r.round_ratio.max);
      expect(stdout).toContain(`| ${tipo} `);
    }

    const big = json.big_documents as Json;
    for (const [key, tipo, lines] of [
      ['31_1000_lines', '31', 1000],
      ['32_10000_lines', '32', 10000],
      ['32_1000_lines_over_threshold', '32', 1000],
    ] as const) {
      const r = big[key] as Json;
      expect(r.tipo).toBe(tipo);
      expect(r.lines).toBe(lines);
      for (const f of ['ms_per_doc', 'validate_build_ms', 'sign_ms', 'signed_bytes', 'peak_rss_mb']) expectPositive(r[f]);
      expect(r.peak_rss_mb).toBeGreaterThanOrEqual(r.rss_before_mb);
      expect(r.memory_scope).toBe('own process');
      // The whole is the sum of its two steps (each rounded to 2 decimals).
      expect(Math.abs(r.ms_per_doc - (r.validate_build_ms + r.sign_ms))).toBeLessThanOrEqual(0.02);
    }
    expect(big['32_10000_lines'].monto_total).toBeLessThan(250000);
    expect(big['32_1000_lines_over_threshold'].monto_total).toBeGreaterThanOrEqual(250000);
    expect(big['32_10000_lines_over_threshold']).toMatchObject({ timed: false, valid: false });
    expect(big['32_10000_lines_over_threshold'].issues).toContain('ECF-ITEMS-MAX');

    // xml-crypto (a dependency) is timed beside ecf-kit and signs to the same bytes.
    const xc = json.peers['xml-crypto'] as Json;
    expect(xc).toMatchObject({ installed: true, timed: true, same_signed_document: true });
    expect(xc.version).toBe(createRequire(join(repoRoot, 'package.json'))('xml-crypto/package.json').version);
    for (const k of ['sign', 'ecf_kit_sign', 'pipeline_with_peer_signing', 'ecf_kit_pipeline']) {
      for (const f of FIELDS) expectPositive(xc[k][f]);
      expect(Math.abs(xc[k].ratio_to_floor - xc[k].ms_per_doc / xc[k].floor_ms)).toBeLessThanOrEqual(0.006);
    }
    expectPositive(xc.peak_rss_mb);

    // Public e-CF packages are probed by name; the report says plainly whether they were timed.
    for (const name of ['dgii-ecf', '@dgii/ecf', 'ecf-dgii']) {
      const installed = resolvable(name);
      expect(json.peers[name].installed).toBe(installed);
      if (!installed) {
        expect(json.peers[name]).toEqual({ installed: false });
        expect(stdout).toContain(`peer ${name}: not installed, not timed`);
      }
    }
  }, 180_000);
});

/**
 * SDK core: validate + build throughput (10-line 31, in this process, memory sampled) and a 10,000-line 32
 * (in its own process, so its peak RSS is its own). `npx tsx bench/sdk.ts`
 */
import { buildEcfXmlFromJson, safeValidateEcfJson } from '../src/ecf/index.js';
import { renderEcfXml } from '../src/ecf/xml/ecf.js';
import { context, doc31, doc32 } from './docs.js';
import { CHILD_CASE, measure, printTable, reportCase, round, rssMb, runInChild, writeResults, type Measurement } from './lib.js';

if (CHILD_CASE === '32x10000') {
  const d32 = doc32(10000);
  const c32 = context('32');
  const before = rssMb();
  const {
    peak_rss_mb: _p,
    rss_before_mb: _b,
    memory_scope: _s,
    ...timing
  } = measure('validate + build, 10,000-line 32', () => buildEcfXmlFromJson('32', d32, c32), { minMs: 3000, warmup: 2 });
  reportCase(timing, before);
  process.exit(0);
}

const d31 = doc31(10);
const c31 = context('31');
const v = safeValidateEcfJson('31', d31, { fechaEmision: c31.fecha_emision });
if (!v.success) throw new Error(`bench document invalid: ${JSON.stringify(v.issues.slice(0, 3))}`);

const rows = [
  measure('validate + build, 10-line 31', () => buildEcfXmlFromJson('31', d31, c31)),
  measure('validate only, 10-line 31', () => safeValidateEcfJson('31', d31, { fechaEmision: c31.fecha_emision })),
  measure('render only, 10-line 31', () => renderEcfXml('31', d31, c31)),
];

const big = runInChild<Measurement>(import.meta.url, '32x10000');
rows.push(big);

printTable('SDK core (one core)', rows);
const target31 = rows[0]!.ops_per_second >= 2000;
const target32 = big.ms_per_op < 1000;
console.log(
  `targets: 10-line 31 ≥ 2,000 docs/s: ${target31 ? 'met' : 'NOT met'}; 10,000-line 32 < 1 s: ${target32 ? 'met' : 'NOT met'} (${round(big.ms_per_op, 1)} ms)`,
);
const memory = (m: Measurement) => ({ peak_rss_mb: m.peak_rss_mb, rss_before_mb: m.rss_before_mb, memory_scope: m.memory_scope });
writeResults('sdk.json', {
  validate_build_31_10_lines: { docs_per_second: rows[0]!.ops_per_second, ms_per_doc: rows[0]!.ms_per_op, ...memory(rows[0]!) },
  validate_31_10_lines: { docs_per_second: rows[1]!.ops_per_second, ...memory(rows[1]!) },
  render_31_10_lines: { docs_per_second: rows[2]!.ops_per_second, ...memory(rows[2]!) },
  validate_build_32_10000_lines: { ms: big.ms_per_op, ...memory(big) },
  targets: { docs_per_second_31_min: 2000, ms_32_10000_max: 1000, met: target31 && target32 },
});

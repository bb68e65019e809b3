/** SDK core: validate + build throughput (10-line 31) and a 10,000-line 32. `npx tsx bench/sdk.ts` */
import { buildEcfXml, safeValidateEcf } from '../src/index.js';
import { renderEcfXml } from '../src/xml/ecf.js';
import { context, doc31, doc32 } from './docs.js';
import { measure, printTable, round, writeResults } from './lib.js';

const d31 = doc31(10);
const c31 = context('31');
const v = safeValidateEcf('31', d31, { fechaEmision: c31.fecha_emision });
if (!v.success) throw new Error(`bench document invalid: ${JSON.stringify(v.issues.slice(0, 3))}`);

const rows = [
  measure('validate + build, 10-line 31', () => buildEcfXml('31', d31, c31)),
  measure('validate only, 10-line 31', () => safeValidateEcf('31', d31, { fechaEmision: c31.fecha_emision })),
  measure('render only, 10-line 31', () => renderEcfXml('31', d31, c31)),
];

const d32 = doc32(10000);
const c32 = context('32');
const big = measure('validate + build, 10,000-line 32', () => buildEcfXml('32', d32, c32), { minMs: 3000, warmup: 2 });
rows.push(big);

printTable('SDK core (one core)', rows);
const target31 = rows[0]!.ops_per_second >= 2000;
const target32 = big.ms_per_op < 1000;
console.log(`targets: 10-line 31 ≥ 2,000 docs/s: ${target31 ? 'met' : 'NOT met'}; 10,000-line 32 < 1 s: ${target32 ? 'met' : 'NOT met'} (${round(big.ms_per_op, 1)} ms)`);
writeResults('sdk.json', {
  validate_build_31_10_lines: { docs_per_second: rows[0]!.ops_per_second, ms_per_doc: rows[0]!.ms_per_op },
  validate_31_10_lines: { docs_per_second: rows[1]!.ops_per_second },
  render_31_10_lines: { docs_per_second: rows[2]!.ops_per_second },
  validate_build_32_10000_lines: { ms: big.ms_per_op },
  targets: { docs_per_second_31_min: 2000, ms_32_10000_max: 1000, met: target31 && target32 },
});

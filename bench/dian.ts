/**
 * DIAN core next to the e-CF core, in one process (one core): `buildDianXml` (validate + build + codes + DIAN's
 * rules) of a 10-line invoice and of a 1,000-line one, the DIAN XSD validation of the same documents apart, and
 * the e-CF `buildEcfXml` (validate + build) of a 10-line and a 1,000-line type 31. `npm run bench -- dian`.
 * XSD dir from DIAN_XSD_DIR, else ../shared/dian-xsd.
 *
 * Signing, in interleaved rounds (so load from other work hits every side alike), with one RSA-2048 key: the floor
 * (one raw node:crypto RSA-SHA256 signature of a 32-byte digest), `signDianXml` of the built 10-line invoice,
 * build + sign per document, and the peer, xadesjs 2.6 (test/dian/sign/xadesjs.ts) signing the same unsigned
 * document under DIAN's profile with the same key. Ratios are quotients of the per-round medians; xadesjs runs in
 * its own group of rounds (with the floor and `signDianXml`), since the garbage it leaves would slow the others.
 */
import { createHash, sign as rsaSign } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDianXml } from '../src/dian/index.js';
import { createSelfSignedIdentity, DIAN_POLICY_HASH, DIAN_POLICY_URL, readP12, signDianXml, verifyDianXml } from '../src/dian/sign/index.js';
import { createDianSchemaValidator } from '../src/dian/xsd/index.js';
import { buildEcfXml } from '../src/ecf/index.js';
import { CONTEXT, minimalRequest } from '../test/dian/helpers/build-fixtures.js';
import { xadesjsKey, xadesjsSignDian } from '../test/dian/sign/xadesjs.js';
import { context, doc31 } from './docs.js';
import { againstFloor, interleave, measure, printTable, quick, round, writeResults, type Measurement } from './lib.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const xsdDir = process.env.DIAN_XSD_DIR ? resolve(process.env.DIAN_XSD_DIR) : resolve(root, '../shared/dian-xsd');

const dian10 = minimalRequest('invoice', 10);
const dian1000 = minimalRequest('invoice', 1000);
const buildDian = (req: Record<string, unknown>) => {
  const r = buildDianXml('invoice', req, CONTEXT);
  if (!r.ok) throw new Error(`bench DIAN document invalid: ${JSON.stringify(r.issues.slice(0, 3))}`);
  return r;
};
const xml10 = buildDian(dian10).xml;
const xml1000 = buildDian(dian1000).xml;
if (buildDian(dian10).findings.length) throw new Error('the bench DIAN document draws rule findings');

const ecf10 = doc31(10);
const ecf1000 = doc31(1000);
const c31 = context('31');
buildEcfXml('31', ecf10, c31);
buildEcfXml('31', ecf1000, c31);

// Every figure (DIAN and e-CF alike) after a second of warm-up: with 20 calls only, the 10-line DIAN figure
// landed on one of two levels from run to run (the JIT had not settled).
const WARM = { warmupMs: 1000 };
const rows: Measurement[] = [
  measure('DIAN buildDianXml (rules on), 10-line invoice', () => buildDian(dian10), WARM),
  measure('DIAN buildDianXml (rules off), 10-line invoice', () => buildDianXml('invoice', dian10, CONTEXT, { rules: false }), WARM),
  measure('e-CF buildEcfXml (validate + build), 10-line 31', () => buildEcfXml('31', ecf10, c31), WARM),
  measure('DIAN buildDianXml (rules on), 1,000-line invoice', () => buildDian(dian1000), { minMs: 3000, warmup: 3, ...WARM }),
  measure('e-CF buildEcfXml (validate + build), 1,000-line 31', () => buildEcfXml('31', ecf1000, c31), { minMs: 3000, warmup: 3, ...WARM }),
];

let xsd: { ten: Measurement; thousand: Measurement } | null = null;
if (existsSync(xsdDir)) {
  const v = createDianSchemaValidator(xsdDir);
  const check = (xml: string) => {
    const r = v.validate(xml, 'Invoice', { unsigned: true });
    if (r.violations.length) throw new Error(`bench DIAN document not XSD-valid: ${JSON.stringify(r.violations.slice(0, 2))}`);
  };
  check(xml10);
  xsd = {
    ten: measure('DIAN XSD validation (unsigned), 10-line invoice', () => check(xml10)),
    thousand: measure('DIAN XSD validation (unsigned), 1,000-line invoice', () => check(xml1000), { minMs: 3000, warmup: 3 }),
  };
  rows.push(xsd.ten, xsd.thousand);
} else console.log(`DIAN XSD directory not found (${xsdDir}): XSD validation not timed`);

printTable('DIAN core vs e-CF core (one core)', rows);
const [dianBuild10, dianNoRules10, ecfBuild10, dianBuild1000, ecfBuild1000] = rows as [Measurement, Measurement, Measurement, Measurement, Measurement];
const buildValidate10 = xsd ? 1000 / (dianBuild10.ms_per_op + xsd.ten.ms_per_op) : null;
const buildValidate1000 = xsd ? dianBuild1000.ms_per_op + xsd.thousand.ms_per_op : null;
const ratio10 = round(ecfBuild10.ops_per_second / dianBuild10.ops_per_second, 2);
const ratio1000 = round(dianBuild1000.ms_per_op / ecfBuild1000.ms_per_op, 2);
console.log(
  `\nDIAN 10-line invoice: build ${dianBuild10.ops_per_second} docs/s${buildValidate10 ? `, build + XSD ${round(buildValidate10, 1)} docs/s` : ''}; 1,000-line: build ${round(dianBuild1000.ms_per_op, 1)} ms${buildValidate1000 ? `, build + XSD ${round(buildValidate1000, 1)} ms` : ''}`,
);
console.log(`e-CF 10-line 31: ${ecfBuild10.ops_per_second} docs/s; 1,000-line 31: ${round(ecfBuild1000.ms_per_op, 1)} ms`);
console.log(`ratio (e-CF / DIAN throughput, 10 lines): ${ratio10}×; (DIAN / e-CF time, 1,000 lines): ${ratio1000}×`);

// Signing: floor, ours (sign; build + sign) and xadesjs, interleaved, with the same RSA-2048 key.
const identity = createSelfSignedIdentity({ commonName: 'Bench DIAN' });
const { privateKey, certificate } = readP12(identity.p12, identity.password);
const peerKey = await xadesjsKey(privateKey, certificate);
const SIGNED_AT = new Date('2026-04-01T14:00:00Z');
const signOptions = { clock: () => SIGNED_AT, newId: () => 'bench' };
const DIGEST = createHash('sha256').update('ecf-kit').digest();
const oursSign = async (xml: string) => {
  const r = await signDianXml(xml, identity.signer, signOptions);
  if (!r.ok) throw new Error(`bench DIAN signing failed: ${r.code}`);
  return r.xml;
};
const peerSign = (xml: string) => xadesjsSignDian(xml, peerKey, { url: DIAN_POLICY_URL, hash: DIAN_POLICY_HASH.sha256 }, SIGNED_AT);
// Both sides must make signatures our verifier accepts before they are timed.
for (const signed of [await oursSign(xml10), await peerSign(xml10)]) {
  const v = verifyDianXml(signed);
  if (!v.valid) throw new Error(`bench DIAN signature does not verify: ${v.code}: ${v.reason}`);
}
const SIGN_ROUNDS = quick(40, 6);
const floorSide = { name: 'floor', perRound: quick(100, 20), fn: () => rsaSign('sha256', DIGEST, privateKey) };
const signSide = { name: 'sign', perRound: quick(40, 10), fn: () => oursSign(xml10) };
// Two groups: xadesjs leaves much garbage that later rounds would pay for, so it is timed only beside ours.
const ours = await interleave(
  [floorSide, signSide, { name: 'build_sign', perRound: quick(40, 10), fn: () => oursSign(buildDian(dian10).xml) }],
  SIGN_ROUNDS,
  quick(20, 3),
);
const peers = await interleave([floorSide, signSide, { name: 'peer_sign', perRound: quick(10, 3), fn: () => peerSign(xml10) }], SIGN_ROUNDS, quick(5, 2));
const signing = { sign: againstFloor(ours, 'sign'), build_sign: againstFloor(ours, 'build_sign'), peer_sign: againstFloor(peers, 'peer_sign') };
const peerRatio = round(signing.peer_sign.ms_per_doc / againstFloor(peers, 'sign').ms_per_doc, 2);
console.log(`\nDIAN signing, 10-line invoice, ${SIGN_ROUNDS} interleaved rounds, RSA-2048 floor ${signing.sign.floor_ms} ms in the same run:`);
console.log(
  `  build + sign: ${signing.build_sign.ms_per_doc} ms/doc (${signing.build_sign.docs_per_second} docs/s), ${signing.build_sign.ratio_to_floor}× the floor (target ≤ 2×)`,
);
console.log(`  sign: ${signing.sign.ms_per_doc} ms/doc, ${signing.sign.ratio_to_floor}× the floor`);
console.log(`  xadesjs sign: ${signing.peer_sign.ms_per_doc} ms/doc, ${signing.peer_sign.ratio_to_floor}× the floor; xadesjs / ours: ${peerRatio}×`);

writeResults('dian.json', {
  dian_build_10_lines: { docs_per_second: dianBuild10.ops_per_second, ms_per_doc: dianBuild10.ms_per_op, rules: true, peak_rss_mb: dianBuild10.peak_rss_mb },
  dian_build_no_rules_10_lines: { docs_per_second: dianNoRules10.ops_per_second, ms_per_doc: dianNoRules10.ms_per_op },
  dian_xsd_10_lines: xsd ? { docs_per_second: xsd.ten.ops_per_second, ms_per_doc: xsd.ten.ms_per_op } : null,
  dian_build_xsd_10_lines_docs_per_second: buildValidate10 === null ? null : round(buildValidate10, 1),
  dian_build_1000_lines: { ms: dianBuild1000.ms_per_op, peak_rss_mb: dianBuild1000.peak_rss_mb },
  dian_xsd_1000_lines: xsd ? { ms: xsd.thousand.ms_per_op } : null,
  dian_build_xsd_1000_lines_ms: buildValidate1000 === null ? null : round(buildValidate1000, 2),
  ecf_build_31_10_lines: { docs_per_second: ecfBuild10.ops_per_second, ms_per_doc: ecfBuild10.ms_per_op },
  ecf_build_31_1000_lines: { ms: ecfBuild1000.ms_per_op },
  ratio_ecf_over_dian_10_lines_throughput: ratio10,
  ratio_dian_over_ecf_1000_lines_time: ratio1000,
  dian_sign_10_lines: { rounds: SIGN_ROUNDS, ...signing, peer: 'xadesjs 2.6.8', ratio_peer_over_ours_sign: peerRatio },
});

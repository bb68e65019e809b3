/**
 * DIAN core next to the e-CF core, in one process (one core): `buildDianXml` (validate + build + codes + DIAN's
 * rules) of a 10-line invoice and of a 1,000-line one, the DIAN XSD validation of the same documents apart, and
 * the e-CF `buildEcfXml` (validate + build) of a 10-line and a 1,000-line type 31. `npm run bench -- dian`.
 * XSD dir from DIAN_XSD_DIR, else ../shared/dian-xsd. Figures and how to read them: docs/dian/performance.md.
 *
 * Signing, in interleaved rounds (so load from other work hits every side alike), with one RSA-2048 key: the floor
 * (one raw node:crypto RSA-SHA256 signature of a 32-byte digest), `signDianXml` of the built 10-line invoice,
 * build + sign per document, the full pipeline (build + validate + sign + zip) of a 10-line request of every
 * DIAN_KINDS row and of payroll 102, and the peer xadesjs 2.6 (test/dian/sign/xadesjs.ts) signing the same unsigned
 * invoice under DIAN's profile with the same key. Ratios are quotients of the per-round medians; xadesjs runs in
 * its own group of rounds (with the floor and `signDianXml`), since the garbage it leaves would slow the others.
 *
 * Then facho 0.2.1 (Python, bench/peers/facho_driver.py) building, signing and zipping the same 10-line invoice
 * with the same key (a PKCS#12 written to a temporary directory for the run), in rounds alternating with the floor
 * and our invoice pipeline; skipped, with the reason printed, when its Python is not set up (bench/peers/facho.ts).
 */
import { createHash, sign as rsaSign } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { buildDianPayroll, buildDianXml, DIAN_KINDS, type DianFileKind, type DianKindId, dianDocumentZip } from '../src/dian/index.js';
import { createSelfSignedIdentity, DIAN_POLICY_HASH, DIAN_POLICY_URL, readP12, signDianXml, verifyDianXml } from '../src/dian/sign/index.js';
import { createDianSchemaValidator } from '../src/dian/xsd/index.js';
import { buildEcfXml } from '../src/ecf/index.js';
import { CONTEXT, minimalRequest } from '../test/dian/helpers/build-fixtures.js';
import { example, PAYROLL_CONTEXT } from '../test/dian/payroll/fixtures.js';
import { xadesjsKey, xadesjsSignDian } from '../test/dian/sign/xadesjs.js';
import { context, doc31 } from './docs.js';
import { againstFloor, interleave, type Measurement, measure, median, printTable, quick, round, writeResults } from './lib.js';
import { startFacho } from './peers/facho.js';

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

// Signing: floor, ours (sign; build + sign; the full pipeline of every kind) and xadesjs, interleaved, with the
// same RSA-2048 key.
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

// The full pipeline per document, as the service runs it: buildDianXml (request validation + build + codes + DIAN
// rules), signDianXml, dianDocumentZip (the zip SendBillSync takes, deflated by node:zlib as the service does). One
// 10-line request per DIAN_KINDS row, and the payroll 102 example with every accrual and deduction (payroll has no
// lines to count).
const deflate = (data: Uint8Array) => deflateRawSync(data);
const zipOf = (kind: DianFileKind, xml: string) => {
  const z = dianDocumentZip({ kind, nit: '900508908', provider: '000', year: 2026, counter: 1, xml, date: '2026-11-24', deflate });
  if (!z.ok) throw new Error(`bench DIAN zip failed: ${z.message}`);
  return z.value.zip;
};
// The test fixture's 10-line request of each kind, with two changes so that every one passes request validation and
// draws no DIAN rule finding: the export invoice without the fixture's empty `exchange_rate` (optional, but its
// members are required once it is given), the support document numbered under CONTEXT's resolution prefix (its
// `DS` draws DSAB10a, a Rechazo).
const benchRequest = (kind: DianKindId): Record<string, unknown> => {
  const { exchange_rate: _, ...req } = minimalRequest(kind, 10);
  return kind === 'support-invoice' ? { ...req, prefix: 'SETP' } : kind === 'export-invoice' ? req : minimalRequest(kind, 10);
};
const kindRequests = (Object.keys(DIAN_KINDS) as DianKindId[]).map((kind) => ({ kind, req: benchRequest(kind) }));
const pipelineOf = (kind: DianKindId, req: Record<string, unknown>) => async () => {
  const built = buildDianXml(kind, req, CONTEXT);
  if (!built.ok) throw new Error(`bench DIAN ${kind} invalid: ${JSON.stringify(built.issues.slice(0, 3))}`);
  return zipOf(kind, await oursSign(built.xml));
};
const payrollRequest = example('payroll-max');
const payrollPipeline = async () => {
  const built = buildDianPayroll('payroll', payrollRequest, PAYROLL_CONTEXT);
  if (!built.ok) throw new Error(`bench DIAN payroll invalid: ${JSON.stringify(built.issues.slice(0, 3))}`);
  const z = dianDocumentZip({ kind: 'payroll', nit: '900508908', year: 2026, counter: 1, xml: await oursSign(built.xml), date: '2026-11-24', deflate });
  if (!z.ok) throw new Error(`bench DIAN payroll zip failed: ${z.message}`);
  return z.value.zip;
};
for (const { kind, req } of kindRequests) {
  const built = buildDianXml(kind, req, CONTEXT);
  if (!built.ok || built.findings.length) throw new Error(`bench DIAN ${kind} request invalid or draws rule findings`);
}
const PIPELINE_SIDES = [
  ...kindRequests.map(({ kind, req }) => ({ name: `pipeline:${kind}`, perRound: quick(20, 5), fn: pipelineOf(kind, req) })),
  { name: 'pipeline:payroll', perRound: quick(20, 5), fn: payrollPipeline },
];

const SIGN_ROUNDS = quick(30, 4);
const floorSide = { name: 'floor', perRound: quick(100, 20), fn: () => rsaSign('sha256', DIGEST, privateKey) };
const signSide = { name: 'sign', perRound: quick(40, 10), fn: () => oursSign(xml10) };
// Three groups: xadesjs leaves much garbage that later rounds would pay for, so it is timed only beside ours; facho
// runs in its own process and is timed beside the floor and our invoice pipeline.
const ours = await interleave(
  [floorSide, signSide, { name: 'build_sign', perRound: quick(40, 10), fn: () => oursSign(buildDian(dian10).xml) }, ...PIPELINE_SIDES],
  SIGN_ROUNDS,
  quick(10, 2),
);
const peers = await interleave([floorSide, signSide, { name: 'peer_sign', perRound: quick(10, 3), fn: () => peerSign(xml10) }], SIGN_ROUNDS, quick(5, 2));
const signing = { sign: againstFloor(ours, 'sign'), build_sign: againstFloor(ours, 'build_sign'), peer_sign: againstFloor(peers, 'peer_sign') };
const peerRatio = round(signing.peer_sign.ms_per_doc / againstFloor(peers, 'sign').ms_per_doc, 2);
const pipeline = Object.fromEntries(PIPELINE_SIDES.map((s) => [s.name.slice('pipeline:'.length), againstFloor(ours, s.name)]));
console.log(`\nDIAN signing, 10-line invoice, ${SIGN_ROUNDS} interleaved rounds, RSA-2048 floor ${signing.sign.floor_ms} ms in the same run:`);
console.log(
  `  build + sign: ${signing.build_sign.ms_per_doc} ms/doc (${signing.build_sign.docs_per_second} docs/s), ${signing.build_sign.ratio_to_floor}× the floor`,
);
console.log(`  sign: ${signing.sign.ms_per_doc} ms/doc, ${signing.sign.ratio_to_floor}× the floor`);
console.log(`  xadesjs sign: ${signing.peer_sign.ms_per_doc} ms/doc, ${signing.peer_sign.ratio_to_floor}× the floor; xadesjs / ours: ${peerRatio}×`);
console.log(`\nDIAN pipeline (build + validate + sign + zip) per kind, same rounds, RSA-2048 floor ${signing.sign.floor_ms} ms (target ≤ 2×):`);
console.log('| kind | ms/doc | docs/s | × floor | per-round × floor (min–max) |');
console.log('|---|---:|---:|---:|---|');
for (const [kind, r] of Object.entries(pipeline))
  console.log(
    `| ${kind}${kind === 'payroll' ? ' (102, payroll-max example)' : ''} | ${r.ms_per_doc} | ${r.docs_per_second} | ${r.ratio_to_floor} | ${r.round_ratio.min}–${r.round_ratio.max} |`,
  );

// facho (Python), the whole pipeline of the same 10-line invoice with the same key, alternating with ours.
const FACHO_ROUNDS = quick(6, 2);
const FACHO_DOCS = quick(8, 2);
let facho: Record<string, unknown> = { timed: false };
const p12Dir = mkdtempSync(join(tmpdir(), 'ecf-kit-bench-facho-'));
try {
  const p12Path = join(p12Dir, 'bench.p12');
  writeFileSync(p12Path, identity.p12);
  const peer = await startFacho(p12Path, identity.password);
  if ('missing' in peer) {
    console.log(`\nfacho peer not timed: ${peer.missing}`);
    facho = { timed: false, missing: peer.missing };
  } else {
    try {
      const samplePath = join(p12Dir, 'facho-sample.xml');
      await peer.sample(samplePath);
      const sample = readFileSync(samplePath, 'utf8');
      const v = verifyDianXml(sample);
      const oursInvoice = PIPELINE_SIDES[0]!;
      const times = await interleave(
        [floorSide, { ...oursInvoice, name: 'ours', perRound: quick(40, 5) }, { name: 'facho', perRound: 1, fn: () => peer.run(FACHO_DOCS) }],
        FACHO_ROUNDS,
        1,
      );
      times.facho = times.facho!.map((ms) => ms / FACHO_DOCS);
      const f = againstFloor(times, 'facho');
      const o = againstFloor(times, 'ours');
      const ratios = times.facho.map((x, i) => x / times.ours![i]!).sort((a, b) => a - b);
      const ratio = round(f.ms_per_doc / o.ms_per_doc, 1);
      facho = {
        timed: true,
        version: peer.version,
        rounds: FACHO_ROUNDS,
        docs_per_round: FACHO_DOCS,
        facho: f,
        ecf_kit: o,
        ratio_facho_over_ecf_kit: ratio,
        round_ratio: { median: round(median(ratios), 1), min: round(ratios[0]!, 1), max: round(ratios[ratios.length - 1]!, 1) },
        sample_bytes: Buffer.byteLength(sample),
        sample_verifies_with_verifyDianXml: v.valid ? true : `${v.code}: ${v.reason}`,
      };
      console.log(`\nfacho (${peer.version}), 10-line invoice, build + sign + zip, ${FACHO_ROUNDS} alternating rounds of ${FACHO_DOCS} docs:`);
      console.log(`  facho: ${f.ms_per_doc} ms/doc (${f.docs_per_second} docs/s), ${f.ratio_to_floor}× the floor (${f.floor_ms} ms)`);
      console.log(`  ecf-kit: ${o.ms_per_doc} ms/doc (${o.docs_per_second} docs/s), ${o.ratio_to_floor}× the floor`);
      console.log(`  ecf-kit / facho (throughput): ${ratio}× (per round ${round(ratios[0]!, 1)}–${round(ratios[ratios.length - 1]!, 1)}×; target ≥ 5×)`);
      console.log(`  facho's signed invoice (${Buffer.byteLength(sample)} bytes) under verifyDianXml: ${v.valid ? 'valid' : `${v.code}: ${v.reason}`}`);
    } finally {
      peer.close();
    }
  }
} finally {
  rmSync(p12Dir, { recursive: true, force: true });
}

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
  dian_pipeline_10_lines: { rounds: SIGN_ROUNDS, steps: 'buildDianXml + signDianXml + dianDocumentZip', by_kind: pipeline },
  dian_peer_facho: facho,
});

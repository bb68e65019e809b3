/**
 * The full SDK pipeline, validate + build + sign (FechaHoraFirma, C14N, digest, RSA), against the floor:
 * one node:crypto RSA-2048 SHA-256 signature of a 32-byte digest.
 *
 * - Each of the ten e-CF types, a valid 10-line document, in its own process: the floor and the pipeline
 *   are timed in alternating short rounds (so load from other work hits both alike); `ms_per_doc` and
 *   `floor_ms` are the medians of the per-round times, `ratio_to_floor` their quotient, and
 *   `round_ratio` the median (min, max) of the per-round ratios.
 * - Large documents through validate + build + sign, each in its own process: a 1,000-line 31, a 10,000-line
 *   32 (below RD$250,000, the most lines any e-CF may have) and a 1,000-line 32 at or above RD$250,000.
 * - Peers: xml-crypto 6 signing the same built document (the signing step) beside ecf-kit's; public e-CF
 *   packages are probed by name and reported as not installed when they are not (nothing is installed).
 *
 * Every figure carries the peak RSS of the process that ran it alone. Every document is checked before
 * timing: SDK validation, and the official XSD on its signed form (when the XSD directory is there).
 * `npx tsx bench/pipeline.ts` (BENCH_QUICK=1: a few rounds only; BENCH_RESULTS_DIR: where pipeline.json goes)
 */
import { createHash, sign as rsaSign } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signWithXmlCrypto } from '../test/ecf/sign/reference.js';
import { buildEcfXmlFromJson, ECF_TYPE_INFO, ECF_TYPES, safeValidateEcfJson, type EcfType } from '../src/ecf/index.js';
import { formatDateTimeDO, p12Signer, readP12, signEcf } from '../src/ecf/sign/index.js';
import { createSchemaValidator } from '../src/ecf/xsd/index.js';
import { modernP12 } from '../test/ecf/helpers/certs.js';
import { linesContext, linesDoc } from './docs.js';
import { againstFloor, CHILD_CASE, interleave, machineLine, quick, reportCase, round, rssMb, runInChild, writeResults, type MemoryFigures } from './lib.js';

const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SIGNED_AT = new Date('2026-04-01T14:00:00Z');
const clock = () => SIGNED_AT;
const DIGEST = createHash('sha256').update('ecf-kit').digest();
const TARGET_RATIO_MAX = 3;

const ROUNDS = quick(40, 6);
const WARMUP = quick(100, 10);
const BIG_MIN_MS = quick(3000, 0);

const BUYER = { rnc: '131880738', razon_social: 'Cliente Ejemplo, S.A.' };
interface BigCase {
  key: string;
  title: string;
  tipo: EcfType;
  lines: number;
  line: Record<string, unknown>;
  fields?: Record<string, unknown>;
}
const BIG: BigCase[] = [
  { key: '31_1000_lines', title: 'type 31, 1,000 lines', tipo: '31', lines: 1000, line: { cantidad: 1, precio_unitario: 150.5 } },
  { key: '32_10000_lines', title: 'type 32, 10,000 lines (below RD$250,000)', tipo: '32', lines: 10000, line: { cantidad: 1, precio_unitario: 10 } },
  {
    key: '32_1000_lines_over_threshold',
    title: 'type 32, 1,000 lines, RD$250,000 or more',
    tipo: '32',
    lines: 1000,
    line: { cantidad: 1, precio_unitario: 250 },
    fields: { comprador: BUYER },
  },
];
/** Public e-CF packages a user might compare with; probed, never installed. */
const ECF_PEERS = ['dgii-ecf', '@dgii/ecf', 'ecf-dgii'];

function identity() {
  const t = modernP12();
  const id = readP12(t.p12, t.password);
  return { signer: p12Signer(id), key: id.privateKey, keyPem: t.keyPem, certificatePem: t.certificatePem };
}

function assertValid(tipo: EcfType, doc: unknown, fechaEmision: string): void {
  const r = safeValidateEcfJson(tipo, doc, { fechaEmision });
  if (!r.success) throw new Error(`bench document ${tipo} is invalid: ${JSON.stringify(r.issues.slice(0, 3))}`);
}

/** What signEcf adds before signing: FechaHoraFirma as the root's last child (for the peer, which does not). */
const stamp = (xml: string) => xml.replace(/<\/ECF>\s*$/, `<FechaHoraFirma>${formatDateTimeDO(SIGNED_AT)}</FechaHoraFirma></ECF>`);

type TypeFigures = ReturnType<typeof againstFloor> & { tipo: EcfType; lines: number; signed_bytes: number; rounds: number; iterations: number } & MemoryFigures;

/** Child: one type, 10 lines, floor and pipeline interleaved. */
async function typeCase(tipo: EcfType): Promise<void> {
  const { signer, key } = identity();
  const doc = linesDoc(tipo, 10);
  const ctx = linesContext(tipo);
  assertValid(tipo, doc, ctx.fecha_emision);
  const signedBytes = Buffer.byteLength(await signEcf(buildEcfXmlFromJson(tipo, doc, ctx), signer, clock));
  const before = rssMb();
  const perRound = { floor: quick(100, 20), pipeline: quick(60, 10) };
  const times = await interleave(
    [
      { name: 'floor', perRound: perRound.floor, fn: () => rsaSign('sha256', DIGEST, key) },
      { name: 'pipeline', perRound: perRound.pipeline, fn: () => signEcf(buildEcfXmlFromJson(tipo, doc, ctx), signer, clock) },
    ],
    ROUNDS,
    WARMUP,
  );
  reportCase(
    { tipo, lines: 10, signed_bytes: signedBytes, rounds: ROUNDS, iterations: ROUNDS * perRound.pipeline, ...againstFloor(times, 'pipeline') },
    before,
  );
}

/** Child: one large document, validate + build + sign, timed whole and by step. */
async function bigCase(b: BigCase): Promise<void> {
  const { signer } = identity();
  const doc = linesDoc(b.tipo, b.lines, b.line, b.fields);
  const ctx = linesContext(b.tipo);
  assertValid(b.tipo, doc, ctx.fecha_emision);
  const before = rssMb();
  let signed = await signEcf(buildEcfXmlFromJson(b.tipo, doc, ctx), signer, clock); // warm-up
  const build: number[] = [];
  const sign: number[] = [];
  const start = performance.now();
  do {
    const t0 = performance.now();
    const xml = buildEcfXmlFromJson(b.tipo, doc, ctx);
    const t1 = performance.now();
    signed = await signEcf(xml, signer, clock);
    build.push(t1 - t0);
    sign.push(performance.now() - t1);
  } while (performance.now() - start < BIG_MIN_MS || build.length < quick(3, 1));
  const total = build.map((x, i) => x + sign[i]!);
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
  reportCase(
    {
      title: b.title,
      tipo: b.tipo,
      lines: b.lines,
      monto_total: (doc.totales as { monto_total: number }).monto_total,
      signed_bytes: Buffer.byteLength(signed),
      iterations: total.length,
      ms_per_doc: round(mean(total), 2),
      docs_per_second: round(1000 / mean(total), 2),
      validate_build_ms: round(mean(build), 2),
      sign_ms: round(mean(sign), 2),
    },
    before,
  );
}

/** Child: the signing step of ecf-kit beside xml-crypto's, on the same built 10-line 31, with the floor. */
async function peersCase(): Promise<void> {
  const { signer, key, keyPem, certificatePem } = identity();
  const doc = linesDoc('31', 10);
  const ctx = linesContext('31');
  assertValid('31', doc, ctx.fecha_emision);
  const built = buildEcfXmlFromJson('31', doc, ctx);
  const ours = await signEcf(built, signer, clock);
  const theirs = signWithXmlCrypto(stamp(built), keyPem, certificatePem);
  // Both sign the same bytes the same way: the signed documents must be identical.
  const sameOutput = ours === theirs;
  if (!sameOutput) throw new Error('ecf-kit and xml-crypto produced different signed documents for the same input');
  const before = rssMb();
  const times = await interleave(
    [
      { name: 'floor', perRound: quick(100, 20), fn: () => rsaSign('sha256', DIGEST, key) },
      { name: 'ours_sign', perRound: quick(60, 10), fn: () => signEcf(built, signer, clock) },
      { name: 'peer_sign', perRound: quick(10, 3), fn: () => signWithXmlCrypto(stamp(built), keyPem, certificatePem) },
      { name: 'ours_pipeline', perRound: quick(60, 10), fn: () => signEcf(buildEcfXmlFromJson('31', doc, ctx), signer, clock) },
      { name: 'peer_pipeline', perRound: quick(10, 3), fn: () => signWithXmlCrypto(stamp(buildEcfXmlFromJson('31', doc, ctx)), keyPem, certificatePem) },
    ],
    ROUNDS,
    quick(20, 3),
  );
  reportCase(
    {
      same_signed_document: sameOutput,
      ours_sign: againstFloor(times, 'ours_sign'),
      peer_sign: againstFloor(times, 'peer_sign'),
      ours_pipeline: againstFloor(times, 'ours_pipeline'),
      peer_pipeline: againstFloor(times, 'peer_pipeline'),
    },
    before,
  );
}

function installedVersion(name: string): string | null {
  try {
    require.resolve(name);
  } catch {
    return null;
  }
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

// ---- child process: run one case and leave ----
if (CHILD_CASE) {
  const [kind, arg] = CHILD_CASE.split(':');
  if (kind === 'type') await typeCase(arg as EcfType);
  else if (kind === 'big') await bigCase(BIG.find((b) => b.key === arg)!);
  else if (kind === 'peers') await peersCase();
  else throw new Error(`unknown case ${CHILD_CASE}`);
  process.exit(0);
}

// ---- parent: check every document, then one child per case ----
const xsdDir = process.env.ECF_XSD_DIR ? resolve(process.env.ECF_XSD_DIR) : resolve(root, '../shared/dgii-xsd');
const xsd = existsSync(xsdDir) ? createSchemaValidator(xsdDir) : null;
{
  const { signer } = identity();
  const check = async (tipo: EcfType, doc: Record<string, unknown>, lines: number) => {
    const ctx = linesContext(tipo);
    assertValid(tipo, doc, ctx.fecha_emision);
    const signed = await signEcf(buildEcfXmlFromJson(tipo, doc, ctx), signer, clock);
    if (xsd) {
      const v = xsd.validate(signed, `ECF-${tipo}`, { relaxed32: lines > 1000 });
      if (!v.valid) throw new Error(`signed bench document ${tipo} (${lines} lines) fails the XSD: ${JSON.stringify(v.violations.slice(0, 3))}`);
    }
  };
  for (const tipo of ECF_TYPES) await check(tipo, linesDoc(tipo, 10), 10);
  for (const b of BIG) await check(b.tipo, linesDoc(b.tipo, b.lines, b.line, b.fields), b.lines);
  console.log(
    xsd
      ? `documents checked: SDK validation and, signed, the official XSD (${xsdDir})`
      : `documents checked: SDK validation only (no XSD directory at ${xsdDir})`,
  );
}
// A 32 at or above the threshold may not have 10,000 lines (at most 1,000): shown, not timed.
const over10k = safeValidateEcfJson('32', linesDoc('32', 10000, { cantidad: 1, precio_unitario: 25 }, { comprador: BUYER }), {
  fechaEmision: linesContext('32').fecha_emision,
});
const over10kIssues = over10k.success ? [] : over10k.issues.map((i) => i.ruleId ?? i.code);
console.log(
  `type 32, 10,000 lines, RD$250,000 or more: ${over10k.success ? 'valid (unexpected)' : `rejected by validation (${over10kIssues.join(', ')}), not timed; the 1,000-line case stands for it`}`,
);

const byType: Record<string, TypeFigures> = {};
for (const tipo of ECF_TYPES) byType[tipo] = runInChild<TypeFigures>(import.meta.url, `type:${tipo}`);
const big: Record<string, Record<string, unknown> & MemoryFigures> = {};
for (const b of BIG) big[b.key] = runInChild(import.meta.url, `big:${b.key}`);
type PeerFigures = { same_signed_document: boolean } & Record<'ours_sign' | 'peer_sign' | 'ours_pipeline' | 'peer_pipeline', ReturnType<typeof againstFloor>> &
  MemoryFigures;
const xmlCryptoVersion = installedVersion('xml-crypto');
const peerRun = xmlCryptoVersion ? runInChild<PeerFigures>(import.meta.url, 'peers') : null;

console.log(
  `\nvalidate + build + sign, 10 lines, each type in its own process, against the RSA-2048 floor in the same process (${ROUNDS} interleaved rounds; ${machineLine()})`,
);
console.log('| type | ms/doc | docs/s | floor ms | ratio to floor | round ratio median (min–max) | peak RSS MB |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [tipo, r] of Object.entries(byType)) {
  console.log(
    `| ${tipo} ${ECF_TYPE_INFO[tipo as EcfType].nameEn} | ${r.ms_per_doc} | ${r.docs_per_second} | ${r.floor_ms} | ${r.ratio_to_floor}× | ${r.round_ratio.median}× (${r.round_ratio.min}–${r.round_ratio.max}) | ${r.peak_rss_mb} |`,
  );
}
const worst = Math.max(...Object.values(byType).map((r) => r.ratio_to_floor));
console.log(`highest ratio to floor: ${worst}× (target ≤ ${TARGET_RATIO_MAX}×: ${worst <= TARGET_RATIO_MAX ? 'met' : 'NOT met'})`);

console.log('\nLarge documents, validate + build + sign, each in its own process');
console.log('| document | ms/doc | validate + build ms | sign ms | signed KiB | iterations | peak RSS MB | RSS before MB |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const b of BIG) {
  const r = big[b.key]!;
  console.log(
    `| ${b.title} | ${r.ms_per_doc} | ${r.validate_build_ms} | ${r.sign_ms} | ${round(Number(r.signed_bytes) / 1024, 1)} | ${r.iterations} | ${r.peak_rss_mb} | ${r.rss_before_mb} |`,
  );
}

const peers: Record<string, Record<string, unknown>> = {};
if (peerRun && xmlCryptoVersion) {
  peers['xml-crypto'] = {
    installed: true,
    version: xmlCryptoVersion,
    timed: true,
    step: 'signing (enveloped XMLDSig: C14N, SHA-256 digest, RSA-SHA256) of the same built 10-line 31, FechaHoraFirma stamped',
    same_signed_document: peerRun.same_signed_document,
    sign: peerRun.peer_sign,
    ecf_kit_sign: peerRun.ours_sign,
    pipeline_with_peer_signing: peerRun.peer_pipeline,
    ecf_kit_pipeline: peerRun.ours_pipeline,
    peak_rss_mb: peerRun.peak_rss_mb,
    rss_before_mb: peerRun.rss_before_mb,
    memory_scope: peerRun.memory_scope,
  };
  console.log(
    `\nPeer for signing: xml-crypto ${xmlCryptoVersion} (same signed bytes as ecf-kit: ${peerRun.same_signed_document}), one process, ${ROUNDS} interleaved rounds`,
  );
  console.log('| step | ms/doc | docs/s | ratio to floor |');
  console.log('|---|---:|---:|---:|');
  const rows: [string, ReturnType<typeof againstFloor>][] = [
    ['sign, ecf-kit (signEcf)', peerRun.ours_sign],
    [`sign, xml-crypto ${xmlCryptoVersion} (computeSignature)`, peerRun.peer_sign],
    ['validate + build + sign, ecf-kit', peerRun.ours_pipeline],
    [`validate + build (ecf-kit) + sign (xml-crypto ${xmlCryptoVersion})`, peerRun.peer_pipeline],
  ];
  for (const [name, r] of rows) console.log(`| ${name} | ${r.ms_per_doc} | ${r.docs_per_second} | ${r.ratio_to_floor}× |`);
  console.log(`floor in that process: ${peerRun.ours_sign.floor_ms} ms; peak RSS ${peerRun.peak_rss_mb} MB`);
} else {
  peers['xml-crypto'] = { installed: false, timed: false };
  console.log('peer xml-crypto: not installed, not timed');
}
for (const name of ECF_PEERS) {
  const version = installedVersion(name);
  peers[name] = version ? { installed: true, version, timed: false, note: 'installed, but ecf-kit knows no equivalent API to time' } : { installed: false };
  console.log(`peer ${name}: ${version ? `installed (${version}), no known API to time` : 'not installed, not timed'}`);
}

const t31 = byType['31']!;
writeResults('pipeline.json', {
  pipeline_31_10_lines: {
    docs_per_second: t31.docs_per_second,
    ms_per_doc: t31.ms_per_doc,
    floor_docs_per_second: t31.floor_docs_per_second,
    floor_ms: t31.floor_ms,
    ratio_to_floor: t31.ratio_to_floor,
    target_ratio_max: TARGET_RATIO_MAX,
    round_ratio: t31.round_ratio,
    peak_rss_mb: t31.peak_rss_mb,
    rss_before_mb: t31.rss_before_mb,
    memory_scope: t31.memory_scope,
  },
  by_type: byType,
  big_documents: {
    ...big,
    '32_10000_lines_over_threshold': {
      timed: false,
      valid: over10k.success,
      issues: over10kIssues,
      note: 'a type 32 of RD$250,000 or more admits at most 1,000 lines',
    },
  },
  peers,
  method:
    'floor = node:crypto RSA-2048 SHA-256 signature of a 32-byte digest, timed in the same process in alternating rounds; ms_per_doc and floor_ms are per-round medians; ratio_to_floor = ms_per_doc / floor_ms',
  xsd_checked: xsd !== null,
});

/**
 * Event-loop freedom of the reference server under heavy documents (issue 13, items 3, 4, 8): the p50/p99 of a
 * cheap GET (GET /api/v1/statuses, sequential) while big documents are processed in parallel:
 * - `pdf`: PDFs of three different accepted type-32 documents of LINES lines requested at once, twice (the
 *   second round is served by the PDF cache);
 * - `issue`: three LINES-line type-32 documents issued (JSON) and taken by the in-process worker through
 *   sign → self-verify → XSD → RFCE derivation (until each leaves `received`/`signed`, or WINDOW_S).
 * The server runs in its own process (src/ecf/server/start.ts, in-process simulator). Run on a checkout of the
 * code before the offload pool to get the "before" figures (`ECF_OFFLOAD_PROCESSES=0` is also "in-process").
 * `npx tsx bench/offload.ts` (BENCH_LINES, default 10000; BENCH_WINDOW_S, default 60)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEcfXmlFromJson, formatDateDO } from '../src/ecf/index.js';
import { p12Signer, readP12, signEcf } from '../src/ecf/sign/index.js';
import { createSelfSignedIdentity } from '../src/shared/xmldsig/self-signed.js';
import { openStorage } from '../src/ecf/server/storage/open.js';
import { generateToken, hashToken } from '../src/shared/server-kit/tokens.js';
import { linesContext, linesDoc } from './docs.js';
import { machineLine, round, startServerProcess, writeResults } from './lib.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const XSD_DIR = process.env.ECF_XSD_DIR ?? resolve(root, '../shared/dgii-xsd');
const LINES = Number(process.env.BENCH_LINES ?? 10_000);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 60);
const PARALLEL = 3;
const RNC = '101672919';

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!, 1) : NaN;
}

let resets = 0;
async function probe(url: string, auth: Record<string, string>, until: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (!until()) {
    const t = performance.now();
    try {
      const r = await fetch(url, { headers: auth });
      await r.arrayBuffer();
    } catch {
      // A keep-alive socket closed by a server whose loop was blocked past its keep-alive timeout: count the
      // wait anyway (the request was not served) and go on with a new connection.
      resets++;
    }
    out.push(performance.now() - t);
  }
  return out;
}

const dataDir = mkdtempSync(join(tmpdir(), 'ecf-bench-offload-'));
const storage = await openStorage({ dataDir });
const issuer = await storage.createIssuer({
  rnc: RNC,
  name: 'Emisor SRL',
  profile: { razon_social: 'Emisor SRL', direccion: 'Calle 1' },
  signingMode: 'provider',
});
const token = generateToken();
await storage.addToken(issuer.id, hashToken(token));
await storage.addSequence(issuer.id, { tipo: '32', from: 1, to: 1000, expiresOn: null });
const id = createSelfSignedIdentity({ commonName: 'EMISOR', serialNumber: RNC });
const signer = p12Signer(readP12(id.p12, id.password));
const doc = linesDoc('32', LINES, { cantidad: 1, precio_unitario: 10 });
const accepted: string[] = [];
for (let i = 0; i < PARALLEL; i++) {
  const fecha = formatDateDO(new Date());
  const rec = await storage.reserveAndInsert(issuer.id, '32', new Date().toISOString().slice(0, 10), (encf) => ({
    source: 'json',
    unsignedXml: buildEcfXmlFromJson('32', doc, {
      ...linesContext('32'),
      emisor: { rnc: RNC, razon_social: 'Emisor SRL', direccion: 'Calle 1' },
      encf,
      fecha_emision: fecha,
    }),
    summary: true,
    issuedAt: fecha,
    totalAmount: '1.00',
    totalItbis: '0.00',
  }));
  await storage.updateDocument(rec!.id, {
    status: 'accepted_authority',
    transmission: 'sent',
    signedXml: await signEcf(rec!.unsignedXml, signer, () => new Date()),
  });
  accepted.push(rec!.encf);
}
await storage.close();

const server = await startServerProcess(
  {
    PORT: '0',
    HOST: '127.0.0.1',
    ECF_DATA_DIR: dataDir,
    ECF_XSD_DIR: XSD_DIR,
    ECF_CERT_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    ECF_MAX_JSON_BYTES: '64MB',
    NODE_ENV: undefined,
    ECF_AUTHORITY: undefined,
  },
  join(dataDir, 'server.log'),
  { stopTimeoutMs: 120_000 },
);
const auth = { authorization: `Bearer ${token}` };
const cheap = `${server.url}/api/v1/statuses`;
const results: Record<string, unknown> = { lines: LINES, parallel: PARALLEL, offload_processes: process.env.ECF_OFFLOAD_PROCESSES ?? 'default' };
try {
  const idle = await probe(
    cheap,
    auth,
    (
      (n) => () =>
        n++ >= 50
    )(0),
  );
  results.idle = { p50_ms: pct(idle, 50), p99_ms: pct(idle, 99) };

  for (const round_ of ['pdf_first', 'pdf_cached']) {
    let finished = 0;
    const t = performance.now();
    const heavy = accepted.map((e) =>
      fetch(`${server.url}/api/v1/documents/${e}/pdf`, { headers: auth })
        .then(
          async (r) => {
            await r.arrayBuffer();
            return r.status as number | string;
          },
          () => 'reset',
        )
        .finally(() => {
          finished++;
        }),
    );
    const lat = await probe(cheap, auth, () => finished === PARALLEL);
    const statuses = await Promise.all(heavy);
    results[round_] = {
      seconds: round((performance.now() - t) / 1000, 2),
      statuses,
      gets: lat.length,
      p50_ms: pct(lat, 50),
      p99_ms: pct(lat, 99),
      max_ms: pct(lat, 100),
    };
  }

  const body = JSON.stringify(doc);
  const t = performance.now();
  const issued = await Promise.all(
    Array.from({ length: PARALLEL }, () =>
      fetch(`${server.url}/api/v1/documents/32`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body }).then(
        async (r) => (await r.json()).document?.e_ncf as string,
        () => null,
      ),
    ),
  );
  let settled = false;
  const watcher = (async () => {
    const deadline = Date.now() + WINDOW_S * 1000;
    while (Date.now() < deadline) {
      const states = await Promise.all(
        issued
          .filter((e) => e !== null)
          .map(async (e) => {
            try {
              return (await (await fetch(`${server.url}/api/v1/documents/${e}`, { headers: auth })).json()).document?.status as string;
            } catch {
              return 'received';
            }
          }),
      );
      if (states.every((s) => s !== 'received')) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    settled = true;
  })();
  const lat = await probe(cheap, auth, () => settled);
  await watcher;
  results.issue_and_process = {
    seconds: round((performance.now() - t) / 1000, 2),
    gets: lat.length,
    p50_ms: pct(lat, 50),
    p99_ms: pct(lat, 99),
    max_ms: pct(lat, 100),
  };
} finally {
  console.log(
    (await import('node:fs'))
      .readFileSync(join(dataDir, 'server.log'), 'utf8')
      .split('\n')
      .filter((l) => /"level":(40|50|60)|Error|exit/.test(l))
      .slice(-5)
      .join('\n'),
  );
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
results.connection_resets = resets;
console.log(`cheap GET during heavy documents (${LINES}-line type 32, ${PARALLEL} in parallel; ${machineLine()})`);
console.log(JSON.stringify(results, null, 2));
results.connection_resets = resets;
writeResults(process.env.BENCH_OFFLOAD_OUT ?? 'offload.json', results);

/**
 * What only the wire shows, against a real server process (`node src/ecf/server/start.ts` via bench/lib.ts
 * startServerProcess: SQLite in a temp dir, in-process simulator, worker off, info logs to a file):
 * bodies far over the size limits (50 MB, declared or chunked) refused with 413 before they are all sent, the
 * server's memory while they arrive, chunked bodies without Content-Length, invalid UTF-8 raw bytes in bodies,
 * headers and request targets, slow bodies that must not hold up other requests, inputs that used to hang the
 * process (catastrophic regex backtracking), XML entity attacks with the memory watched, and no 500 in the log.
 *
 * No timing assertions: "before it was all sent" is an ordering (the answer arrives while the client still
 * holds the rest of the body back); waits are liveness bounds far above what the requests need.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../../bench/lib.js';
import { openStorage } from '../../../src/ecf/server/storage/open.js';
import { generateToken, hashToken } from '../../../src/shared/server-kit/tokens.js';
import { buildEcfXmlFromJson } from '../../../src/ecf/index.js';
import { createSelfSignedIdentity, signEcf, signXml } from '../../../src/ecf/sign/index.js';
import { baseContext, baseDoc } from '../helpers/docs.js';
import { xsdDir } from '../helpers/env.js';
import { entityPayloads, multipart } from './hostile/arbitraries.js';
import { expectApiAnswer, expectInboundAnswer } from './hostile/oracle.js';
import { MAIN_PROFILE, startCanary, type Canary } from './hostile/world.js';

const MB = 1024 * 1024;
/** Liveness bound: any answer here takes milliseconds; only a hang gets near it. */
const LIVENESS_MS = 60_000;

let dir: string;
let server: ServerProcess;
let token: string;
let inboundToken: string;
let canary: Canary;
let base: URL;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ecf-hostile-wire-'));
  canary = await startCanary();
  const storage = await openStorage({ dataDir: dir });
  try {
    const issuer = await storage.createIssuer({ rnc: MAIN_PROFILE.rnc!, name: MAIN_PROFILE.razon_social!, profile: MAIN_PROFILE, signingMode: 'provider' });
    token = generateToken();
    await storage.addToken(issuer.id, hashToken(token), 'hostile-wire');
    await storage.addSequence(issuer.id, { tipo: '31', from: 1, to: 100_000, expiresOn: '2099-12-31' });
  } finally {
    await storage.close();
  }
  server = await startServerProcess(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      ECF_DATA_DIR: dir,
      ECF_XSD_DIR: xsdDir(),
      ECF_WORKER: 'off',
      LOG_LEVEL: 'info',
      ECF_MAX_JSON_BYTES: undefined,
      ECF_MAX_XML_BYTES: undefined,
      DATABASE_URL: undefined,
      ECF_AUTHORITY: undefined,
    },
    join(dir, 'server.log'),
  );
  base = new URL(server.url);
  // An inbound token: the seed flow with a self-signed certificate, over the wire.
  const remote = createSelfSignedIdentity({ commonName: 'EMISOR REMOTO CABLE', serialNumber: '101672919', now: new Date(Date.now() - 86_400_000), days: 30 });
  const seed = await (await fetch(`${server.url}/fe/autenticacion/api/semilla`)).text();
  const form = new FormData();
  form.append('xml', new Blob([await signXml(seed, remote.signer)], { type: 'text/xml' }), 'semilla.xml');
  const login = await fetch(`${server.url}/fe/autenticacion/api/validacioncertificado`, {
    method: 'POST',
    body: form,
    headers: { accept: 'application/json' },
  });
  expect(login.status).toBe(200);
  inboundToken = ((await login.json()) as { token: string }).token;
}, 120_000);

afterAll(async () => {
  const code = await server?.stop();
  await canary?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  expect(code).toBe(0);
});

/** Resident set size of the server process now (MB). */
function rssMb(): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** Samples the server's RSS every 10 ms while `fn` runs; returns its result and the growth over the starting RSS. */
async function watchingMemory<T>(fn: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const start = rssMb();
  let peak = start;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb());
    } catch {
      // process gone: the assertions after will say so
    }
  }, 10);
  try {
    const result = await fn();
    peak = Math.max(peak, rssMb());
    return { result, growthMb: peak - start };
  } finally {
    clearInterval(timer);
  }
}

interface Streamed {
  status: number | null;
  body: string;
  contentType: string;
  /** Body bytes the client had written when the answer arrived. */
  writtenAtAnswer: number;
  /** True when the answer arrived while the client was still holding the rest of the body back. */
  answeredWhileHeld: boolean;
  error: string | null;
}

/**
 * POSTs a body of `total` bytes (declared in Content-Length, or chunked) but writes at most `sendAtMost`
 * bytes, then holds the rest back. A server that refuses early answers while the body is held; one that
 * waits for the whole body never answers (LIVENESS_MS).
 */
function postHeld(
  path: string,
  opts: { total: number; sendAtMost: number; chunked: boolean; contentType: string; auth?: string; fill?: number },
): Promise<Streamed> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { 'content-type': opts.contentType, ...(opts.auth ? { authorization: opts.auth } : {}) };
    if (!opts.chunked) headers['content-length'] = String(opts.total);
    let written = 0;
    let held = false;
    let settled = false;
    const out: Streamed = { status: null, body: '', contentType: '', writtenAtAnswer: -1, answeredWhileHeld: false, error: null };
    const req = request({ host: base.hostname, port: base.port, path, method: 'POST', headers });
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(out);
    };
    const timer = setTimeout(() => {
      out.error = `no answer within ${LIVENESS_MS} ms while ${written} bytes were sent and the rest held back`;
      finish();
    }, LIVENESS_MS);
    req.on('response', (res: IncomingMessage) => {
      out.status = res.statusCode ?? null;
      out.contentType = String(res.headers['content-type'] ?? '');
      out.writtenAtAnswer = written;
      out.answeredWhileHeld = held || written < opts.total;
      res.setEncoding('utf8');
      res.on('data', (c: string) => (out.body += c));
      res.on('end', finish);
      res.on('error', finish);
    });
    req.on('error', (e) => {
      out.error = out.error ?? e.message;
      if (out.status !== null) return;
      finish();
    });
    const chunk = Buffer.alloc(64 * 1024, opts.fill ?? 0x20);
    const pump = () => {
      while (out.status === null && !settled) {
        if (written >= Math.min(opts.sendAtMost, opts.total)) {
          held = true; // hold the rest back: neither write nor end
          return;
        }
        const ok = req.write(chunk);
        written += chunk.length;
        if (!ok) {
          req.once('drain', pump);
          return;
        }
      }
    };
    req.flushHeaders();
    pump();
  });
}

/**
 * Pushes `total` bytes of chunked body with backpressure and does not stop at the answer: it keeps writing
 * until everything is written or the server closes the connection.
 */
function streamWhole(path: string, total: number, auth: string): Promise<{ status: number | null; written: number }> {
  return new Promise((resolve) => {
    let status: number | null = null;
    let written = 0;
    let done = false;
    const timer = setTimeout(() => end(), LIVENESS_MS);
    const end = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ status, written });
    };
    const req = request({ host: base.hostname, port: base.port, path, method: 'POST', headers: { 'content-type': 'application/json', authorization: auth } });
    req.on('response', (res) => {
      status = res.statusCode ?? null;
      res.resume();
    });
    req.on('error', end);
    req.on('close', end);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!done && written < total) {
        const ok = req.write(chunk);
        written += chunk.length;
        if (!ok) {
          req.once('drain', pump);
          return;
        }
      }
      if (!done) req.end(() => setTimeout(end, 200));
    };
    req.flushHeaders();
    pump();
  });
}

/** Sends raw bytes on a fresh connection and returns what came back (latin1) when the server closes. */
function raw(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(Number(base.port), base.hostname, () => s.write(bytes));
    let got = Buffer.alloc(0);
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error('no answer on the raw connection'));
    }, LIVENESS_MS);
    s.on('data', (c: Buffer) => {
      got = Buffer.concat([got, c]);
    });
    s.on('close', () => {
      clearTimeout(timer);
      resolve(got.toString('latin1'));
    });
    s.on('error', () => undefined);
  });
}

const bytes = (...parts: (string | number[] | Buffer)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

function parseRaw(text: string): { status: number; headers: string; body: string } {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: rest.join('\r\n\r\n') };
}

const answer = (s: { status: number | null; body: string; contentType: string }) => ({
  status: s.status ?? 0,
  contentType: s.contentType,
  text: s.body,
  json: s.contentType.includes('json') && s.body ? JSON.parse(s.body) : null,
});

const statusesOk = async () =>
  (await fetch(`${server.url}/api/v1/statuses`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(LIVENESS_MS) })).status;

describe('bodies far over the size limit (50 MB)', () => {
  const routes: { name: string; path: string; contentType: string; auth: () => string | undefined; inbound: boolean }[] = [
    { name: 'issue JSON', path: '/api/v1/documents/31', contentType: 'application/json', auth: () => `Bearer ${token}`, inbound: false },
    { name: 'issue XML', path: '/api/v1/documents/31', contentType: 'application/xml', auth: () => `Bearer ${token}`, inbound: false },
    { name: 'voiding', path: '/api/v1/voided-sequences', contentType: 'application/json', auth: () => `Bearer ${token}`, inbound: false },
    { name: 'certificate', path: '/api/v1/certificate', contentType: 'multipart/form-data; boundary=x', auth: () => `Bearer ${token}`, inbound: false },
    {
      name: 'commercial approval',
      path: '/api/v1/received-documents/E310000000001/commercial-approval',
      contentType: 'application/json',
      auth: () => `Bearer ${token}`,
      inbound: false,
    },
    {
      name: 'validacioncertificado',
      path: '/fe/autenticacion/api/validacioncertificado',
      contentType: 'multipart/form-data; boundary=x',
      auth: () => undefined,
      inbound: true,
    },
    { name: 'recepcion', path: '/fe/recepcion/api/ecf', contentType: 'multipart/form-data; boundary=x', auth: () => `Bearer ${inboundToken}`, inbound: true },
    {
      name: 'aprobacioncomercial',
      path: '/fe/aprobacioncomercial/api/ecf',
      contentType: 'multipart/form-data; boundary=x',
      auth: () => `Bearer ${inboundToken}`,
      inbound: true,
    },
  ];

  // First, on a fresh server: its resident memory has not been raised by earlier requests yet.
  it('are not buffered whole: the server grows by less than the body while a client pushes all 50 MB regardless of the answer', async () => {
    const { result, growthMb } = await watchingMemory(() => streamWhole('/api/v1/documents/31', 50 * MB, `Bearer ${token}`));
    console.log(
      `[hostile-wire] RSS growth while a client pushed a 50 MB chunked body: ${growthMb.toFixed(1)} MB (answered ${result.status}; ${(result.written / MB).toFixed(1)} MB written before the server stopped taking it)`,
    );
    expect(result.status).toBe(413);
    expect(growthMb, 'a server that buffered the 50 MB body would grow by at least 50 MB').toBeLessThan(50);
    expect(await statusesOk()).toBe(200);
  }, 240_000);

  for (const chunked of [false, true]) {
    it(`are refused with 413 before they are all sent (${chunked ? 'chunked, no Content-Length' : 'declared in Content-Length'})`, async () => {
      const figures: string[] = [];
      for (const r of routes) {
        // Declared: nothing of the body is needed to refuse it. Chunked: the server must read past its limit
        // (at most 12 MB here), so the client sends 16 MB and holds the other 34 MB back.
        const s = await postHeld(r.path, { total: 50 * MB, sendAtMost: chunked ? 16 * MB : 0, chunked, contentType: r.contentType, auth: r.auth() });
        const what = `${r.name} (${chunked ? 'chunked' : 'Content-Length'})`;
        expect(s.error === null || s.status !== null, `${what}: ${s.error}`).toBe(true);
        expect(s.status, `${what}: ${s.body.slice(0, 200)}`).toBe(413);
        expect(s.answeredWhileHeld, `${what}: answered before the whole body was sent`).toBe(true);
        expect(s.writtenAtAnswer, what).toBeLessThan(50 * MB);
        if (r.inbound)
          expectInboundAnswer(
            r.name === 'validacioncertificado' ? 'validacioncertificado' : r.name === 'recepcion' ? 'recepcion' : 'aprobacioncomercial',
            answer(s),
            what,
          );
        else expectApiAnswer('POST', r.path, answer(s), what);
        figures.push(`${r.name} ${(s.writtenAtAnswer / MB).toFixed(1)} MB`);
      }
      console.log(`[hostile-wire] 413 answered after (${chunked ? 'chunked' : 'declared'}): ${figures.join('; ')}`);
      expect(await statusesOk()).toBe(200);
    }, 240_000);
  }
});

describe('raw bytes on the wire', () => {
  it('answers invalid UTF-8 in bodies and headers with the documented envelope', async () => {
    const auth = `Authorization: Bearer ${token}\r\n`;
    const post = (path: string, contentType: string, body: Buffer, extra = auth) =>
      bytes(`POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n${extra}\r\n`, body);
    const cases: { name: string; req: Buffer; path: string; status: number }[] = [
      {
        name: 'JSON body',
        path: '/api/v1/documents/31',
        req: post('/api/v1/documents/31', 'application/json', bytes('{"id_doc":"', [0xff, 0xfe, 0xc3], '"}')),
        status: 422,
      },
      {
        name: 'XML body',
        path: '/api/v1/documents/31',
        req: post('/api/v1/documents/31', 'application/xml', bytes('<ECF><Encabezado>', [0xc0, 0xaf, 0xed, 0xa0, 0x80], '</Encabezado></ECF>')),
        status: 422,
      },
      {
        name: 'voiding body',
        path: '/api/v1/voided-sequences',
        req: post('/api/v1/voided-sequences', 'application/json', bytes('{"rangos":"', [0xf4, 0x90, 0x80, 0x80], '"}')),
        status: 422,
      },
      { name: 'overlong BOM', path: '/api/v1/documents/31', req: post('/api/v1/documents/31', 'application/json', bytes([0xef, 0xbb], '{}')), status: 422 },
      {
        name: 'token bytes',
        path: '/api/v1/statuses',
        req: bytes('GET /api/v1/statuses HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ', [0xff, 0xfe, 0x80, 0xc3], '\r\n\r\n'),
        status: 401,
      },
      {
        name: 'content type bytes',
        path: '/api/v1/documents/31',
        req: post('/api/v1/documents/31', bytes('application/json; charset=', [0xff]).toString('latin1'), Buffer.from('{}')),
        status: 415,
      },
    ];
    for (const c of cases) {
      const r = parseRaw(await raw(c.req));
      expect(r.status, `${c.name}: ${r.headers}\n${r.body.slice(0, 200)}`).toBe(c.status);
      expectApiAnswer(
        c.path.includes('statuses') ? 'GET' : 'POST',
        c.path,
        {
          status: r.status,
          contentType: /content-type: ([^\r\n]+)/i.exec(r.headers)?.[1] ?? '',
          text: r.body,
          json: JSON.parse(Buffer.from(r.body, 'latin1').toString('utf8')),
        },
        c.name,
      );
    }
    // The same bytes in a multipart upload to the receptor: refused as input, never a 500.
    const form = multipart([{ name: 'xml', fileName: 'x.xml', content: bytes('<SemillaModel><valor>', [0xff, 0xfe], '</valor></SemillaModel>') }], 'none');
    const r = parseRaw(await raw(post('/fe/autenticacion/api/validacioncertificado', form.contentType, Buffer.from(form.body), '')));
    expect([400, 401], `${r.headers}\n${r.body}`).toContain(r.status);
  });

  it('leaves malformed HTTP (raw bytes in the request target, broken chunk framing, conflicting lengths) to the HTTP server and keeps serving', async () => {
    const cases = [
      bytes('GET /api/v1/documents/E31', [0xff, 0xfe], ` HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\n\r\n`),
      bytes('GET /fe/autenticacion/api/semilla', [0xc3, 0x28], ' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      bytes(
        `POST /api/v1/documents/31 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nAuthorization: Bearer ${token}\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      ),
      bytes(
        `POST /api/v1/documents/31 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nAuthorization: Bearer ${token}\r\n\r\n0\r\n\r\n`,
      ),
      bytes(
        `POST /api/v1/documents/31 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: -1\r\nAuthorization: Bearer ${token}\r\n\r\n`,
      ),
      bytes(
        `POST /api/v1/documents/31 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 99999999999999999999999\r\nAuthorization: Bearer ${token}\r\n\r\n{}`,
      ),
    ];
    for (const c of cases) {
      const r = parseRaw(await raw(c));
      // Node's HTTP parser refuses these before the app sees them: a bare 400 and the connection closed.
      expect(r.status, r.headers).toBe(400);
      expect(r.headers, 'the app never saw it').not.toMatch(/x-content-type-options/i);
      expect(r.body).toBe('');
    }
    expect(await statusesOk()).toBe(200);
  });
});

describe('chunked and slow bodies', () => {
  it('issues from a chunked body without Content-Length, in many small pieces', async () => {
    const text = JSON.stringify(baseDoc('31'));
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          path: '/api/v1/documents/31',
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        },
        (r) => {
          let body = '';
          r.setEncoding('utf8');
          r.on('data', (c: string) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < text.length; i += 7) req.write(text.slice(i, i + 7));
      req.end();
    });
    expect(res.status, res.body).toBe(202);
    expect(JSON.parse(res.body).document.e_ncf).toMatch(/^E310000000\d{3}$/);
  });

  it('serves other requests while a slow body trickles in, then answers it normally', async () => {
    const text = JSON.stringify(baseDoc('31'));
    const order: string[] = [];
    let secondHalf: () => void = () => undefined;
    const slow = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          path: '/api/v1/documents/31',
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': String(Buffer.byteLength(text)) },
        },
        (r) => {
          let body = '';
          r.setEncoding('utf8');
          r.on('data', (c: string) => (body += c));
          r.on('end', () => {
            order.push('slow');
            resolve({ status: r.statusCode ?? 0, body });
          });
        },
      );
      req.on('error', reject);
      // The first half now; the second half, in pieces, only once the other requests were answered.
      req.write(text.slice(0, text.length / 2));
      secondHalf = () => {
        const rest = text.slice(text.length / 2);
        let i = 0;
        const next = () => {
          if (i >= rest.length) return req.end();
          req.write(rest.slice(i, i + 16));
          i += 16;
          setTimeout(next, 20);
        };
        next();
      };
    });
    await new Promise((r) => setTimeout(r, 100));
    for (let k = 0; k < 5; k++) {
      expect(await statusesOk()).toBe(200);
      order.push('statuses');
    }
    secondHalf();
    const s = await slow;
    expect(s.status, s.body).toBe(202);
    expect(order.indexOf('slow'), `order: ${order.join(', ')}`).toBe(order.length - 1);
  });
});

describe('inputs that used to hang the process', () => {
  it('answers them, and keeps answering others meanwhile', async () => {
    const attrs = (n: number) => Array.from({ length: n }, (_, i) => `a${i}="x"`).join(' ');
    const bodies: { name: string; path: string; body: string | Uint8Array; contentType?: string; auth?: string }[] = [
      { name: 'line breaks without a boundary', path: '/fe/autenticacion/api/validacioncertificado', body: `${'\n'.repeat(60)}x` },
      { name: 'CRLFs without a boundary', path: '/fe/autenticacion/api/validacioncertificado', body: `${'\r\n'.repeat(60)}x` },
      {
        name: 'seed with 5,000 attributes',
        path: '/fe/autenticacion/api/validacioncertificado',
        body: `<SemillaModel ${attrs(5_000)}><valor>x</valor><fecha>2026-04-01T10:00:00</fecha></SemillaModel>`,
        contentType: 'application/xml',
      },
      {
        name: 'e-CF with 500,000 attributes',
        path: '/api/v1/documents/31',
        body: `<ECF ${attrs(500_000)}><Encabezado/></ECF>`,
        contentType: 'application/xml',
        auth: `Bearer ${token}`,
      },
      {
        name: 'unparseable e-CF with 2 MB of spaces',
        path: '/fe/recepcion/api/ecf',
        body: multipart(
          [{ name: 'xml', fileName: 'x.xml', content: `<ECF><IdDoc><eNCF>${' '.repeat(2 * MB)}x<RNCComprador>${MAIN_PROFILE.rnc}</RNCComprador>` }],
          'none',
        ).body,
        contentType: 'multipart/form-data; boundary=ecfHostileBoundary7MA4YWxk',
        auth: `Bearer ${inboundToken}`,
      },
      {
        name: 'JSON 6 million levels deep',
        path: '/api/v1/documents/31',
        body: `${'['.repeat(6_000_000)}${']'.repeat(6_000_000)}`,
        contentType: 'application/json',
        auth: `Bearer ${token}`,
      },
      {
        name: 'JSON with 3 million empty lines',
        path: '/api/v1/documents/32',
        body: JSON.stringify({ ...baseDoc('32'), items: Array.from({ length: 3_000_000 }, () => ({})) }),
        contentType: 'application/json',
        auth: `Bearer ${token}`,
      },
    ];
    // A signed e-CF whose Signature repeats its SignatureValue 30,000 times (11 MB): xml-crypto's lookups are quadratic in that.
    const remote = createSelfSignedIdentity({ commonName: 'EMISOR RELLENO', serialNumber: '101672919', now: new Date(Date.now() - 86_400_000), days: 30 });
    const doc = baseDoc('31');
    doc.comprador = { ...doc.comprador, rnc: MAIN_PROFILE.rnc };
    const signed = await signEcf(buildEcfXmlFromJson('31', doc, { ...baseContext('31'), encf: 'E310000080000' }), remote.signer, () => new Date());
    const padded = signed.replace(/<SignatureValue>[\s\S]*?<\/SignatureValue>/, (m) => m.repeat(30_000));
    bodies.push({
      name: 'signature with 30,000 SignatureValue elements',
      path: '/fe/recepcion/api/ecf',
      body: multipart([{ name: 'xml', fileName: 'x.xml', content: padded }], 'none').body,
      contentType: 'multipart/form-data; boundary=ecfHostileBoundary7MA4YWxk',
      auth: `Bearer ${inboundToken}`,
    });
    for (const b of bodies) {
      const headers: Record<string, string> = {};
      if (b.contentType) headers['content-type'] = b.contentType;
      if (b.auth) headers.authorization = b.auth;
      const pending = fetch(`${server.url}${b.path}`, { method: 'POST', body: b.body as BodyInit, headers, signal: AbortSignal.timeout(LIVENESS_MS) });
      const other = await statusesOk();
      const res = await pending;
      const text = await res.text();
      expect(other, b.name).toBe(200);
      if (b.path === '/fe/recepcion/api/ecf' && res.status === 200) expect(text, `${b.name}: acknowledged as not received`).toMatch(/<Estado>1<\/Estado>/);
      else expect([400, 413, 422], `${b.name}: ${res.status} ${text.slice(0, 200)}`).toContain(res.status);
      expect(res.status === 413 || !/Error interno/.test(text), b.name).toBe(true);
    }
  }, 300_000);
});

describe('XML entity attacks over the wire', () => {
  it('are refused without expansion or outbound requests, with the memory bounded', async () => {
    const xml = buildEcfXmlFromJson('31', baseDoc('31'), {
      ...baseContext('31'),
      emisor: { ...baseContext('31').emisor, ...MAIN_PROFILE } as never,
      encf: 'E310000090000',
    });
    const { result, growthMb } = await watchingMemory(async () => {
      const statuses: number[] = [];
      for (const p of entityPayloads(canary.url)) {
        const body = xml.replace(/^(<\?xml[^>]*\?>)/, `$1${p.prolog}`).replace(/<RazonSocialEmisor>[^<]*/, `<RazonSocialEmisor>${p.reference}`);
        for (let k = 0; k < 5; k++) {
          const res = await fetch(`${server.url}/api/v1/documents/31`, {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/xml', authorization: `Bearer ${token}` },
            signal: AbortSignal.timeout(LIVENESS_MS),
          });
          const text = await res.text();
          expect(text).not.toContain('root:x:0:0');
          statuses.push(res.status);
        }
        const seed = `<?xml version="1.0"?>${p.prolog.replace(/\bECF\b/g, 'SemillaModel')}<SemillaModel><valor>${p.reference}${randomBytes(8).toString('hex')}</valor><fecha>2026-04-01T10:00:00</fecha></SemillaModel>`;
        const form = multipart([{ name: 'xml', fileName: 's.xml', content: seed }], 'none');
        const res = await fetch(`${server.url}/fe/autenticacion/api/validacioncertificado`, {
          method: 'POST',
          body: form.body as BodyInit,
          headers: { 'content-type': form.contentType },
          signal: AbortSignal.timeout(LIVENESS_MS),
        });
        await res.text();
        statuses.push(res.status);
      }
      return statuses;
    });
    console.log(`[hostile-wire] RSS growth over ${result.length} entity attacks: ${growthMb.toFixed(1)} MB`);
    expect(
      result.every((s) => s === 400 || s === 413 || s === 422),
      `statuses ${result.join(',')}`,
    ).toBe(true);
    expect(growthMb, 'an expanded billion laughs would take gigabytes').toBeLessThan(64);
    await new Promise((r) => setTimeout(r, 300));
    expect(canary.hits).toEqual([]);
  }, 120_000);
});

describe('the server log', () => {
  it('records no 500 and no unexpected error for any of the hostile requests above', () => {
    const log = readFileSync(join(dir, 'server.log'), 'utf8');
    const lines = log.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(10);
    const bad = lines.flatMap((l, i) =>
      /"status":5\d\d/.test(l) || /unexpected error|unexpected HTTP exception|inbound service failed/.test(l)
        ? [lines.slice(Math.max(0, i - 3), i + 1).join('\n')]
        : [],
    );
    expect(bad, bad.join('\n---\n').slice(0, 4_000)).toEqual([]);
  });
});

/**
 * Hostile-input fuzzing of the REST API (/api/v1), in process over the real app on SQLite in a temp dir.
 *
 * Properties, for every request:
 * - the status is one the OpenAPI document lists for that operation (an unknown route: 401/404), never 500;
 * - error bodies are the spec's envelope `{status: 'error', message, document}` with a Spanish message and
 *   no internals;
 * - a refused request stores nothing (document / submission / voiding / received / approval / certificate
 *   rows and every sequence pointer, read from the SQLite file itself, are unchanged);
 * - no e-NCF is consumed: each accepted JSON issue gets exactly the next consecutive of its type, also right
 *   after a run of refused ones.
 *
 * Reduced by default (CI); `ECF_RELIABILITY=full` runs many more cases. Seed fixed, printed, `FC_SEED` overrides.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECF_TYPES, type EcfType } from '../../../src/ecf/index.js';
import { createSelfSignedIdentity, signEcf } from '../../../src/ecf/sign/index.js';
import { baseDoc } from '../helpers/docs.js';
import {
  anyTipo,
  authHeader,
  b64,
  damage,
  damageXml,
  formDamage,
  hostileJson,
  hostileString,
  jsonContentType,
  mangledBytes,
  multipart,
  mutatedDoc,
  pathSegment,
  queryString,
  textDamage,
  xmlContentType,
  xmlDamage,
  type Part,
} from './hostile/arbitraries.js';
import { expectApiAnswer, fuzzSeed, read, Slowest, type Answer } from './hostile/oracle.js';
import { createWorld, dataDirText, NOW, XML_FIRST, type Snapshot, type World } from './hostile/world.js';
import { scale } from './mode.js';

const SEED = fuzzSeed('hostile-api');
const RUNS = {
  issueJson: scale(400, 8_000),
  issueXml: scale(300, 6_000),
  queries: scale(400, 8_000),
  voiding: scale(150, 3_000),
  certificate: scale(100, 2_000),
  approval: scale(120, 2_000),
};
const params = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });
/** Per property: a safety net far above the reduced form's few seconds; the full form runs long. */
const TIMEOUT = scale(110_000, 3_600_000);

let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 120_000);
afterAll(async () => {
  await w?.close();
});

interface Call {
  method: string;
  path: string;
  body?: string | Uint8Array | null;
  contentType?: string | null;
  auth?: string | null;
  accept?: string;
}

async function send(c: Call): Promise<Answer> {
  const headers = new Headers();
  if (c.contentType !== undefined && c.contentType !== null) headers.set('content-type', c.contentType);
  if (c.auth !== undefined && c.auth !== null) headers.set('authorization', c.auth);
  if (c.accept) headers.set('accept', c.accept);
  const init: RequestInit = { method: c.method, headers };
  if (c.body !== undefined && c.body !== null && c.method !== 'GET' && c.method !== 'HEAD') init.body = c.body as BodyInit;
  return read(await w.request(c.path, init));
}

const pathnameOf = (path: string) => new URL(path, 'http://x').pathname;
const label = (c: Call, extra: string) => `${c.method} ${c.path.slice(0, 120)} [${extra}] ct=${String(c.contentType)} auth=${String(c.auth).slice(0, 40)}`;
const pad = (n: number) => String(n).padStart(10, '0');

/** The next JSON e-NCF of each type, per issuer id, from storage. */
async function nextNumbers(): Promise<Map<number, Map<EcfType, number>>> {
  const out = new Map<number, Map<EcfType, number>>();
  for (const party of [w.main, w.voider, w.holder]) {
    const seqs = await w.storage.listSequences(party.issuer.id);
    out.set(party.issuer.id, new Map(seqs.map((s) => [s.tipo, s.next])));
  }
  return out;
}

/** The issuer a new document went to (the token decides; another issuer's token is among the fuzzed ones). */
async function holderOf(documentId: number): Promise<number> {
  const d = await w.storage.getDocument(documentId);
  if (!d) throw new Error(`document ${documentId} not stored`);
  return d.issuerId;
}

function expectUnchanged(before: Snapshot, after: Snapshot, what: string): void {
  expect(after, `${what}: nothing stored or consumed`).toEqual(before);
}

describe('POST /api/v1/documents/{tipo} with hostile JSON', () => {
  it(
    'answers only documented statuses, stores nothing when refusing, and never skips a number',
    async () => {
      const next = await nextNumbers();
      const statuses = new Map<number, number>();
      const slow = new Slowest();
      const arb = anyTipo.chain((tipo) =>
        fc.record({
          tipo: fc.constant(tipo),
          route: fc.oneof({ weight: 9, arbitrary: fc.constant<string>(tipo) }, { weight: 1, arbitrary: pathSegment(ECF_TYPES) }),
          body: fc.oneof({ weight: 5, arbitrary: mutatedDoc(tipo) }, { weight: 1, arbitrary: hostileJson.map((doc) => ({ doc, changes: ['random value'] })) }),
          damage: textDamage,
          contentType: jsonContentType,
          auth: authHeader(w.main.token, w.voider.token),
        }),
      );
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          const text = JSON.stringify(x.body.doc) ?? 'null';
          const call: Call = { method: 'POST', path: `/api/v1/documents/${x.route}`, body: damage(text, x.damage), contentType: x.contentType, auth: x.auth };
          const what = label(call, `${x.body.changes.join(', ')}; ${x.damage.kind}`);
          const before = w.snapshot();
          const a = await slow.time(
            () => what,
            () => send(call),
          );
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          expectApiAnswer('POST', pathnameOf(call.path), a, what);
          const after = w.snapshot();
          if (a.status !== 202) return expectUnchanged(before, after, what);
          const d = a.json.document;
          expect(d.ecf_type_code, what).toBe(x.route);
          const tipo = d.ecf_type_code as EcfType;
          const mine = next.get(await holderOf(d.document_id))!;
          expect(d.e_ncf, `${what}: the very next number`).toBe(`E${tipo}${pad(mine.get(tipo)!)}`);
          mine.set(tipo, mine.get(tipo)! + 1);
          expect(after.documents, what).toBe(before.documents + 1);
        }),
        params(RUNS.issueJson),
      );

      // After the run of (mostly) refused requests, each type still issues its very next consecutive.
      for (const tipo of ECF_TYPES) {
        const a = await send({
          method: 'POST',
          path: `/api/v1/documents/${tipo}`,
          body: JSON.stringify(baseDoc(tipo)),
          contentType: 'application/json',
          auth: `Bearer ${w.main.token}`,
        });
        expect(a.status, `type ${tipo}: ${a.text.slice(0, 300)}`).toBe(202);
        expect(a.json.document.e_ncf).toBe(`E${tipo}${pad(next.get(w.main.issuer.id)!.get(tipo)!)}`);
      }
      console.log(`[hostile-api] issue JSON statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(`[slowest] issue JSON: ${slow}`);
      expect(statuses.get(422) ?? 0, 'the fuzzer reached validation').toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});

describe('POST /api/v1/documents/{tipo} with hostile XML (passthrough)', () => {
  it(
    'answers only documented statuses, stores nothing when refusing, stores the XML as sent when accepting, and never reaches out',
    async () => {
      const statuses = new Map<number, number>();
      const slow = new Slowest();
      const arb = anyTipo.chain((tipo) =>
        fc.record({
          tipo: fc.constant(tipo),
          route: fc.oneof({ weight: 9, arbitrary: fc.constant<string>(tipo) }, { weight: 1, arbitrary: pathSegment(ECF_TYPES) }),
          n: fc.integer({ min: XML_FIRST, max: XML_FIRST + 400_000 }),
          damages: fc.array(xmlDamage(w.canary.url), { minLength: 1, maxLength: 2 }),
          encoding: fc.constantFrom('utf8', 'utf8', 'utf8', 'utf8', 'utf16le', 'utf16le-bom', 'latin1'),
          contentType: xmlContentType,
          auth: authHeader(w.main.token, w.voider.token),
        }),
      );
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          let xml = w.mainXml(x.tipo, x.n);
          for (const d of x.damages) xml = damageXml(xml, d, w.canary.url);
          const body =
            x.encoding === 'utf8'
              ? xml
              : x.encoding === 'latin1'
                ? new Uint8Array(Buffer.from(xml, 'latin1'))
                : new Uint8Array(Buffer.from(`${x.encoding === 'utf16le-bom' ? '\uFEFF' : ''}${xml}`, 'utf16le'));
          const call: Call = { method: 'POST', path: `/api/v1/documents/${x.route}`, body, contentType: x.contentType, auth: x.auth };
          const what = label(
            call,
            `${x.damages.map((d) => d.kind).join('+')} ${x.encoding} ${b64(typeof body === 'string' ? body.slice(0, 90) : body.subarray(0, 90))}`,
          );
          const before = w.snapshot();
          const a = await slow.time(
            () => what,
            () => send(call),
          );
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          expectApiAnswer('POST', pathnameOf(call.path), a, what);
          expect(a.text, `${what}: no file content echoed`).not.toContain('root:x:0:0');
          expect(w.canary.hits, `${what}: no outbound request`).toEqual([]);
          const after = w.snapshot();
          if (a.status !== 202) return expectUnchanged(before, after, what);
          expect(after.documents, what).toBe(before.documents + 1);
          const stored = await w.storage.getDocumentByEncf(w.main.issuer.id, a.json.document.e_ncf);
          // Byte for byte, but for one leading BOM (TextDecoder drops exactly one, as the service does).
          expect(stored?.unsignedXml, `${what}: stored byte for byte`).toBe(
            new TextDecoder().decode(typeof body === 'string' ? new TextEncoder().encode(body) : body),
          );
        }),
        params(RUNS.issueXml),
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(w.canary.hits).toEqual([]);
      expect(dataDirText(w.dir)).not.toContain('root:x:0:0');
      console.log(`[hostile-api] issue XML statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(`[slowest] issue XML: ${slow}`);
      expect(statuses.get(422) ?? 0).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    'refuses an already signed e-CF, valid or tampered, of every type, consuming nothing',
    async () => {
      const signer = await w.signers.signerFor(w.main.issuer);
      for (const tipo of ECF_TYPES) {
        const signed = await signEcf(w.mainXml(tipo, XML_FIRST - 1), signer, () => NOW);
        const tampered = signed.replace(/<MontoTotal>([^<]*)<\/MontoTotal>/, (_m, v) => `<MontoTotal>${(Number(v) + 1).toFixed(2)}</MontoTotal>`);
        const prefixed = signed
          .replace(/<Signature /, '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" ')
          .replace('</Signature>', '</ds:Signature>');
        for (const [kind, xml] of [
          ['valid', signed],
          ['tampered', tampered],
          ['prefixed', prefixed],
        ] as const) {
          const before = w.snapshot();
          const a = await send({
            method: 'POST',
            path: `/api/v1/documents/${tipo}`,
            body: xml,
            contentType: 'application/xml',
            auth: `Bearer ${w.main.token}`,
          });
          expectApiAnswer('POST', `/api/v1/documents/${tipo}`, a, `signed ${kind} ${tipo}`);
          expect(a.status, `signed ${kind} ${tipo}: ${a.text.slice(0, 300)}`).toBe(422);
          expect(a.json.document.errors.join(' '), `signed ${kind} ${tipo}`).toMatch(/firmado|Signature|esquema|Elemento no esperado/);
          expectUnchanged(before, w.snapshot(), `signed ${kind} ${tipo}`);
        }
      }
    },
    TIMEOUT,
  );
});

/** Read-only routes and unknown routes/methods: GETs never change anything. */
const READ_ROUTES: ((seg: string, q: string) => string)[] = [
  (_s, q) => `/api/v1/documents${q}`,
  (s, q) => `/api/v1/documents/${s}${q}`,
  (s) => `/api/v1/documents/${s}/xml`,
  (s) => `/api/v1/documents/${s}/pdf`,
  (s) => `/api/v1/documents/${s}/track-ids`,
  (s) => `/api/v1/documents/${s}/authority-status`,
  () => '/api/v1/statuses',
  () => '/api/v1/openapi.json',
  () => '/api/v1/docs',
  (_s, q) => `/api/v1/voided-sequences${q}`,
  () => '/api/v1/certificate',
  () => '/api/v1/directory',
  (s) => `/api/v1/directory/${s}`,
  (_s, q) => `/api/v1/received-documents${q}`,
  (s, q) => `/api/v1/received-documents/${s}${q}`,
  (s, q) => `/api/v1/received-documents/${s}/authority-status${q}`,
  (s) => `/api/v1/${s}`,
  (s) => `/api/v1/documents/${s}/${s}`,
  (s) => `/api/v2/documents/${s}`,
  () => '/api/v1/documents/',
  () => '/api/v1//statuses',
];

describe('every query route, unknown routes and wrong methods with hostile parameters and tokens', () => {
  it(
    'answers only documented statuses with the error envelope and changes nothing',
    async () => {
      const statuses = new Map<number, number>();
      const slow = new Slowest();
      const segments = pathSegment([w.acceptedEncf, w.receivedEncf, w.acceptedEncf.toLowerCase(), '131880738', '101672919', '130182452', '31']);
      const arb = fc.record({
        route: fc.nat(READ_ROUTES.length - 1),
        seg: segments,
        query: queryString,
        method: fc.oneof(
          { weight: 8, arbitrary: fc.constant('GET') },
          { weight: 2, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'POST', 'HEAD') },
        ),
        auth: authHeader(w.main.token, w.voider.token),
        accept: fc.constantFrom('application/json', '*/*', 'text/html', 'application/xml', ''),
      });
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          const path = READ_ROUTES[x.route]!(x.seg, x.query);
          const call: Call = {
            method: x.method,
            path,
            auth: x.auth,
            accept: x.accept,
            body: x.method === 'GET' || x.method === 'HEAD' ? null : '{}',
            contentType: 'application/json',
          };
          const what = label(call, 'query');
          // A POST to a route that has one is fuzzed below; here only routes without a POST operation get one.
          if (x.method === 'POST' && /\/(documents\/[^/]+|voided-sequences|certificate|commercial-approval)$/.test(pathnameOf(path))) return;
          const before = w.snapshot();
          const a = await slow.time(
            () => what,
            () => send(call),
          );
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          if (x.method === 'HEAD') {
            // HEAD answers the GET's status without a body.
            expect(a.text, what).toBe('');
          } else expectApiAnswer(x.method, pathnameOf(path), a, what);
          expectUnchanged(before, w.snapshot(), what);
        }),
        params(RUNS.queries),
      );
      console.log(`[hostile-api] query statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(`[slowest] query: ${slow}`);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect(statuses.get(404) ?? 0).toBeGreaterThan(0);
      expect(statuses.get(401) ?? 0).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});

describe('POST /api/v1/voided-sequences with hostile bodies', () => {
  it(
    'answers only documented statuses and records an attempt only when it reached the authority',
    async () => {
      const statuses = new Map<number, number>();
      const slow = new Slowest();
      const consecutive = fc.oneof(
        fc.integer({ min: 1, max: 1_200 }),
        fc.constantFrom<any>(0, -1, 1.5, 9_999_999_999, 10_000_000_000, 1e308, -0, '5', null, true, [], {}),
      );
      const range = fc.record(
        {
          tipo: fc.oneof({ weight: 4, arbitrary: anyTipo }, { weight: 1, arbitrary: fc.constantFrom<any>(31, '99', '3', '', null, ['31'], 'E31') }),
          desde: consecutive,
          hasta: consecutive,
        },
        { requiredKeys: [] },
      );
      const plausible = fc.record({
        rangos: fc.array(
          fc.tuple(anyTipo, fc.integer({ min: 1, max: 1_100 }), fc.nat(5)).map(([tipo, desde, k]) => ({ tipo, desde, hasta: desde + k })),
          { minLength: 1, maxLength: 3 },
        ),
      });
      const body = fc.oneof(
        { weight: 2, arbitrary: plausible },
        { weight: 4, arbitrary: fc.record({ rangos: fc.array(range, { maxLength: 6 }) }) },
        {
          weight: 1,
          arbitrary: fc.record({
            rangos: fc.oneof(
              hostileJson,
              fc.constantFrom(20_001, 100_001).map((n) => Array.from({ length: n }, (_, i) => ({ tipo: '31', desde: i + 1, hasta: i + 1 }))),
            ),
          }),
        },
        { weight: 1, arbitrary: hostileJson },
      );
      const arb = fc.record({ body, damage: textDamage, contentType: jsonContentType, auth: authHeader(w.voider.token, w.main.token) });
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          const call: Call = {
            method: 'POST',
            path: '/api/v1/voided-sequences',
            body: damage(JSON.stringify(x.body) ?? 'null', x.damage),
            contentType: x.contentType,
            auth: x.auth,
          };
          const what = label(call, `${x.damage.kind} ${JSON.stringify(x.body)?.slice(0, 200)}`);
          const before = w.snapshot();
          const a = await slow.time(
            () => what,
            () => send(call),
          );
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          expectApiAnswer('POST', '/api/v1/voided-sequences', a, what);
          const reachedAuthority = a.status === 201 || a.status === 502 || a.status === 503 || (a.status === 422 && a.json?.data !== undefined);
          if (!reachedAuthority) expectUnchanged(before, w.snapshot(), what);
        }),
        params(RUNS.voiding),
      );
      console.log(`[hostile-api] voiding statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(`[slowest] voiding: ${slow}`);
      expect(statuses.get(422) ?? 0).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});

describe('POST /api/v1/certificate with hostile multipart', () => {
  it(
    'answers only documented statuses and changes the issuer only when it accepts the certificate',
    async () => {
      const statuses = new Map<number, number>();
      const slow = new Slowest();
      const good = createSelfSignedIdentity({
        commonName: 'CERTIFICADORA PRUEBAS',
        serialNumber: w.holder.issuer.rnc,
        now: new Date('2026-03-01T00:00:00Z'),
        days: 365,
      });
      const stranger = createSelfSignedIdentity({ commonName: 'OTRO RNC', serialNumber: '101010101', now: new Date('2026-03-01T00:00:00Z'), days: 365 });
      const file = fc.oneof(
        { weight: 3, arbitrary: mangledBytes(good.p12) },
        { weight: 1, arbitrary: fc.constant(good.p12) },
        { weight: 1, arbitrary: fc.constant(stranger.p12) },
        { weight: 1, arbitrary: fc.constant(new Uint8Array(1024 * 1024 + 1)) },
      );
      const password = fc.oneof(fc.constant(good.password), fc.constant(stranger.password), hostileString);
      const arb = fc.record({
        file,
        password,
        fileField: fc.constantFrom('certificate', 'certificate', 'certificate', 'password', 'Certificate', 'cert', null),
        passwordAsFile: fc.boolean(),
        fileName: fc.constantFrom('cert.p12', '', '../../etc/passwd', 'ñ.pfx', 'a'.repeat(5_000)),
        damage: formDamage,
        contentType: fc.oneof(
          { weight: 8, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: fc.constantFrom('multipart/form-data', 'application/octet-stream', 'application/json', 'multipart/mixed; boundary=x', null) },
        ),
        auth: authHeader(w.holder.token, w.main.token),
      });
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          const parts: Part[] = [
            { name: x.fileField, fileName: x.fileName, contentType: 'application/x-pkcs12', content: x.file },
            x.passwordAsFile ? { name: 'password', fileName: 'pw.txt', content: x.password } : { name: 'password', content: x.password },
          ];
          const form = multipart(parts, x.damage);
          const call: Call = {
            method: 'POST',
            path: '/api/v1/certificate',
            body: form.body,
            contentType: x.contentType === undefined ? form.contentType : x.contentType,
            auth: x.auth,
          };
          const what = label(call, `${x.damage} field=${x.fileField} file=${x.file.length}B`);
          const before = w.snapshot();
          const a = await slow.time(
            () => what,
            () => send(call),
          );
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          expectApiAnswer('POST', '/api/v1/certificate', a, what);
          expect(a.text, `${what}: the file is never returned`).not.toContain(Buffer.from(good.p12).toString('base64').slice(0, 40));
          if (a.status !== 200) expectUnchanged(before, w.snapshot(), what);
        }),
        params(RUNS.certificate),
      );
      console.log(`[hostile-api] certificate statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(`[slowest] certificate: ${slow}`);
      expect(statuses.get(422) ?? 0).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});

describe('POST /api/v1/received-documents/{eNCF}/commercial-approval with hostile bodies', () => {
  it(
    'answers only documented statuses and records an approval only when it is sent',
    async () => {
      const statuses = new Map<number, number>();
      const slow = new Slowest();
      const body = fc.oneof(
        {
          weight: 1,
          arbitrary: fc.constantFrom<any>({ estado: 1 }, { estado: 2, motivo_rechazo: 'Mercancía no recibida.' }, { estado: 1, motivo_rechazo: null }),
        },
        {
          weight: 3,
          arbitrary: fc.record(
            {
              estado: fc.oneof(fc.constantFrom<any>(1, 2, 0, 3, '1', 1.0, 1.5, -0, 1e308, null, true, [1]), hostileJson),
              motivo_rechazo: fc.oneof(hostileString, fc.constant(null), hostileJson),
            },
            { requiredKeys: [] },
          ),
        },
        { weight: 1, arbitrary: hostileJson },
      );
      const arb = fc.record({
        seg: pathSegment([w.receivedEncf, w.receivedEncf.toLowerCase(), w.acceptedEncf]),
        query: fc.constantFrom('', '?rnc_emisor=101672919', '?rnc_emisor=1', '?rnc_emisor=%FF', '?rnc_emisor=101672919&rnc_emisor=1', '?x=1'),
        body,
        damage: textDamage,
        contentType: jsonContentType,
        auth: authHeader(w.main.token, w.voider.token),
      });
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          const path = `/api/v1/received-documents/${x.seg}/commercial-approval${x.query}`;
          const call: Call = { method: 'POST', path, body: damage(JSON.stringify(x.body) ?? 'null', x.damage), contentType: x.contentType, auth: x.auth };
          const what = label(call, `${x.damage.kind} ${JSON.stringify(x.body)?.slice(0, 200)}`);
          const before = w.snapshot();
          const a = await slow.time(
            () => what,
            () => send(call),
          );
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          expectApiAnswer('POST', pathnameOf(path), a, what);
          if (a.status !== 200 && a.status !== 502) expectUnchanged(before, w.snapshot(), what);
        }),
        params(RUNS.approval),
      );
      console.log(`[hostile-api] approval statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(`[slowest] approval: ${slow}`);
      expect(statuses.get(422) ?? 0).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});

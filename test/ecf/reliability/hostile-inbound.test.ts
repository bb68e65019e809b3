/**
 * Hostile-input fuzzing of the inbound receptor services other issuers call (/fe/autenticacion/api/semilla,
 * /fe/autenticacion/api/validacioncertificado, /fe/recepcion/api/ecf, /fe/aprobacioncomercial/api/ecf, at the
 * root and under /t/{rnc}), and the XML attack table (XXE, external DTDs, billion laughs, schemaLocation,
 * XInclude, stylesheet PIs, UTF-16 disguises, signature references) against every endpoint that reads XML.
 *
 * Properties: only the documented statuses (never 500); failures as `{estado: 'Error', mensaje, mensajes}`
 * in Spanish; nothing recorded from a refused request (tokens, received documents, approvals, read from the
 * SQLite file); an acknowledgment says "received" (Estado 0) exactly when the document was recorded; no
 * outbound request ever reaches the canary listener and no file content is echoed or stored.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAcecfXml, buildEcfXmlFromJson, type EcfType } from '../../../src/ecf/index.js';
import { createSelfSignedIdentity, signEcf, signXml } from '../../../src/ecf/sign/index.js';
import { baseContext, baseDoc } from '../helpers/docs.js';
import { allows } from '../../../src/ecf/validate/rules/shared.js';
import {
  authHeader,
  b64,
  damageXml,
  entityPayloads,
  formDamage,
  hostileString,
  multipart,
  xmlDamage,
  type FormDamage,
  type Part,
  type XmlDamage,
} from './hostile/arbitraries.js';
import { expectApiAnswer, expectInboundAnswer, fuzzSeed, read, Slowest, type Answer, type InboundService } from './hostile/oracle.js';
import { BASE_BUYER, createWorld, dataDirText, MAIN_PROFILE, NOW, REMOTE_RNC, XML_FIRST, type Snapshot, type World } from './hostile/world.js';
import { scale } from './mode.js';
import { ACECF_MAX_BODY_BYTES } from '../../../src/ecf/server/inbound/index.js';

const SEED = fuzzSeed('hostile-inbound');
const RUNS = {
  auth: scale(300, 6_000),
  reception: scale(250, 5_000),
  approval: scale(200, 4_000),
};
const params = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });
/** Per test: a safety net far above the reduced form's seconds; the full form runs long. */
const TIMEOUT = scale(110_000, 3_600_000);

let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 120_000);
afterAll(async () => {
  await w?.close();
});

const SERVICE_PATH: Record<InboundService, string> = {
  semilla: 'fe/autenticacion/api/semilla',
  validacioncertificado: 'fe/autenticacion/api/validacioncertificado',
  recepcion: 'fe/recepcion/api/ecf',
  aprobacioncomercial: 'fe/aprobacioncomercial/api/ecf',
};

/** Where a service is reached: the root, our tenants' prefixes, unknown or malformed prefixes, odd spellings. */
const prefix = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constant(`/t/${MAIN_PROFILE.rnc}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('/t/130000003', '/t/999999999', '/t/1', '/t/%FF', '/t/..', '/t/13018245２', `/t/${'1'.repeat(5_000)}`, '/t/', '/T/130182452'),
  },
);
const spelling = fc.constantFrom<(p: string) => string>(
  (p) => p,
  (p) => p,
  (p) => p,
  (p) => p.toUpperCase(),
  (p) => `${p}/`,
  (p) => p.replace('/api/', '//api/'),
);

interface InboundCall {
  service: InboundService;
  method: string;
  prefix: string;
  spell: (p: string) => string;
  body?: Uint8Array | string | null;
  contentType?: string | null;
  auth?: string | null;
  accept?: string;
}

async function inbound(c: InboundCall): Promise<Answer> {
  const headers = new Headers();
  if (c.contentType) headers.set('content-type', c.contentType);
  if (c.auth) headers.set('authorization', c.auth);
  if (c.accept) headers.set('accept', c.accept);
  const path = `${c.prefix}/${c.spell(SERVICE_PATH[c.service])}`;
  const init: RequestInit = { method: c.method, headers };
  if (c.body !== undefined && c.body !== null && c.method !== 'GET' && c.method !== 'HEAD') init.body = c.body as BodyInit;
  return read(await w.request(path, init));
}

/** What the route answers to: the documented set of the service it names, or the app's unknown-route 404. */
function expectAnswer(c: InboundCall, a: Answer, what: string): void {
  const path = `${c.prefix}/${c.spell(SERVICE_PATH[c.service])}`;
  if (/^(?:\/t\/[^/]+)?\/fe\/[a-z]+\/api\/[a-z]+\/?$/.test(path.toLowerCase())) expectInboundAnswer(c.service, a, what);
  else expectApiAnswer(c.method, new URL(path, 'http://x').pathname, a, what);
  expect(a.text, `${what}: no file content echoed`).not.toContain('root:x:0:0');
  expect(w.canary.hits, `${what}: no outbound request`).toEqual([]);
}

const label = (c: InboundCall, extra: string) =>
  `${c.method} ${c.prefix}/${c.spell(SERVICE_PATH[c.service]).slice(0, 80)} [${extra}] ct=${String(c.contentType).slice(0, 60)} auth=${String(c.auth).slice(0, 30)}`;

/** A form (or bare body) carrying `xml` in the part `field`. */
function upload(xml: string | Uint8Array, field: string | null, d: FormDamage, extra: Part[] = []): { contentType: string; body: Uint8Array } {
  return multipart([{ name: field, fileName: 'documento.xml', contentType: 'text/xml', content: xml }, ...extra], d);
}

const fieldName = fc.constantFrom<string | null>('xml', 'xml', 'xml', 'xml', 'XML', 'archivo', null, 'xml"; filename="x');
const extraParts = fc.constantFrom<Part[]>([], [], [{ name: 'xml', content: '<otro/>' }], [{ name: 'otra', fileName: 'b.xml', content: '<b/>' }]);
const contentTypeOverride = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string | null>(
      'application/xml',
      'text/plain',
      'application/json',
      'multipart/form-data',
      null,
      'multipart/form-data; boundary=',
    ),
  },
);
const accept = fc.constantFrom('application/json', 'application/xml', 'text/xml', '*/*', '', 'application/json, application/xml');
const method = (right: string) =>
  fc.oneof({ weight: 9, arbitrary: fc.constant(right) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH') });

function unchanged(before: Snapshot, after: Snapshot, what: string): void {
  expect(after, `${what}: nothing recorded`).toEqual(before);
}

describe('seed and certificate validation with hostile input (no token needed)', () => {
  it(
    'answers only documented statuses and issues a token only for a valid signed seed of ours',
    async () => {
      const statuses = new Map<number, number>();
      const slow = new Slowest();
      const stranger = createSelfSignedIdentity({ commonName: 'EXTRAÑO', serialNumber: '101010101', now: new Date('2026-03-01T00:00:00Z'), days: 365 });
      const expired = createSelfSignedIdentity({ commonName: 'VENCIDO', serialNumber: REMOTE_RNC, now: new Date('2025-01-01T00:00:00Z'), days: 30 });
      const arb = fc.record({
        prefix,
        spell: spelling,
        method: method('POST'),
        accept,
        signer: fc.constantFrom('remote', 'remote', 'stranger', 'expired', 'none'),
        seed: fc.constantFrom('fresh', 'fresh', 'fresh', 'forged', 'reused'),
        when: fc.constantFrom('before', 'after'),
        damage: fc.oneof({ weight: 3, arbitrary: fc.constant<XmlDamage>({ kind: 'none' }) }, { weight: 5, arbitrary: xmlDamage(w.canary.url) }),
        field: fieldName,
        extra: extraParts,
        form: formDamage,
        contentType: contentTypeOverride,
      });
      let lastSeed = '';
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          // A fresh seed at the same prefix (GET semilla records one; that is its documented effect).
          const seedAnswer = await inbound({ service: 'semilla', method: 'GET', prefix: x.prefix, spell: x.spell, accept: x.accept });
          expectAnswer({ service: 'semilla', method: 'GET', prefix: x.prefix, spell: x.spell }, seedAnswer, 'semilla');
          const fresh =
            seedAnswer.status === 200
              ? seedAnswer.text
              : `<SemillaModel><valor>${'A'.repeat(64)}</valor><fecha>2026-04-01T10:00:00.0000000-04:00</fecha></SemillaModel>`;
          let seed =
            x.seed === 'forged' ? fresh.replace(/<valor>[^<]*<\/valor>/, '<valor>Zm9yZ2Vk</valor>') : x.seed === 'reused' && lastSeed ? lastSeed : fresh;
          lastSeed = fresh;
          const damageIt = (s: string) =>
            damageXml(s.replace(/<SemillaModel[^>]*>/, '<ECF>').replace('</SemillaModel>', '</ECF>'), x.damage, w.canary.url).replace(
              /<(\/?)ECF>/g,
              '<$1SemillaModel>',
            );
          if (x.when === 'before') seed = damageIt(seed);
          const signer = { remote: w.remote, stranger, expired, none: null }[x.signer];
          let xml = seed;
          try {
            if (signer) xml = await signXml(seed, signer.signer);
          } catch {
            xml = seed; // unsignable damage (not XML): send it as is
          }
          if (x.when === 'after') xml = damageIt(xml);
          const form = upload(xml, x.field, x.form, x.extra);
          const call: InboundCall = {
            service: 'validacioncertificado',
            method: x.method,
            prefix: x.prefix,
            spell: x.spell,
            accept: x.accept,
            body: form.body,
            contentType: x.contentType === undefined ? form.contentType : x.contentType,
          };
          const what = label(call, `${x.signer} ${x.seed} ${x.when} ${x.damage.kind} ${x.form} field=${x.field}`);
          const before = w.snapshot();
          const a = await slow.time(
            () => what,
            () => inbound(call),
          );
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          expectAnswer(call, a, what);
          const after = w.snapshot();
          if (a.status === 200) {
            expect(after.inboundTokens, what).toBe(before.inboundTokens + 1);
            expect(['remote', 'stranger'], `${what}: only a signature by a certificate valid today gets a token`).toContain(x.signer);
            expect(a.text, `${what}: a token`).toMatch(/"token":"[^"]+"|<Token>[^<]+<\/Token>/);
          } else unchanged(before, after, what);
        }),
        params(RUNS.auth),
      );
      console.log(`[hostile-inbound] validacioncertificado statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(`[slowest] validacioncertificado: ${slow}`);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});

describe('e-CF reception with hostile documents', () => {
  it(
    'answers only documented statuses and records a document exactly when its acknowledgment says received',
    async () => {
      const statuses = new Map<string, number>();
      const slow = new Slowest();
      let n = 1_000;
      const arb = fc.record({
        prefix,
        spell: spelling,
        method: method('POST'),
        accept,
        tipo: fc.constantFrom<EcfType>('31', '33', '34', '41', '44', '45', '46', '47', '32', '43'),
        buyer: fc.constantFrom(MAIN_PROFILE.rnc!, MAIN_PROFILE.rnc!, '130000003', '999999999', ''),
        when: fc.constantFrom('before', 'after', 'unsigned'),
        damage: fc.oneof({ weight: 2, arbitrary: fc.constant<XmlDamage>({ kind: 'none' }) }, { weight: 5, arbitrary: xmlDamage(w.canary.url) }),
        field: fieldName,
        extra: extraParts,
        form: formDamage,
        contentType: contentTypeOverride,
        auth: authHeader(w.inboundToken, w.main.token),
      });
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          const doc = baseDoc(x.tipo);
          const ctx = { ...baseContext(x.tipo), encf: `E${x.tipo}${String(n++).padStart(10, '0')}` };
          // The buyer where the type has one with an RNC (43 has no buyer, 47 a foreign id): else the base as is.
          if (x.buyer && allows(x.tipo, 'comprador.rnc'))
            doc.comprador = { ...(doc.comprador ?? {}), rnc: x.buyer, razon_social: doc.comprador?.razon_social ?? 'Receptor SRL' };
          let xml = buildEcfXmlFromJson(x.tipo, doc, ctx);
          if (x.when === 'before') xml = damageXml(xml, x.damage, w.canary.url);
          if (x.when !== 'unsigned') {
            try {
              xml = await signEcf(xml, w.remote.signer, () => NOW);
            } catch {
              // not signable: send the damaged text as is
            }
          }
          if (x.when !== 'before') xml = damageXml(xml, x.damage, w.canary.url);
          const form = upload(xml, x.field, x.form, x.extra);
          const call: InboundCall = {
            service: 'recepcion',
            method: x.method,
            prefix: x.prefix,
            spell: x.spell,
            accept: x.accept,
            auth: x.auth,
            body: form.body,
            contentType: x.contentType === undefined ? form.contentType : x.contentType,
          };
          const what = label(call, `${x.tipo} buyer=${x.buyer} ${x.when} ${x.damage.kind} ${x.form} field=${x.field}`);
          const before = w.snapshot();
          const a = await slow.time(
            () => what,
            () => inbound(call),
          );
          const estado = a.status === 200 ? /<Estado>(\d)<\/Estado>/.exec(a.text)?.[1] : undefined;
          statuses.set(
            `${a.status}${estado !== undefined ? `/Estado ${estado}` : ''}`,
            (statuses.get(`${a.status}${estado !== undefined ? `/Estado ${estado}` : ''}`) ?? 0) + 1,
          );
          expectAnswer(call, a, what);
          const after = w.snapshot();
          if (a.status === 200) {
            expect(a.contentType, what).toMatch(/^application\/xml/);
            expect(a.text, `${what}: a signed ARECF`).toMatch(/<ARECF[\s>][\s\S]*<Signature[\s\S]*<\/ARECF>$/);
            expect(['0', '1'], what).toContain(estado);
            if (estado === '0') {
              expect(after.received, `${what}: recorded`).toBe(before.received + 1);
              return;
            }
          }
          unchanged(before, after, what);
        }),
        params(RUNS.reception),
      );
      console.log(`[hostile-inbound] recepcion statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(`[slowest] recepcion: ${slow}`);
      expect(statuses.get('200/Estado 1') ?? 0).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});

describe('commercial approvals received with hostile ACECF', () => {
  it(
    'answers only documented statuses and records an approval only with 200',
    async () => {
      const statuses = new Map<number, number>();
      const slow = new Slowest();
      const record = (await w.storage.getDocumentByEncf(w.main.issuer.id, w.acceptedEncf))!;
      const arb = fc.record({
        prefix,
        spell: spelling,
        method: method('POST'),
        accept,
        estado: fc.constantFrom('1', '2'),
        encf: fc.constantFrom(w.acceptedEncf, w.acceptedEncf, 'E310000000999', 'E320000000001'),
        monto: fc.constantFrom(Number(record.totalAmount), Number(record.totalAmount), 1, 1e15),
        when: fc.constantFrom('before', 'after'),
        damage: fc.oneof({ weight: 2, arbitrary: fc.constant<XmlDamage>({ kind: 'none' }) }, { weight: 5, arbitrary: xmlDamage(w.canary.url) }),
        motivo: fc.oneof(fc.constant('Mercancía no recibida.'), hostileString),
        field: fieldName,
        extra: extraParts,
        form: formDamage,
        contentType: contentTypeOverride,
        // The buyer's token and certificate: since issue 13 only the buyer named in an ACECF may send it.
        auth: authHeader(w.buyerToken, w.main.token),
      });
      await fc.assert(
        fc.asyncProperty(arb, async (x) => {
          let xml: string;
          try {
            xml = buildAcecfXml({
              rnc_emisor: w.main.issuer.rnc,
              encf: x.encf,
              fecha_emision: record.issuedAt,
              monto_total: x.monto,
              rnc_comprador: BASE_BUYER,
              estado: x.estado,
              ...(x.estado === '2' ? { detalle_motivo_rechazo: x.motivo } : {}),
              fecha_hora_aprobacion_comercial: '01-04-2026 10:00:00',
            });
          } catch {
            xml = w.validAcecf; // the builder refused the values (e.g. a motivo too long): fuzz the valid one instead
          }
          const rooted = (s: string) => s.replace(/<(\/?)ACECF>/g, '<$1ECF>');
          const unrooted = (s: string) => s.replace(/<(\/?)ECF>/g, '<$1ACECF>');
          if (x.when === 'before') xml = unrooted(damageXml(rooted(xml), x.damage, w.canary.url));
          try {
            xml = await signXml(xml, w.buyer.signer);
          } catch {
            // not signable: send as is
          }
          if (x.when === 'after') xml = unrooted(damageXml(rooted(xml), x.damage, w.canary.url));
          const form = upload(xml, x.field, x.form, x.extra);
          const call: InboundCall = {
            service: 'aprobacioncomercial',
            method: x.method,
            prefix: x.prefix,
            spell: x.spell,
            accept: x.accept,
            auth: x.auth,
            body: form.body,
            contentType: x.contentType === undefined ? form.contentType : x.contentType,
          };
          const what = label(call, `estado=${x.estado} ${x.encf} ${x.when} ${x.damage.kind} ${x.form} field=${x.field}`);
          const before = w.snapshot();
          const a = await slow.time(
            () => what,
            () => inbound(call),
          );
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
          expectAnswer(call, a, what);
          const after = w.snapshot();
          // Since issue 13 one approval per document and buyer: a 200 records it the first time, and answers an
          // identical repeat without recording it again; a different later decision is 409 (unchanged).
          if (a.status === 200) {
            expect([before.documentApprovals, before.documentApprovals + 1], what).toContain(after.documentApprovals);
            expect(after.documentApprovals, what).toBeLessThanOrEqual(1);
          } else unchanged(before, after, what);
        }),
        params(RUNS.approval),
      );
      console.log(`[hostile-inbound] aprobacioncomercial statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(`[slowest] aprobacioncomercial: ${slow}`);
      expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});

describe('XML attacks against every endpoint that reads XML', () => {
  /** Builds each attack on a document the endpoint would otherwise accept. */
  async function targets(): Promise<
    { name: string; send: (xml: (base: string) => string) => Promise<Answer>; base: string; service: InboundService | null; path: string }[]
  > {
    const seed = await (await w.request('/fe/autenticacion/api/semilla')).text();
    const foreign = baseDoc('31');
    foreign.comprador = { ...foreign.comprador, rnc: MAIN_PROFILE.rnc };
    const ecf = buildEcfXmlFromJson('31', foreign, { ...baseContext('31'), encf: 'E310000050000' });
    const form = (xml: string) => upload(xml, 'xml', 'none');
    const post = (path: string, body: string | Uint8Array, contentType: string, auth?: string) =>
      w
        .request(path, {
          method: 'POST',
          body: body as BodyInit,
          headers: { 'content-type': contentType, ...(auth ? { authorization: auth } : {}) },
        })
        .then(read);
    const inboundPost = (path: string, auth?: string) => (make: (base: string) => string, base: string) => {
      const f = form(make(base));
      return post(path, f.body, f.contentType, auth);
    };
    const list = [
      {
        name: 'passthrough 31',
        path: '/api/v1/documents/31',
        service: null,
        base: w.mainXml('31', XML_FIRST - 2),
        via: (m: (b: string) => string, b: string) => post('/api/v1/documents/31', m(b), 'application/xml', `Bearer ${w.main.token}`),
      },
      {
        name: 'passthrough 32 text/xml',
        path: '/api/v1/documents/32',
        service: null,
        base: w.mainXml('32', XML_FIRST - 2),
        via: (m: (b: string) => string, b: string) => post('/api/v1/documents/32', m(b), 'text/xml', `Bearer ${w.main.token}`),
      },
      {
        name: 'validacioncertificado',
        path: '/fe/autenticacion/api/validacioncertificado',
        service: 'validacioncertificado' as const,
        base: await signXml(seed, w.remote.signer),
        via: inboundPost('/fe/autenticacion/api/validacioncertificado'),
      },
      {
        name: 'validacioncertificado /t/{rnc}',
        path: `/t/${MAIN_PROFILE.rnc}/fe/autenticacion/api/validacioncertificado`,
        service: 'validacioncertificado' as const,
        base: await signXml(seed, w.remote.signer),
        via: inboundPost(`/t/${MAIN_PROFILE.rnc}/fe/autenticacion/api/validacioncertificado`),
      },
      {
        name: 'recepcion',
        path: '/fe/recepcion/api/ecf',
        service: 'recepcion' as const,
        base: await signEcf(ecf, w.remote.signer, () => NOW),
        via: inboundPost('/fe/recepcion/api/ecf', `Bearer ${w.inboundToken}`),
      },
      {
        name: 'recepcion /t/{rnc}',
        path: `/t/${MAIN_PROFILE.rnc}/fe/recepcion/api/ecf`,
        service: 'recepcion' as const,
        base: await signEcf(ecf, w.remote.signer, () => NOW),
        via: inboundPost(`/t/${MAIN_PROFILE.rnc}/fe/recepcion/api/ecf`, `Bearer ${w.inboundToken}`),
      },
      {
        name: 'aprobacioncomercial',
        path: '/fe/aprobacioncomercial/api/ecf',
        service: 'aprobacioncomercial' as const,
        base: w.validAcecf,
        via: inboundPost('/fe/aprobacioncomercial/api/ecf', `Bearer ${w.buyerToken}`),
      },
    ];
    return list.map((t) => ({ name: t.name, base: t.base, service: t.service, path: t.path, send: (make: (base: string) => string) => t.via(make, t.base) }));
  }

  it(
    'refuses DTDs and entities (file, http, parameter, external subset, billion laughs) before parsing, and nothing reaches out',
    async () => {
      const rootOf = (xml: string) => /<([A-Za-z]+)[\s>]/.exec(xml.replace(/^<\?xml[^>]*\?>/, ''))![1]!;
      for (const t of await targets()) {
        for (const p of entityPayloads(w.canary.url)) {
          const make = (base: string) => {
            const root = rootOf(base);
            const prolog = p.prolog.replace(/\bECF\b/g, root);
            const withRef = p.reference ? base.replace(/(<(?:RazonSocialEmisor|valor|eNCF)>)/, `$1${p.reference}`) : base;
            return /^<\?xml/.test(withRef) ? withRef.replace(/^(<\?xml[^>]*\?>)/, `$1${prolog}`) : prolog + withRef;
          };
          const what = `${t.name}: ${p.name}`;
          const before = w.snapshot();
          const a = await t.send(make);
          if (t.service) expectInboundAnswer(t.service, a, what);
          else expectApiAnswer('POST', t.path, a, what);
          // Refused: 422 (passthrough), 400 (auth, approval), or an acknowledgment "not received" (reception).
          if (p.name === 'stylesheet PI') {
            // Not a declaration: a processing instruction is legal XML; what matters is that it is never fetched.
            expect(a.status, what).toBeLessThan(500);
          } else if (t.service === 'recepcion') {
            // A signed "not received" acknowledgment, or a plain 400 when the e-NCF it should name is unusable.
            if (a.status === 200) expect(a.text, what).toMatch(/<Estado>1<\/Estado>/);
            else expect(a.status, `${what}: ${a.text.slice(0, 200)}`).toBe(400);
          } else {
            expect([400, 413, 422], `${what}: ${a.status} ${a.text.slice(0, 200)}`).toContain(a.status);
          }
          if (t.service !== 'recepcion' && a.status !== 413 && /DOCTYPE|ENTITY/i.test(p.prolog)) {
            expect(a.text, `${what}: refused for the declaration itself (not expanded, not parsed)`).toMatch(/DOCTYPE|ENTITY|mal formado|no está bien formado/);
          }
          expect(a.text, what).not.toContain('root:x:0:0');
          expect(a.text, `${what}: no expansion echoed`).not.toContain('lollollollol');
          const after = w.snapshot();
          if (p.name === 'stylesheet PI') continue;
          expect({ ...after, inboundSeeds: before.inboundSeeds }, what).toEqual(before);
        }
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(w.canary.hits, 'no request ever reached the canary').toEqual([]);
      expect(dataDirText(w.dir)).not.toContain('root:x:0:0');
    },
    TIMEOUT,
  );

  it(
    'never fetches schemaLocation, XInclude, signature references or stylesheets, and sees through UTF-16 disguises',
    async () => {
      const url = w.canary.url;
      const decorations: { name: string; make: (base: string) => string | Uint8Array }[] = [
        {
          name: 'xsi:noNamespaceSchemaLocation',
          make: (b) =>
            b.replace(
              /<(ECF|ACECF|SemillaModel)([\s>])/,
              `<$1 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="${url}/schema.xsd"$2`,
            ),
        },
        {
          name: 'xsi:schemaLocation',
          make: (b) =>
            b.replace(
              /<(ECF|ACECF|SemillaModel)([\s>])/,
              `<$1 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:x ${url}/schema2.xsd"$2`,
            ),
        },
        {
          name: 'XInclude',
          make: (b) =>
            b.replace(
              /(<(?:RazonSocialEmisor|valor|eNCF)>)/,
              `$1<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="${url}/xinclude" parse="text"/><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd" parse="text"/>`,
            ),
        },
        { name: 'stylesheet PI', make: (b) => b.replace(/^(<\?xml[^>]*\?>)?/, `$1<?xml-stylesheet type="text/xsl" href="${url}/style.xsl"?>`) },
        { name: 'signature Reference URI', make: (b) => b.replace(/<Reference URI="[^"]*"/, `<Reference URI="${url}/reference"`) },
        {
          name: 'signature RetrievalMethod',
          make: (b) => b.replace(/<KeyInfo>/, `<KeyInfo><RetrievalMethod URI="${url}/retrieval" Type="http://www.w3.org/2000/09/xmldsig#X509Data"/>`),
        },
        {
          name: 'UTF-16LE with BOM and DOCTYPE',
          make: (b) =>
            new Uint8Array(
              Buffer.from(
                `\uFEFF<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "${url}/utf16">]>${b.replace(/^<\?xml[^>]*\?>/, '')}`,
                'utf16le',
              ),
            ),
        },
        {
          name: 'UTF-16LE without BOM',
          make: (b) =>
            new Uint8Array(
              Buffer.from(`<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE x SYSTEM "${url}/utf16-subset">${b.replace(/^<\?xml[^>]*\?>/, '')}`, 'utf16le'),
            ),
        },
        { name: 'UTF-16BE', make: (b) => new Uint8Array(Buffer.from(`<!DOCTYPE x SYSTEM "${url}/utf16be">${b}`, 'utf16le').swap16()) },
      ];
      for (const t of await targets()) {
        for (const d of decorations) {
          const what = `${t.name}: ${d.name}`;
          const before = w.snapshot();
          const a = await t.send(d.make as (base: string) => string);
          if (t.service) expectInboundAnswer(t.service, a, what);
          else expectApiAnswer('POST', t.path, a, what);
          expect(a.text, what).not.toContain('root:x:0:0');
          // Whatever the verdict, a refusal stores nothing; an acceptance stores the text as sent (never fetched content).
          const after = w.snapshot();
          const accepted =
            (t.service === null && a.status === 202) ||
            (t.service === 'recepcion' && /<Estado>0</.test(a.text)) ||
            (t.service === 'validacioncertificado' && a.status === 200) ||
            (t.service === 'aprobacioncomercial' && a.status === 200);
          if (!accepted) expect({ ...after, inboundSeeds: before.inboundSeeds }, what).toEqual(before);
        }
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(w.canary.hits, 'no request ever reached the canary').toEqual([]);
      expect(dataDirText(w.dir)).not.toContain('root:x:0:0');
    },
    TIMEOUT,
  );

  it(
    'refuses signatures padded with repeated SignatureValue, KeyInfo, SignedInfo or Transform elements',
    async () => {
      const record = (await w.storage.getDocumentByEncf(w.main.issuer.id, w.acceptedEncf))!;
      const pads: [string, RegExp][] = [
        ['SignatureValue', /<SignatureValue>[\s\S]*?<\/SignatureValue>/],
        ['KeyInfo', /<KeyInfo>[\s\S]*?<\/KeyInfo>/],
        ['SignedInfo', /<SignedInfo>[\s\S]*?<\/SignedInfo>/],
        ['Transform', /<Transform [^>]*\/>/],
      ];
      const post = async (path: string, xml: string, auth?: string) => {
        const f = upload(xml, 'xml', 'none');
        return read(
          await w.request(path, {
            method: 'POST',
            body: f.body as BodyInit,
            headers: { 'content-type': f.contentType, ...(auth ? { authorization: auth } : {}) },
          }),
        );
      };
      let padded = 0;
      for (const [name, re] of pads) {
        for (const times of [2, 2_000]) {
          // A commercial approval of our accepted document: valid but for the padding.
          const acecf = (
            await signXml(
              buildAcecfXml({
                rnc_emisor: w.main.issuer.rnc,
                encf: w.acceptedEncf,
                fecha_emision: record.issuedAt,
                monto_total: Number(record.totalAmount),
                rnc_comprador: BASE_BUYER,
                estado: '2',
                detalle_motivo_rechazo: `Relleno ${name} ${times}`,
                fecha_hora_aprobacion_comercial: '01-04-2026 10:00:00',
              }),
              w.buyer.signer,
            )
          ).replace(re, (m) => m.repeat(times));
          let before = w.snapshot();
          let a = await post('/fe/aprobacioncomercial/api/ecf', acecf, `Bearer ${w.buyerToken}`);
          expectInboundAnswer('aprobacioncomercial', a, `approval ${name} x${times}`);
          // Issue 13: an ACECF body above ACECF_MAX_BODY_BYTES (64 KB) is refused by size (413) before parsing.
          expect(a.status, `approval ${name} x${times}: ${a.text.slice(0, 300)}`).toBe(Buffer.byteLength(acecf) > ACECF_MAX_BODY_BYTES ? 413 : 400);
          unchanged(before, w.snapshot(), `approval ${name} x${times}`);
          // An e-CF to our issuer: acknowledged as not received.
          const doc = baseDoc('31');
          doc.comprador = { ...doc.comprador, rnc: MAIN_PROFILE.rnc };
          const ecf = (
            await signEcf(
              buildEcfXmlFromJson('31', doc, { ...baseContext('31'), encf: `E31${String(70_000 + padded++).padStart(10, '0')}` }),
              w.remote.signer,
              () => NOW,
            )
          ).replace(re, (m) => m.repeat(times));
          before = w.snapshot();
          a = await post('/fe/recepcion/api/ecf', ecf, `Bearer ${w.inboundToken}`);
          expectInboundAnswer('recepcion', a, `reception ${name} x${times}`);
          expect(a.status === 400 || /<Estado>1<\/Estado>/.test(a.text), `reception ${name} x${times}: ${a.status} ${a.text.slice(0, 300)}`).toBe(true);
          unchanged(before, w.snapshot(), `reception ${name} x${times}`);
          // A seed of ours.
          const seed = await (await w.request('/fe/autenticacion/api/semilla')).text();
          const signedSeed = (await signXml(seed, w.remote.signer)).replace(re, (m) => m.repeat(times));
          before = w.snapshot();
          a = await post('/fe/autenticacion/api/validacioncertificado', signedSeed);
          expectInboundAnswer('validacioncertificado', a, `seed ${name} x${times}`);
          expect([400, 401, 413], `seed ${name} x${times}: ${a.text.slice(0, 300)}`).toContain(a.status);
          unchanged(before, w.snapshot(), `seed ${name} x${times}`);
        }
      }
    },
    TIMEOUT,
  );

  it(
    'answers a body of line breaks without a multipart boundary at once (no catastrophic backtracking)',
    async () => {
      for (const body of ['\n'.repeat(40) + 'x', '\r\n'.repeat(40) + 'x', ' \n'.repeat(40) + '--', `${'\n'.repeat(100_000)}x`]) {
        const a = await read(await w.request('/fe/autenticacion/api/validacioncertificado', { method: 'POST', body }));
        expectInboundAnswer('validacioncertificado', a, `newlines ${b64(body.slice(0, 30))}`);
        expect(a.status === 400 || (a.status === 413 && body.length > 65_536), `newlines: ${a.status}`).toBe(true);
      }
      // An unparseable e-CF with a huge run of spaces where the acknowledgment's fields are scraped from.
      const spaces = `<ECF><Encabezado><IdDoc><eNCF>${' '.repeat(200_000)}x<Comprador><RNCComprador>${MAIN_PROFILE.rnc}</RNCComprador>`;
      const f = upload(spaces, 'xml', 'none');
      const a = await read(
        await w.request('/fe/recepcion/api/ecf', {
          method: 'POST',
          body: f.body as BodyInit,
          headers: { 'content-type': f.contentType, authorization: `Bearer ${w.inboundToken}` },
        }),
      );
      expectInboundAnswer('recepcion', a, 'scraped spaces');
    },
    TIMEOUT,
  );
});

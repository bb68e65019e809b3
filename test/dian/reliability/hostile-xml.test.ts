/**
 * XML the DIAN product parses, under attack: DIAN's answers read by the transport (SOAP envelopes), the
 * ApplicationResponse inside an accepted answer read by the service, and the local DIAN receiving zips and
 * envelopes. Attacks: external entities (file and network), parameter entities and an external DTD, entity
 * expansion (billion laughs, quadratic blow-up), deep nesting, oversize, zip bombs, signature wrapping.
 *
 * Asserted: a clear refusal (an unreadable answer, a 502 from the service, DIAN's rejection), in bounded time
 * and memory, no file read (a secret file's content appears nowhere: answers, stored rows, data directory),
 * no network (a canary HTTP server receives nothing).
 *
 * Parsers: every XML text goes through @xmldom/xmldom via parseXmlStrictly (it never expands DTD entities nor
 * fetches anything; the readers refuse a DOCTYPE), through the pre-scan of ubl/read (no DOCTYPE, value, depth,
 * element and attribute bounds) before the UBL reader, and through libxml2 (libxmljs, XSD validation in the
 * local DIAN) with its default options (no entity substitution, no DTD loading, no network).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDianXml } from '../../../src/dian/sign/index.js';
import { startDianSimulator, type DianSimulator } from '../../../src/dian/simulator/index.js';
import { readZip } from '../../../src/dian/simulator/core.js';
import { createDianClient, readDianAnswer } from '../../../src/dian/transport/index.js';
import { isTransportError } from '../../../src/shared/errors/transport-error.js';
import { createSelfSignedIdentity } from '../../../src/shared/xmldsig/self-signed.js';
import { dianXsdDir, repoRoot } from '../helpers/env.js';
import { EXAMPLE_NIT, example, startHarness, type Harness } from '../server/helpers.js';
import { BUYER, client, ISSUER, RANGE, clock, signedInvoice, zip1, zipOf } from '../simulator/fixtures.js';

const SECRET = `secret-canary-${process.pid}-${Date.now()}`;
const dir = mkdtempSync(join(tmpdir(), 'dian-hostile-xml-'));
const secretFile = join(dir, 'secret.txt');
writeFileSync(secretFile, SECRET);

let canary: Server;
let canaryUrl = '';
const hits: string[] = [];

beforeAll(async () => {
  canary = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end(`<!ENTITY leak "${SECRET}">`);
  });
  await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => canary.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** A DOCTYPE (prolog) and what goes inside the element that takes it (body), per attack. */
function attacks(root: string): { name: string; prolog: string; body: string }[] {
  const laughs = [`<!ENTITY l0 "lollollollol">`];
  for (let i = 1; i <= 10; i++) laughs.push(`<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`);
  return [
    { name: 'external entity (file)', prolog: `<!DOCTYPE ${root} [<!ENTITY x SYSTEM "file://${secretFile}">]>`, body: '&x;' },
    { name: 'external entity (network)', prolog: `<!DOCTYPE ${root} [<!ENTITY x SYSTEM "${canaryUrl}/entity">]>`, body: '&x;' },
    { name: 'parameter entity', prolog: `<!DOCTYPE ${root} [<!ENTITY % p SYSTEM "${canaryUrl}/parameter"> %p;]>`, body: '&leak;' },
    { name: 'external DTD', prolog: `<!DOCTYPE ${root} SYSTEM "${canaryUrl}/dtd">`, body: '&leak;' },
    { name: 'billion laughs', prolog: `<!DOCTYPE ${root} [${laughs.join('')}]>`, body: '&l10;' },
    { name: 'quadratic blow-up', prolog: `<!DOCTYPE ${root} [<!ENTITY a "${'a'.repeat(50_000)}">]>`, body: '&a;'.repeat(50_000) },
    { name: 'deep nesting', prolog: '', body: `${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}` },
  ];
}

/** No trace of the secret file, no request to the canary. */
async function expectNoLeak(...texts: string[]): Promise<void> {
  await new Promise((r) => setTimeout(r, 100));
  expect(hits, 'no outbound request').toEqual([]);
  for (const t of texts) expect(t.includes(SECRET), 'the secret file is read nowhere').toBe(false);
}

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number; mb: number }> {
  const rss = process.memoryUsage().rss;
  const t0 = performance.now();
  const value = await f();
  return { value, ms: performance.now() - t0, mb: (process.memoryUsage().rss - rss) / 1e6 };
}

const SOAP = 'http://www.w3.org/2003/05/soap-envelope';
/** A GetStatus answer whose StatusDescription holds `body`, after `prolog`. */
const statusAnswer = (prolog: string, body: string) =>
  `<?xml version="1.0" encoding="utf-8"?>${prolog}<s:Envelope xmlns:s="${SOAP}"><s:Body><GetStatusResponse xmlns="http://wcf.dian.colombia"><GetStatusResult xmlns:b="http://schemas.datacontract.org/2004/07/DianResponse">` +
  `<b:IsValid>true</b:IsValid><b:StatusCode>00</b:StatusCode><b:StatusDescription>${body}</b:StatusDescription><b:XmlDocumentKey>${'c'.repeat(96)}</b:XmlDocumentKey>` +
  '</GetStatusResult></GetStatusResponse></s:Body></s:Envelope>';

describe("DIAN's answers read by the transport", () => {
  let dian: Server;
  let url = '';
  let answer: (res: import('node:http').ServerResponse) => void = (res) => res.end();
  beforeAll(async () => {
    dian = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        answer(res);
      });
    });
    await new Promise<void>((r) => dian.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(dian.address() as AddressInfo).port}/WcfDianCustomerServices.svc`;
  });
  afterAll(async () => {
    dian.closeAllConnections();
    await new Promise((r) => dian.close(r));
  });
  const identity = createSelfSignedIdentity({ commonName: 'Emisor', serialNumber: EXAMPLE_NIT });
  const newClient = () => createDianClient({ signer: identity.signer, endpoint: url, retries: 0, timeoutMs: 20_000 });

  for (const a of attacks('s:Envelope')) {
    it(`refuses an answer with ${a.name} as unreadable, in bounded time, reading no file and calling nothing`, async () => {
      const text = statusAnswer(a.prolog, a.body);
      expect(readDianAnswer('GetStatus', text)).toMatchObject({ kind: 'unreadable' });
      answer = (res) => res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' }).end(text);
      const c = newClient();
      const r = await timed(() =>
        c.getStatus('c'.repeat(96)).then(
          (v) => ({ ok: true as const, v }),
          (e: unknown) => ({ ok: false as const, e }),
        ),
      );
      await c.close();
      expect(r.value.ok, a.name).toBe(false);
      const e = (r.value as { e: unknown }).e;
      expect(isTransportError(e), String(e)).toBe(true);
      expect(r.ms, `${a.name}: ${Math.round(r.ms)} ms`).toBeLessThan(5_000);
      await expectNoLeak(String((e as Error).message));
    });
  }

  it('does not read an answer beyond its bound (32 MB): a 40 MB answer fails as unreadable without being held whole', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' });
      res.write(`<s:Envelope xmlns:s="${SOAP}"><s:Body><x>`);
      let sent = 0;
      const pump = () => {
        while (sent < 40) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('</x></s:Body></s:Envelope>');
      };
      res.on('error', () => {});
      pump();
    };
    const c = newClient();
    const r = await timed(() =>
      c.getStatus('c'.repeat(96)).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    await c.close();
    expect(isTransportError(r.value), String(r.value)).toBe(true);
    expect(String((r.value as Error).message)).toMatch(/exceeds/);
    expect(r.ms).toBeLessThan(10_000);
  });
});

describe('the local DIAN receiving zips and envelopes', () => {
  let sim: DianSimulator;
  beforeAll(async () => {
    sim = await startDianSimulator({ xsdDir: dianXsdDir(), clock, companies: [ISSUER, BUYER], ranges: [RANGE] });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
  for (const a of attacks('Invoice')) {
    it(`rejects a zipped invoice with ${a.name}, in bounded time, reading no file and calling nothing`, async () => {
      const xml = `<?xml version="1.0" encoding="UTF-8"?>${a.prolog}<Invoice xmlns="${NS}" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:Note>${a.body}</cbc:Note></Invoice>`;
      const c = client(sim.url);
      const r = await timed(() => c.sendBillSync('z.zip', zip1(xml)));
      await c.close();
      expect(r.value.isValid, a.name).toBe(false);
      // Refused by the reader's pre-scan before libxml2's validation sees it.
      if (a.prolog) expect(JSON.stringify(r.value.messages), a.name).toContain('DOCTYPE');
      expect(r.ms, `${a.name}: ${Math.round(r.ms)} ms`).toBeLessThan(5_000);
      await expectNoLeak(JSON.stringify(r.value));
    });
  }

  it('refuses a SOAP request with an external entity as a security fault, calling nothing', async () => {
    for (const a of attacks('s:Envelope').slice(0, 5)) {
      const body = `<?xml version="1.0"?>${a.prolog}<s:Envelope xmlns:s="${SOAP}"><s:Header/><s:Body><GetStatus xmlns="http://wcf.dian.colombia"><trackId>${a.body}</trackId></GetStatus></s:Body></s:Envelope>`;
      const res = await fetch(sim.url, { method: 'POST', headers: { 'content-type': 'application/soap+xml; charset=utf-8' }, body });
      const text = await res.text();
      expect(res.status, a.name).toBe(500);
      expect(text, a.name).toMatch(/InvalidSecurity|Fault/);
      await expectNoLeak(text);
    }
  });

  it('refuses zip bombs: many files inflating past 20 MB, and a file whose header lies about its size, in bounded time and memory', async () => {
    const zeros = new Uint8Array(9 * 1024 * 1024);
    const files: Record<string, Uint8Array> = {};
    // Each file under the 10 MB limit; together 90 MB (50 such files, 470 KB zipped, inflated to 450 MB before the bound).
    for (let i = 0; i < 10; i++) files[`f${i}.xml`] = zeros;
    const many = zipSync(files, { level: 9 });
    const big = Buffer.from(zipSync({ 'a.xml': new Uint8Array(64 * 1024 * 1024) }, { level: 9 }));
    big.writeUInt32LE(100, 22); // the local header's uncompressed size
    big.writeUInt32LE(100, big.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24); // the central directory's
    for (const [name, zip, reason] of [
      ['many files', many, /suman más de/],
      ['lying header', new Uint8Array(big), /declara un tamaño menor/],
    ] as const) {
      const direct = await timed(async () => readZip(Buffer.from(zip).toString('base64')));
      expect(direct.value.ok, name).toBe(false);
      expect((direct.value as { reason: string }).reason).toMatch(reason);
      expect(direct.ms, `${name}: ${Math.round(direct.ms)} ms`).toBeLessThan(3_000);
      expect(direct.mb, `${name}: ${Math.round(direct.mb)} MB`).toBeLessThan(100);
      const c = client(sim.url);
      const r = await timed(() => c.sendBillSync('bomb.zip', zip));
      await c.close();
      expect(r.value.isValid, name).toBe(false);
      expect(r.ms).toBeLessThan(5_000);
    }
  });

  it('rejects signature wrapping: a second Signature, a moved signed element, a tampered value, a duplicated SignedProperties Id', async () => {
    const { xml } = await signedInvoice(990000777);
    expect(verifyDianXml(xml).valid).toBe(true);
    const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(xml)![0];
    const signedProps = /<xades:SignedProperties[\s\S]*<\/xades:SignedProperties>/.exec(xml)![0];
    const lastExtension = xml.lastIndexOf('<ext:UBLExtension>');
    const root = /<Invoice[^>]*>/.exec(xml)![0];
    const wrapped: [string, string][] = [
      [
        'a second Signature',
        xml.replace(
          '</ext:UBLExtensions>',
          `<ext:UBLExtension><ext:ExtensionContent>${signature}</ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>`,
        ),
      ],
      ['a tampered value', xml.replace(/(<cbc:PayableAmount[^>]*>)([^<]+)</, (_m, open, v) => `${open}${(Number(v) + 1).toFixed(2)}<`)],
      [
        // The signed invoice moved inside an extension of a forged one with another amount (XML signature wrapping).
        'a moved signed element',
        `${xml.slice(0, lastExtension)}<ext:UBLExtension><ext:ExtensionContent>${xml.slice(xml.indexOf(root))}</ext:ExtensionContent></ext:UBLExtension>${xml.slice(lastExtension)}`.replace(
          /(<cbc:PayableAmount[^>]*>)([^<]+)</,
          (_m, open, v) => `${open}${(Number(v) * 10).toFixed(2)}<`,
        ),
      ],
      [
        'a duplicated SignedProperties Id',
        xml.replace(
          '</ext:UBLExtensions>',
          `<ext:UBLExtension><ext:ExtensionContent>${signedProps.replace(/<xades:SigningTime>[^<]+/, '<xades:SigningTime>2020-01-01T00:00:00-05:00')}</ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>`,
        ),
      ],
    ];
    for (const [name, forged] of wrapped) {
      expect(forged, name).not.toBe(xml);
      const v = verifyDianXml(forged);
      expect(v.valid, `${name}: ${JSON.stringify(v).slice(0, 200)}`).toBe(false);
      const c = client(sim.url);
      const verdict = await c.sendBillSync('w.zip', zipOf({ name: 'fv.xml', xml: forged }));
      await c.close();
      expect(verdict.isValid, `${name}: the local DIAN rejects it`).toBe(false);
    }
  });
});

describe('the service with a DIAN whose accepted answer carries a hostile ApplicationResponse', () => {
  let sim: DianSimulator;
  let proxy: Server;
  let h: Harness;
  let tamper: string | null = null;
  beforeAll(async () => {
    const context = JSON.parse(readFileSync(join(repoRoot, 'examples/dian/context.json'), 'utf8'));
    const { NOW } = await import('../server/helpers.js');
    sim = await startDianSimulator({
      xsdDir: dianXsdDir(),
      clock: () => NOW,
      companies: [{ nit: EXAMPLE_NIT, softwareId: context.software.id, pin: context.software.pin, providerNit: context.software.provider_nit }],
      ranges: [
        {
          ...RANGE,
          nit: EXAMPLE_NIT,
          softwareId: context.software.id,
          technicalKey: context.resolution.technical_key,
          validFrom: '2025-01-01',
          validTo: '2026-12-31',
          resolutionDate: '2025-01-01',
        },
      ],
    });
    // Between the service and the local DIAN: SendBillSync answers get `tamper` as their ApplicationResponse.
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const up = await fetch(sim.url, { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body });
        let text = await up.text();
        if (tamper !== null && body.includes('SendBillSync'))
          text = text.replace(/(<b:XmlBase64Bytes>)[^<]*(<\/b:XmlBase64Bytes>)/, (_m, a, b) => `${a}${Buffer.from(tamper!).toString('base64')}${b}`);
        res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/soap+xml' }).end(text);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    h = await startHarness('sqlite', {
      authority: { endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/WcfDianCustomerServices.svc` },
      mail: false,
    });
  });
  afterAll(async () => {
    await h?.cleanup();
    await new Promise((r) => proxy?.close(r));
    await sim?.close();
  });

  const AR = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2';
  it('answers 502 (documented), reads no file, calls nothing; the same request later gets the accepted document by GetStatus', async () => {
    let number = 990_300_000;
    for (const a of [
      ...attacks('ApplicationResponse'),
      { name: 'not an ApplicationResponse', prolog: '', body: '' },
      { name: 'not XML', prolog: '', body: '' },
    ]) {
      tamper =
        a.name === 'not XML'
          ? '\u0000\u0001 not xml'
          : a.name === 'not an ApplicationResponse'
            ? `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>`
            : `<?xml version="1.0" encoding="UTF-8"?>${a.prolog}<ApplicationResponse xmlns="${AR}" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:Note>${a.body}</cbc:Note></ApplicationResponse>`;
      const request = { ...example('invoice'), number: ++number };
      const r = await timed(async () =>
        h.server.app.request('/service/invoice', { method: 'POST', headers: { authorization: `Bearer ${h.token}` }, body: JSON.stringify(request) }),
      );
      const text = await r.value.text();
      expect(r.value.status, `${a.name}: ${text.slice(0, 300)}`).toBe(502);
      expect(JSON.parse(text).message).toMatch(/ApplicationResponse/);
      expect(r.ms, `${a.name}: ${Math.round(r.ms)} ms`).toBeLessThan(10_000);
      await expectNoLeak(text);
      tamper = null;
      const again = await h.server.app.request('/service/invoice', {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}` },
        body: JSON.stringify(request),
      });
      const body = (await again.json()) as { document: { statusCode: number; appResponseBase64Bytes: string } };
      expect(again.status, `${a.name}: the same request after DIAN answers properly`).toBe(200);
      expect(body.document.statusCode).toBe(6);
    }
    expect(sim.stats().documents.accepted, 'each document sent once (the retry asked GetStatus)').toBe(9);
    expect(sim.stats().documents.duplicates).toBe(0);
    const files = readdirSync(h.dataDir, { recursive: true }) as string[];
    for (const f of files) {
      const p = join(h.dataDir, f);
      if (statSync(p).isFile()) expect(readFileSync(p).includes(SECRET), `${f} holds no secret`).toBe(false);
    }
  });
});

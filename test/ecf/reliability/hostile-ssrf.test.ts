/**
 * Hostile receivers and hostile documents (issue 13, findings 5 and 10), generated in numbers:
 *
 * - directory URLs an attacker could publish (loopback in every spelling, `data:`/`file:` schemes, extra path,
 *   query and fragment, credentials, encoded prefixes) against the receiver client with http allowed but no
 *   address allowed: every one is refused or reaches only the fixed service path, and a counting server on
 *   loopback sees nothing;
 * - resolver answers an attacker controls (private, link-local, metadata, CGNAT, ULA, IPv4-mapped, mixed with
 *   public ones) through the guarded lookup with a stub resolver: never a connection, always refused;
 * - redirect chains: the redirect target is never hit;
 * - e-CF with a decoy RNCComprador in comments, CDATA sections and processing instructions at random places:
 *   the value read is always the real element's.
 *
 * Network rule: nothing leaves loopback (private addresses only ever go through the stub resolver).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceptorClient, type ReceptorClient } from '../../../src/ecf/dgii/receptor-client.js';
import { guardedLookup, LOOPBACK_RANGES, ReceiverAddressError } from '../../../src/ecf/dgii/receiver-guard.js';
import { xmlValue } from '../../../src/ecf/server/inbound/xml.js';
import { testIdentity } from '../dgii/helpers/stand-in.js';
import { scale } from './mode.js';

const N = scale(40, 1_000);
const ACECF = { fileName: '131880738E310000000001.xml', xml: '<ACECF><DetalleAprobacionComercial><Version>1.0</Version></DetalleAprobacionComercial></ACECF>' };

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

let hits: string[] = [];
const who = testIdentity('130000001');
let server: Server;
let port = 0;
let client: ReceptorClient;
let dev: ReceptorClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/redirect')) {
        res.writeHead(pick(Math.random, [301, 302, 303, 307, 308]), { location: `http://127.0.0.1:${port}/target${req.url}` });
        res.end();
      } else res.end('OK');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
  client = createReceptorClient({ retries: 0, timeoutMs: 5_000, receivers: { allowHttp: true } });
  dev = createReceptorClient({ retries: 0, timeoutMs: 5_000, receivers: { allowHttp: true, allowAddresses: LOOPBACK_RANGES } });
});
afterAll(async () => {
  await client?.close();
  await dev?.close();
  await new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
});

describe('hostile directory URLs (no development address allowance)', () => {
  it(`${N} generated URLs: none reaches the loopback server`, async () => {
    const r = rng(13);
    const hosts = [
      '127.0.0.1',
      'localhost',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '127.1',
      '2130706433',
      '0x7f000001',
      '127.0.0.2',
      '[0:0:0:0:0:ffff:127.0.0.1]',
    ];
    const tails = [
      '',
      '/',
      '/fe/aprobacioncomercial/api/ecf',
      '/admin?x=/fe/aprobacioncomercial/api/ecf',
      '/a/b/c#/fe/recepcion/api/ecf',
      '/%2e%2e/%2e%2e/etc',
      '/t/131880738/fe/x?y=1',
    ];
    const schemes = ['http://', 'http://user:pw@', 'data:text/plain,', 'file://', 'gopher://', 'ftp://', 'HTTP://'];
    for (let i = 0; i < N; i++) {
      const url = `${pick(r, schemes)}${pick(r, hosts)}${pick(r, ['', `:${port}`])}${pick(r, tails)}`;
      const outcome = await client.sendApproval({ urlAceptacion: url, ...(r() < 0.3 ? { urlOpcional: url } : {}) }, who, ACECF).then(
        () => 'delivered',
        (e: Error) => e.name,
      );
      expect(['EcfError', 'TransportError'], `${url}: ${outcome}`).toContain(outcome);
    }
    expect(hits).toEqual([]);
  });

  it(`${N} resolver answers with refused addresses (stub resolver): always refused, never connected`, async () => {
    const r = rng(5);
    const refused = [
      '10.0.0.1',
      '10.255.1.2',
      '172.16.5.4',
      '192.168.0.10',
      '100.64.0.1',
      '169.254.169.254',
      '169.254.1.1',
      '0.0.0.0',
      '127.0.0.1',
      '224.0.0.251',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'fc00::abcd',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
    ];
    const publics = ['93.184.216.34', '2606:4700:4700::1111', '8.8.4.4'];
    for (let i = 0; i < N; i++) {
      const answer = [pick(r, refused), ...(r() < 0.5 ? [pick(r, publics)] : [])]
        .sort(() => r() - 0.5)
        .map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      const lookup = guardedLookup({ resolve: async () => answer });
      const err = await new Promise<Error | null>((res) => lookup('receiver.example.do', { all: r() < 0.5 }, (e) => res(e)));
      expect(err, JSON.stringify(answer)).toBeInstanceOf(ReceiverAddressError);
    }
  });

  it(`${scale(10, 200)} redirects (development policy): the target is never hit`, async () => {
    hits = [];
    for (let i = 0; i < scale(10, 200); i++) {
      const outcome = await dev
        .sendApproval(
          { urlAceptacion: `http://127.0.0.1:${port}/redirect${i}`, ...(i % 2 ? { urlOpcional: `http://127.0.0.1:${port}/redirect${i}` } : {}) },
          who,
          ACECF,
        )
        .then(
          (d) => (d.ok ? 'delivered' : `HTTP ${d.status}`),
          (e: Error) => e.name,
        );
      expect(outcome).not.toBe('delivered');
    }
    expect(hits.filter((h) => h.includes('/target'))).toEqual([]);
    expect(hits.length).toBe(scale(10, 200));
  });
});

describe('hostile decoys in received e-CF', () => {
  it(`${N} documents with decoy RNCComprador in comments, CDATA and PIs: the real buyer is always read`, () => {
    const r = rng(10);
    const decoy = () => `<RNCComprador>${String(Math.floor(r() * 1e9)).padStart(9, '0')}</RNCComprador>`;
    const wrap = [(d: string) => `<!--${d}-->`, (d: string) => `<?pi ${d}?>`, (d: string) => `<!-- x --><!--${d}${d}-->`];
    for (let i = 0; i < N; i++) {
      const around = () => (r() < 0.6 ? pick(r, wrap)(decoy()) : '');
      const cdata = r() < 0.5 ? `<![CDATA[${decoy()}]]>` : 'Proveedor';
      const xml =
        `<?xml version="1.0"?>${around()}<ECF>${around()}<Encabezado>${around()}<Emisor><RazonSocialEmisor>${cdata}</RazonSocialEmisor></Emisor>${around()}` +
        `<Comprador>${around()}<RNCComprador>130000001</RNCComprador>${around()}</Comprador></Encabezado></ECF>`;
      expect(xmlValue(xml, ['Encabezado', 'Comprador', 'RNCComprador']), xml).toBe('130000001');
    }
  });
});

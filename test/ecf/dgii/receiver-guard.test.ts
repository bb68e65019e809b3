/**
 * Issue 13, finding 5 (SSRF through commercial approval and delivery): the receiver client reaches only the
 * fixed DT service path at the published origin, over https, at public addresses checked when the connection
 * is made, never follows a redirect and reads a bounded answer.
 *
 * Network rule of this suite: no traffic ever leaves loopback. Private, link-local and metadata addresses are
 * exercised through the guard's lookup and connector with stub resolvers and a stub base connector that fails
 * the test if it is ever asked to connect; only loopback targets are reached through the real client (and a
 * counting server proves nothing arrives).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { createReceptorClient, type ReceptorClient, type ReceptorClientOptions } from '../../../src/ecf/dgii/receptor-client.js';
import {
  guardConnector,
  guardedLookup,
  LOOPBACK_RANGES,
  receiverAddressProblem,
  ReceiverAddressError,
  RECEIVER_ADDRESS_REFUSED,
} from '../../../src/ecf/dgii/receiver-guard.js';
import type { AuthorityIdentity, XmlFile } from '../../../src/ecf/dgii/types.js';
import { EcfError } from '../../../src/shared/errors/ecf-error.js';
import { TransportError } from '../../../src/shared/errors/transport-error.js';
import { testIdentity } from './helpers/stand-in.js';

const ACECF: XmlFile = {
  fileName: '131880738E310000000001.xml',
  xml: '<?xml version="1.0" encoding="utf-8"?><ACECF><DetalleAprobacionComercial><Version>1.0</Version></DetalleAprobacionComercial></ACECF>',
};
const DEV: ReceptorClientOptions['receivers'] = { allowHttp: true, allowAddresses: LOOPBACK_RANGES };

const REFUSED_LITERALS = [
  '127.0.0.1',
  '127.8.9.10',
  '10.0.0.1',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '100.64.0.1',
  '169.254.169.254',
  '169.254.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  'fe80::1',
  'fc00::1',
  'fd12:3456::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:a9fe:a9fe',
  '0:0:0:0:0:ffff:169.254.169.254',
  '::127.0.0.1',
  '64:ff9b::a9fe:a9fe',
  '2002:a9fe:a9fe::1',
  '[::ffff:127.0.0.1]',
];
const PUBLIC_LITERALS = ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1', '100.128.0.1'];

describe('receiverAddressProblem', () => {
  it('refuses loopback, private (RFC 1918, CGNAT, ULA), link-local and metadata, unspecified, multicast and IPv4-mapped forms', () => {
    for (const ip of REFUSED_LITERALS) expect(receiverAddressProblem(ip), ip).not.toBeNull();
    for (const ip of PUBLIC_LITERALS) expect(receiverAddressProblem(ip), ip).toBeNull();
    expect(receiverAddressProblem('fe.example.do')).toMatch(/not an IP address/);
  });

  it('the development allow-list lets loopback through, and nothing else', () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(receiverAddressProblem(ip, LOOPBACK_RANGES), ip).toBeNull();
    for (const ip of ['10.0.0.1', '169.254.169.254', '::ffff:a9fe:a9fe', 'fd00::1']) expect(receiverAddressProblem(ip, LOOPBACK_RANGES), ip).not.toBeNull();
  });
});

/** Runs the guarded lookup as net.connect would. */
function lookupWith(addresses: LookupAddress[], all: boolean, allow: readonly string[] = []): Promise<{ err: Error | null; result: unknown }> {
  const lookup = guardedLookup({ resolve: async () => addresses, allowAddresses: allow });
  return new Promise((resolve) => lookup('receiver.example.do', { all }, (err, result) => resolve({ err, result })));
}

describe('guardedLookup: the check is on the resolved address, at connect time', () => {
  it('refuses a name that resolves to a private, link-local or metadata address (stub resolver: nothing is contacted)', async () => {
    for (const address of ['10.0.0.1', '169.254.169.254', '127.0.0.1', '::ffff:127.0.0.1', 'fd00::1', '100.64.1.1']) {
      for (const all of [true, false]) {
        const { err } = await lookupWith([{ address, family: address.includes(':') ? 6 : 4 }], all);
        expect(err, address).toBeInstanceOf(ReceiverAddressError);
        expect((err as ReceiverAddressError).code).toBe(RECEIVER_ADDRESS_REFUSED);
      }
    }
  });

  it('refuses when any of the addresses is refused (no choosing the good one: rebinding between resolutions)', async () => {
    const { err } = await lookupWith(
      [
        { address: '93.184.216.34', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ],
      true,
    );
    expect(err).toBeInstanceOf(ReceiverAddressError);
  });

  it('passes public addresses on in the form net.connect asked for', async () => {
    expect(await lookupWith([{ address: '93.184.216.34', family: 4 }], true)).toEqual({ err: null, result: [{ address: '93.184.216.34', family: 4 }] });
    expect((await lookupWith([{ address: '93.184.216.34', family: 4 }], false)).result).toBe('93.184.216.34');
    expect((await lookupWith([{ address: '127.0.0.1', family: 4 }], true, LOOPBACK_RANGES)).err).toBeNull();
  });
});

describe('guardConnector: literal IPs (which net.connect never passes to lookup)', () => {
  it('refuses before the base connector runs; host names go on to it', async () => {
    const asked: string[] = [];
    const base = ((opts: { hostname: string }, cb: (err: Error | null, socket: null) => void) => {
      asked.push(opts.hostname);
      cb(new Error('stub base connector: no connection is made in this test'), null);
    }) as unknown as Parameters<typeof guardConnector>[0];
    const connect = guardConnector(base, {});
    const run = (hostname: string) =>
      new Promise<Error | null>((resolve) =>
        connect(
          { hostname, host: hostname, protocol: 'https:', port: '443' } as Parameters<typeof connect>[0],
          ((err: Error | null) => resolve(err)) as unknown as Parameters<typeof connect>[1],
        ),
      );
    for (const ip of ['10.0.0.1', '169.254.169.254', '[::ffff:127.0.0.1]', '[::1]', '127.0.0.1', '[fd00::1]']) {
      expect(await run(ip), ip).toBeInstanceOf(ReceiverAddressError);
    }
    expect(asked).toEqual([]);
    await run('fe.example.do');
    expect(asked).toEqual(['fe.example.do']);
  });
});

// ------------------------------------------------------------------------------------ real client, loopback

interface Counting {
  url: string;
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Counting> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function server(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Counting> {
  const s = await serve(handler);
  open.push(s);
  return s;
}
function client(options: ReceptorClientOptions = {}): ReceptorClient {
  const c = createReceptorClient({ retries: 1, backoffMs: 1, timeoutMs: 5_000, ...options });
  open.push(c);
  return c;
}
const who = (): AuthorityIdentity => testIdentity('130000001');

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

describe('receiver client: URLs', () => {
  it('a directory URL with extra path and query reaches only the fixed service path (query, fragment and the tail after /fe dropped)', async () => {
    const s = await server((_req, res) => res.end('OK'));
    const c = client({ receivers: DEV });
    expect((await c.sendApproval({ urlAceptacion: `${s.url}/?delete=all&x=/fe/aprobacioncomercial/api/ecf` }, who(), ACECF)).ok).toBe(true);
    expect((await c.sendApproval({ urlAceptacion: `${s.url}/fe/admin/delete?all=1#/fe/aprobacioncomercial/api/ecf` }, who(), ACECF)).ok).toBe(true);
    expect((await c.sendApproval({ urlAceptacion: `${s.url}/internal?x=/fe/aprobacioncomercial/api/ecf` }, who(), ACECF)).ok).toBe(true);
    expect(s.hits).toEqual(['POST /fe/aprobacioncomercial/api/ecf', 'POST /fe/aprobacioncomercial/api/ecf', 'POST /internal/fe/aprobacioncomercial/api/ecf']);
    await expect(c.sendApproval({ urlAceptacion: `${s.url}/a%2F..%2Fadmin` }, who(), ACECF)).rejects.toBeInstanceOf(EcfError);
    expect(s.hits).toHaveLength(3);
  });

  it('a data: URL (even one ending with the service path) is refused', async () => {
    const e = await failure(client({ receivers: DEV }).sendApproval({ urlAceptacion: 'data:text/plain,OK/fe/aprobacioncomercial/api/ecf' }, who(), ACECF));
    expect(e).toBeInstanceOf(EcfError);
    expect((e as EcfError).code).toBe('invalid_argument');
  });

  it('without the development policy, http is refused before any connection', async () => {
    const s = await server((_req, res) => res.end('OK'));
    const e = await failure(client().sendApproval({ urlAceptacion: s.url }, who(), ACECF));
    expect(e).toBeInstanceOf(EcfError);
    expect(s.hits).toEqual([]);
  });
});

describe('receiver client: addresses checked at connect time', () => {
  it('loopback by literal, by name and in IPv4-mapped form is refused when only http is allowed; nothing arrives', async () => {
    const s = await server((_req, res) => res.end('OK'));
    const c = client({ receivers: { allowHttp: true } });
    for (const url of [s.url, `http://localhost:${s.port}`, `http://[::ffff:127.0.0.1]:${s.port}`, `http://127.1:${s.port}`]) {
      const e = await failure(c.sendApproval({ urlAceptacion: url }, who(), ACECF));
      expect(e, url).toBeInstanceOf(TransportError);
      expect((e as TransportError).retryable, url).toBe(false);
      expect((e as TransportError).outcomeUnknown, url).toBe(false);
      expect((e as Error).message, url).toMatch(/address guard/);
    }
    expect(s.hits).toEqual([]);
  });

  it('a name the resolver maps to a refused address is refused (stub resolver answering loopback)', async () => {
    const s = await server((_req, res) => res.end('OK'));
    const c = client({ receivers: { allowHttp: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] } });
    const e = await failure(c.sendApproval({ urlAceptacion: `http://localhost:${s.port}` }, who(), ACECF));
    expect((e as Error).message).toMatch(/address guard/);
    expect(s.hits).toEqual([]);
  });
});

describe('receiver client: no redirects, bounded answers', () => {
  it('a receiver answering 302 to another server: the other server is never hit (seed GET and approval POST)', async () => {
    const target = await server((_req, res) => res.end('<SemillaModel><valor>x</valor><fecha>2026-04-01T10:00:00</fecha></SemillaModel>'));
    const redirecting = await server((_req, res) => {
      res.writeHead(302, { location: `${target.url}/fe/autenticacion/api/semilla` });
      res.end();
    });
    const c = client({ receivers: DEV });
    const seed = await failure(c.sendApproval({ urlAceptacion: redirecting.url, urlOpcional: redirecting.url }, who(), ACECF));
    expect(seed).toBeInstanceOf(TransportError);
    const post = await failure(c.sendApproval({ urlAceptacion: redirecting.url }, who(), ACECF));
    expect(post).toBeInstanceOf(TransportError);
    expect(redirecting.hits).toEqual(['GET /fe/autenticacion/api/semilla', 'POST /fe/aprobacioncomercial/api/ecf']);
    expect(target.hits).toEqual([]);
  });

  it('an answer longer than the bound is not read', async () => {
    const big = 'A'.repeat(300 * 1024);
    const declared = await server((_req, res) => res.end(big));
    const chunked = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 30; i++) res.write('B'.repeat(10 * 1024));
      res.end();
    });
    const c = client({ receivers: DEV, maxResponseBytes: 64 * 1024 });
    for (const s of [declared, chunked]) {
      const e = await failure(c.sendApproval({ urlAceptacion: s.url }, who(), ACECF));
      expect(e).toBeInstanceOf(TransportError);
      expect((e as TransportError).code).toBe('bad_response');
      expect((e as Error).message).toMatch(/exceeds 65536 bytes/);
    }
  });

  it('refuses a dispatcher (it would bypass the guard)', () => {
    expect(() => createReceptorClient({ dispatcher: {} } as unknown as ReceptorClientOptions)).toThrow(TypeError);
  });
});

/**
 * Guard for calls to other taxpayers' receiver services (issue 13, finding 5: SSRF). Receiver URLs come from
 * DGII's directory, which any taxpayer fills in, so they are untrusted:
 *
 * - the URL called is always the published URL's origin, its plain path prefix (the part before `/fe`, letters,
 *   digits and `-._~` only) and the fixed DT service path: no other path, query, fragment or credentials of the
 *   directory entry survive; over https (http only when `allowHttp`);
 * - the address is checked when the connection is made, after DNS resolution (a custom `lookup` for host
 *   names, a check of literal IPs in the connector), so a name that resolves, or later re-resolves (DNS
 *   rebinding), to loopback, private (RFC 1918, CGNAT, ULA), link-local (cloud metadata 169.254.169.254),
 *   unspecified, multicast, documentation or reserved space is refused before any byte is sent; IPv4-mapped,
 *   IPv4-compatible, NAT64 and 6to4 IPv6 forms are judged by the IPv4 address they carry;
 * - `allowAddresses` lists ranges (CIDR) that are allowed anyway: development and tests only (a receiver
 *   simulated on loopback).
 *
 * Redirects are never followed and answers are read up to a bound (see `createReceptorClient`).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { EcfError } from '../../shared/errors/ecf-error.js';

/** DNS resolution as `dns.lookup` with `{ all: true }` does it (injectable for tests). */
export type ReceiverResolver = (hostname: string) => Promise<LookupAddress[]>;

/** What the receiver client may reach. Defaults are the production ones: https and public addresses only. */
export interface ReceiverPolicy {
  /** Accept `http:` receiver URLs. Default false (development and tests only). */
  allowHttp?: boolean;
  /**
   * Address ranges (CIDR, e.g. `127.0.0.0/8`, `::1/128`) allowed although they are not public. Default none
   * (development and tests only: see {@link LOOPBACK_RANGES}).
   */
  allowAddresses?: readonly string[];
  /** Resolver of host names. Default `dns.lookup` (all addresses). */
  resolve?: ReceiverResolver;
}

/**
 * The loopback ranges, for a development or test configuration whose receivers run on this machine.
 *
 * @example
 * createReceptorClient({ receivers: { allowHttp: true, allowAddresses: LOOPBACK_RANGES } })
 */
export const LOOPBACK_RANGES: readonly string[] = ['127.0.0.0/8', '::1/128'];

/** The fixed DT paths of a receiver's services (DT pp. 52–57). */
export const RECEIVER_PATHS = {
  recepcion: '/fe/recepcion/api/ecf',
  aprobacion: '/fe/aprobacioncomercial/api/ecf',
  semilla: '/fe/autenticacion/api/semilla',
  validacion: '/fe/autenticacion/api/validacioncertificado',
} as const;

/** Error code of a connection refused by the guard (nothing was sent). */
export const RECEIVER_ADDRESS_REFUSED = 'ERR_RECEIVER_ADDRESS_REFUSED';

/** A receiver address the guard refused; carries `code` {@link RECEIVER_ADDRESS_REFUSED}. */
export class ReceiverAddressError extends EcfError {
  declare readonly code: typeof RECEIVER_ADDRESS_REFUSED;
  constructor(message: string) {
    super(message, { code: RECEIVER_ADDRESS_REFUSED });
    this.name = 'ReceiverAddressError';
  }
}

/** Largest path prefix kept from a published URL (characters, segments). */
const MAX_PREFIX_CHARS = 200;
const MAX_PREFIX_SEGMENTS = 8;
const SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

/**
 * The base of a published receiver URL: its origin plus the path prefix that precedes the DT service paths
 * (everything from the first `/fe` segment on, the query, the fragment and any credentials are dropped), or
 * null when no URL is published. A prefix is kept because receivers do live below one (DGII's own test
 * receptor at `/{env}/emisorreceptor`, a multi-tenant service at `/t/{rnc}`), but only as plain segments
 * (letters, digits, `-._~`; no `.`/`..`, no percent-encoding), at most 8 segments / 200 characters.
 *
 * @throws EcfError `invalid_argument` for anything but an absolute https URL (http with `allowHttp`), or a prefix
 *   that is not plain
 * @example
 * receiverBase('https://fe.example.do/t/131880738/fe/recepcion/api/ecf?a=1#b') //=> 'https://fe.example.do/t/131880738'
 */
export function receiverBase(url: string | null | undefined, policy: ReceiverPolicy = {}): string | null {
  const trimmed = url?.trim();
  if (!trimmed) return null;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new EcfError(`"${shorten(trimmed)}" is not a valid receiver URL.`, { code: 'invalid_argument' });
  }
  const allowed = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(parsed.protocol)) {
    throw new EcfError(`"${shorten(trimmed)}" is not ${policy.allowHttp ? 'an http(s)' : 'an https'} receiver URL.`, { code: 'invalid_argument' });
  }
  if (!parsed.hostname) throw new EcfError(`"${shorten(trimmed)}" has no host.`, { code: 'invalid_argument' });
  const segments = parsed.pathname.split('/').filter((x) => x !== '');
  const fe = segments.findIndex((x) => x.toLowerCase() === 'fe');
  const prefix = fe < 0 ? segments : segments.slice(0, fe);
  const joined = prefix.map((x) => `/${x}`).join('');
  if (prefix.length > MAX_PREFIX_SEGMENTS || joined.length > MAX_PREFIX_CHARS || prefix.some((x) => !SEGMENT.test(x) || x === '.' || x === '..')) {
    throw new EcfError(`"${shorten(trimmed)}" has a path that is not a plain prefix of the receiver services.`, { code: 'invalid_argument' });
  }
  return parsed.origin + joined;
}

function shorten(s: string): string {
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}

// ------------------------------------------------------------------------------------------- addresses

interface Range {
  v6: boolean;
  net: bigint;
  bits: number;
}

/** Not public: refused unless allowed. IPv4 ranges are written as IPv4; mapped IPv6 forms are reduced to IPv4 first. */
const REFUSED: readonly string[] = [
  '0.0.0.0/8', // "this network", unspecified
  '10.0.0.0/8', // RFC 1918
  '100.64.0.0/10', // CGNAT (RFC 6598)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata (169.254.169.254)
  '172.16.0.0/12', // RFC 1918
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24',
  '198.51.100.0/24',
  '203.0.113.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // RFC 1918
  '198.18.0.0/15', // benchmarking
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
  '::/128',
  '::1/128', // unspecified, loopback
  '64:ff9b:1::/48', // NAT64 local use
  '100::/64', // discard
  '2001::/32', // Teredo
  '2001:db8::/32', // documentation
  'fc00::/7', // unique local (ULA)
  'fe80::/10',
  'fec0::/10', // link-local, site-local
  'ff00::/8', // multicast
];
const REFUSED_RANGES = REFUSED.map(parseRange);

function parseRange(cidr: string): Range {
  const [ip, bitsText] = cidr.trim().split('/');
  const addr = parseIp(ip ?? '');
  if (!addr) throw new RangeError(`"${cidr}" is not an address range (CIDR such as 127.0.0.0/8 or ::1/128)`);
  const max = addr.v6 ? 128 : 32;
  const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= max)) throw new RangeError(`"${cidr}" has an invalid prefix length`);
  return { v6: addr.v6, net: addr.value >> BigInt(max - bits), bits };
}

function inRange(a: { v6: boolean; value: bigint }, r: Range): boolean {
  if (a.v6 !== r.v6) return false;
  const max = a.v6 ? 128 : 32;
  return a.value >> BigInt(max - r.bits) === r.net;
}

/** An IPv4 or IPv6 literal as a number; IPv6 forms that carry an IPv4 address are reduced to it. */
function parseIp(text: string): { v6: boolean; value: bigint } | null {
  const ip = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return { v6: false, value: ipv4Value(ip) };
  if (family !== 6) return null;
  const value = ipv6Value(ip);
  if (value === null) return null;
  const v4 = value & 0xffffffffn;
  const high96 = value >> 32n;
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64).
  if (high96 === 0xffffn || (high96 === 0n && value > 1n) || high96 === 0x0064ff9b0000000000000000n) return { v6: false, value: v4 };
  // 2002:a.b.c.d::/48 (6to4).
  if (value >> 112n === 0x2002n) return { v6: false, value: (value >> 80n) & 0xffffffffn };
  return { v6: true, value };
}

function ipv4Value(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Value(ip: string): bigint | null {
  let text = ip.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Value(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${((v4 >> 16n) & 0xffffn).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  return value;
}

/**
 * Why a receiver must not be reached at `address` (an IP literal), or null when it may. Addresses that are not
 * IP literals are refused.
 *
 * @example
 * receiverAddressProblem('169.254.169.254') //=> 'link-local, private or reserved address 169.254.169.254'
 * receiverAddressProblem('127.0.0.1', ['127.0.0.0/8']) //=> null
 */
export function receiverAddressProblem(address: string, allowAddresses: readonly string[] = []): string | null {
  const a = parseIp(address);
  if (!a) return `"${shorten(address)}" is not an IP address`;
  if (allowAddresses.map(parseRange).some((r) => inRange(a, r))) return null;
  if (REFUSED_RANGES.some((r) => inRange(a, r))) return `link-local, private or reserved address ${address}`;
  return null;
}

/** Validates an allow-list (throws RangeError on a bad CIDR); returns it. */
export function checkAllowAddresses(list: readonly string[]): readonly string[] {
  for (const cidr of list) parseRange(cidr);
  return list;
}

const systemResolver: ReceiverResolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect` / `tls.connect` that resolves with `policy.resolve` and refuses the connection
 * when ANY resolved address is not allowed (so the check is on the address actually connected to).
 */
export function guardedLookup(policy: ReceiverPolicy = {}) {
  const resolve = policy.resolve ?? systemResolver;
  const allow = checkAllowAddresses(policy.allowAddresses ?? []);
  return (hostname: string, options: { all?: boolean; family?: number | string } | number, callback: LookupCallback): void => {
    const opts = typeof options === 'object' && options !== null ? options : {};
    resolve(hostname).then(
      (addresses) => {
        const wanted = opts.family === 4 || opts.family === 'IPv4' ? 4 : opts.family === 6 || opts.family === 'IPv6' ? 6 : 0;
        const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' }), opts.all ? [] : '', 0);
          return;
        }
        for (const a of usable) {
          const problem = receiverAddressProblem(a.address, allow);
          if (problem) {
            callback(new ReceiverAddressError(`Receiver host ${hostname} refused: ${problem}`), opts.all ? [] : '', 0);
            return;
          }
        }
        if (opts.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, opts.all ? [] : '', 0),
    );
  };
}

/**
 * Wraps an undici connector: a literal IP host (which `net.connect` does not pass to `lookup`) is checked here,
 * before `base` runs; host names go to `base`, which must resolve with {@link guardedLookup}.
 */
export function guardConnector(base: buildConnector.connector, policy: ReceiverPolicy = {}): buildConnector.connector {
  const allow = checkAllowAddresses(policy.allowAddresses ?? []);
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const problem = receiverAddressProblem(host, allow);
      if (problem) {
        callback(new ReceiverAddressError(`Receiver address refused: ${problem}`), null);
        return;
      }
    }
    base(opts, callback);
  };
}

/** The connector of the receiver client: TLS 1.2 or later, guarded lookup and literal-IP check. */
export function receiverConnector(policy: ReceiverPolicy, timeoutMs: number): buildConnector.connector {
  const base = buildConnector({ minVersion: 'TLSv1.2', timeout: timeoutMs, lookup: guardedLookup(policy) } as buildConnector.BuildOptions);
  return guardConnector(base, policy);
}

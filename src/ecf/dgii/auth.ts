/**
 * Seed authentication (DT pp. 7–11, 52–55): GET the seed, sign it, POST it back as multipart `xml`,
 * receive `{token, expira, expedido}`; and the per-instance token cache.
 */
import { signXml } from '../sign/index.js';
import type { Clock, Signer } from '../../shared/ports.js';
import type { HttpCore } from '../../shared/http/core.js';
import { multipartXml } from './http.js';
import { parseAuthToken, parseSeed } from './parse.js';
import type { AuthToken } from './types.js';

/**
 * Renew this long before a token expires, so that no request travels with a token about to lapse.
 *
 * @example
 * TOKEN_RENEWAL_MARGIN_MS //=> 60000
 */
export const TOKEN_RENEWAL_MARGIN_MS = 60_000;

/**
 * Removes whitespace between tags. DGII serves the seed pretty-printed, and a signature computed over
 * the indented text fails ("Firma del certificado invalida", dgii-protocol.md §3 item 1).
 *
 * @example
 * compactXml('<SemillaModel>\n  <valor>abc</valor>\n</SemillaModel>\n') //=> '<SemillaModel><valor>abc</valor></SemillaModel>'
 */
export function compactXml(xml: string): string {
  return xml
    .replace(/^\uFEFF/, '')
    .replace(/>\s+</g, '><')
    .trim();
}

/**
 * The whole seed exchange, retried as a unit (each attempt asks for a fresh seed, because a seed
 * that reached the server may already be spent).
 */
export function exchangeSeed(http: HttpCore, urls: { seed: string; validate: string }, signer: Signer, label: string): Promise<AuthToken> {
  return http.retry(`${label} authentication`, async () => {
    const seedReq = { method: 'GET', url: urls.seed, headers: { Accept: '*/*' }, idempotent: true, what: `${label} seed` } as const;
    const seedRes = await http.send(seedReq);
    const seedFailure = http.failureFor(seedReq, seedRes);
    if (seedFailure) throw seedFailure;
    const signed = await signXml(compactXml(parseSeed(seedRes.text, seedRes.contentType)), signer);
    const { body, contentType } = multipartXml({ fileName: 'semilla.xml', xml: signed });
    const validateReq = {
      method: 'POST',
      url: urls.validate,
      headers: { Accept: 'application/json', 'Content-Type': contentType, 'Content-Length': String(body.byteLength) },
      body,
      // Re-posting a signed seed changes nothing on the server; the retry asks for a new seed anyway.
      idempotent: true,
      what: `${label} seed validation`,
    } as const;
    const res = await http.send(validateReq);
    const failure = http.failureFor(validateReq, res);
    if (failure) throw failure;
    return parseAuthToken(res.text, res.contentType);
  });
}

interface Entry {
  token: AuthToken;
  /** Local instant (ms) after which the token is not used any more. */
  renewAt: number;
}

/**
 * Tokens by key (the RNC, or receiver + RNC), held by one client instance only. Concurrent callers
 * of one key share a single in-flight authentication. Expiry is judged on the local clock from the
 * token's lifetime (`expira − expedido`, counted from when it arrived), so a skewed local clock
 * neither renews every call nor keeps a lapsed token.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<AuthToken>>();

  constructor(
    private readonly clock: Clock,
    private readonly marginMs = TOKEN_RENEWAL_MARGIN_MS,
  ) {}

  get(key: string, fetchToken: () => Promise<AuthToken>): Promise<AuthToken> {
    const entry = this.entries.get(key);
    if (entry && this.clock().getTime() < entry.renewAt) return Promise.resolve(entry.token);
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = fetchToken()
        .then((token) => {
          const now = this.clock().getTime();
          const lifetime = token.expiresAt.getTime() - token.issuedAt.getTime();
          const expiresLocal = lifetime > 0 ? now + lifetime : token.expiresAt.getTime();
          this.entries.set(key, { token, renewAt: expiresLocal - this.marginMs });
          return token;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  /** Forgets `token` for `key` (after a 401); a newer token another caller already got is kept. */
  invalidate(key: string, token: string): void {
    if (this.entries.get(key)?.token.token === token) this.entries.delete(key);
  }
}

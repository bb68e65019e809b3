/**
 * Credentials at rest and their checks (issue 8, part 5, item 1), on SQLite and PostgreSQL:
 *
 * - API bearer tokens and the inbound tokens `/fe/autenticacion` issues to other parties are stored as their
 *   SHA-256 only: every cell of every table is read back raw and none holds a token (nor its base64 / hex
 *   form), an uploaded .p12, its password or the certificate key.
 * - A stored hash is not a credential (presenting it fails): the lookup hashes what the caller sends.
 * - Revoked API tokens and expired inbound tokens are refused, with the same answer as unknown ones.
 * - No secret is compared with `===` in the server or the DGII client (constant-time: the one direct
 *   comparison helper is `tokensEqual`; token checks are lookups of a SHA-256 digest).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../../src/shared/server-kit/tokens.js';
import { repoRoot } from '../../helpers/env.js';
import { A, B, BACKENDS, createTenantHarness, deliver, FOREIGN, foreignEcf, inboundLogin, uploadCertificate, type TenantHarness } from './harness.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Every table of the harness's database, every row. */
async function dump(h: TenantHarness): Promise<Record<string, Record<string, unknown>[]>> {
  const names =
    h.backend === 'sqlite'
      ? (await h.raw.all(`SELECT name FROM sqlite_master WHERE type = 'table'`)).map((r) => String(r.name))
      : (await h.raw.all(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`)).map((r) => String(r.name));
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const n of names) out[n] = await h.raw.all(`SELECT * FROM ${n}`);
  return out;
}

/** The forms a secret could be written in: as is, base64, base64url, hex (text); raw bytes (blobs). */
function forms(secret: string | Uint8Array): { texts: string[]; bytes: Buffer[] } {
  const b = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
  const texts = [b.toString('base64'), b.toString('base64url'), b.toString('hex')];
  if (typeof secret === 'string') texts.push(secret);
  return { texts: texts.filter((t) => t.length >= 8), bytes: [b] };
}

/** Cells (table.column) where any form of `secret` appears. */
function occurrences(db: Record<string, Record<string, unknown>[]>, secret: string | Uint8Array): string[] {
  const { texts, bytes } = forms(secret);
  const hits: string[] = [];
  for (const [table, rows] of Object.entries(db)) {
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (value === null || value === undefined) continue;
        const buf = Buffer.isBuffer(value) || value instanceof Uint8Array ? Buffer.from(value as Uint8Array) : null;
        const text = buf ? buf.toString('latin1') : String(value);
        const found = texts.some((t) => text.includes(t)) || (buf !== null && bytes.some((x) => buf.includes(x)));
        if (found) hits.push(`${table}.${column}`);
      }
    }
  }
  return hits;
}

describe.each(BACKENDS)('credentials at rest on %s', (backend) => {
  let h: TenantHarness;
  let inboundToken: string;
  beforeAll(async () => {
    h = await createTenantHarness(backend, 'tok');
    expect((await uploadCertificate(h, h.a.token, h.a.identity.p12, h.a.identity.password)).status).toBe(200);
    inboundToken = await inboundLogin(h, `/t/${B.rnc}`, h.foreign);
    // The token works (so it is the real thing being searched for below).
    expect((await deliver(h, B.rnc, inboundToken, await foreignEcf(h, B.rnc, 1))).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('stores API and inbound tokens as their SHA-256 only, and no token, .p12, password or key in any cell', async () => {
    const db = await dump(h);
    expect(Object.keys(db)).toEqual(expect.arrayContaining(['tokens', 'inbound_tokens', 'issuers', 'inbound_seeds']));
    expect(db.tokens!.map((r) => r.hash).sort()).toEqual([sha256(h.a.token), sha256(h.b.token)].sort());
    expect(db.inbound_tokens!.map((r) => r.hash)).toEqual([sha256(inboundToken)]);
    for (const secret of [h.a.token, h.b.token, inboundToken, h.a.identity.password]) {
      expect(occurrences(db, secret), `a form of ${secret.slice(0, 6)}…`).toEqual([]);
    }
    // The uploaded .p12: not its bytes, nor any 48-byte window of it, in any encoding; nor the key that seals it.
    const p12 = h.a.identity.p12;
    for (const at of [0, Math.floor(p12.length / 2), p12.length - 48]) expect(occurrences(db, p12.subarray(at, at + 48))).toEqual([]);
    expect(occurrences(db, h.key)).toEqual([]);
    // The certificate column does hold something: the sealed envelope (version 1).
    const sealed = db.issuers!.find((r) => r.rnc === A.rnc)!.certificate as Uint8Array;
    expect(sealed[0]).toBe(1);
    expect(sealed.length).toBeGreaterThan(p12.length);
  });

  it('a stored hash is not a credential: presenting it is refused like any unknown token', async () => {
    const unknown = await h.api(generateToken(), '/api/v1/statuses');
    const leaked = await h.api(hashToken(h.a.token), '/api/v1/statuses');
    expect(leaked.status).toBe(401);
    expect(await leaked.text()).toBe(await unknown.text());
    const xml = await foreignEcf(h, B.rnc, 2);
    const inboundLeaked = await deliver(h, B.rnc, hashToken(inboundToken), xml);
    const inboundUnknown = await deliver(h, B.rnc, generateToken(), xml);
    expect(inboundLeaked.status).toBe(401);
    expect(await inboundLeaked.text()).toBe(await inboundUnknown.text());
  });

  it("refuses a revoked API token with the answer of an unknown one; the issuer's other tokens keep working", async () => {
    const second = generateToken();
    const record = await h.storage.addToken(h.b.issuer.id, hashToken(second), 'to revoke');
    expect((await h.api(second, '/api/v1/statuses')).status).toBe(200);
    expect(await h.storage.revokeToken(record.id)).toBe(true);
    const revoked = await h.api(second, '/api/v1/statuses');
    const unknown = await h.api(generateToken(), '/api/v1/statuses');
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await revoked.text()).toBe(await unknown.text());
    expect((await h.api(h.b.token, '/api/v1/statuses')).status).toBe(200);
  });

  it('refuses an expired inbound token with the answer of an unknown one', async () => {
    const now = Date.now();
    const [live, expired] = [generateToken(), generateToken()];
    const scope = B.rnc;
    // Since issue 13 a token acts only for the RNCs of its seed signer: this one for the foreign issuer.
    await h.storage.addInboundToken({
      hash: hashToken(live),
      scope,
      subject: 'CN=prueba',
      principals: [FOREIGN],
      createdAt: now - 1000,
      expiresAt: now + 3_600_000,
    });
    await h.storage.addInboundToken({ hash: hashToken(expired), scope, subject: 'CN=prueba', createdAt: now - 7_200_000, expiresAt: now - 1 });
    const xml = await foreignEcf(h, B.rnc, 3);
    expect((await deliver(h, B.rnc, live, xml)).status).toBe(200);
    const refused = await deliver(h, B.rnc, expired, xml);
    const unknown = await deliver(h, B.rnc, generateToken(), xml);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe(await unknown.text());
  });
});

describe('secret comparisons', () => {
  /** `x === y` / `x !== y` where either side names a token, hash, secret, password, seed, HMAC, digest or signature. */
  const COMPARISON =
    /(token|hash|secret|password|seed|valor|hmac|digest|signature)\w*[\])]?\s*[!=]==|[!=]==\s*[\w.]*(token|hash|secret|password|seed|valor|hmac|digest|signature)/i;
  /** Reviewed comparisons that are not authentication decisions. */
  const REVIEWED: Record<string, string> = {
    // Cache invalidation: SHA-256 of the stored (encrypted) certificate bytes vs the cached signer's.
    'src/ecf/server/signers.ts': 'cached.digest !== digest',
    // Client side: evicting our own cached DGII token after the authority refused it.
    'src/ecf/dgii/auth.ts': 'token.token === token',
  };

  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
  }

  it('no token, hash, seed or other secret is compared with === in the server or the DGII client', () => {
    const found: string[] = [];
    for (const file of ['src/ecf/server', 'src/ecf/dgii', 'src/shared/server-kit', 'src/shared/http'].flatMap((d) => files(join(repoRoot, d)))) {
      const rel = relative(repoRoot, file);
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // Presence checks (against null / undefined) and comments compare no secret.
          const code = line.replace(/\s*[!=]==\s*(null|undefined)\b/g, '').replace(/\b(null|undefined)\s*[!=]==\s*/g, '');
          if (/^\s*(\*|\/\/)/.test(line) || !COMPARISON.test(code) || /typeof\s/.test(code)) return;
          if (REVIEWED[rel] !== undefined && line.includes(REVIEWED[rel]!)) return;
          found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the scan finds what it is looking for', () => {
    expect(COMPARISON.test('if (provided === storedHash) ok();')).toBe(true);
    expect(COMPARISON.test("if (seed.valor !== valor) return 'unknown';")).toBe(true);
    expect(COMPARISON.test('if (a.length === b.length) x();')).toBe(false);
  });
});

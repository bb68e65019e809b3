import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateToken, hashToken, tokensEqual } from '../../../src/shared/server-kit/tokens.js';

describe('tokens', () => {
  it('generates ecf_ + 43 base64url characters carrying 32 random bytes, all different', () => {
    const tokens = Array.from({ length: 200 }, generateToken);
    for (const t of tokens) {
      expect(t).toMatch(/^ecf_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(t.slice(4), 'base64url')).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(200);
  });

  it('hashes to the SHA-256 hex of the UTF-8 token', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashToken('ñ')).toBe(
      createHash('sha256')
        .update(Buffer.from([0xc3, 0xb1]))
        .digest('hex'),
    );
    const t = generateToken();
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(t)).toBe(hashToken(t));
    expect(hashToken(t)).not.toBe(hashToken(generateToken()));
  });

  it('compares equal strings as equal, and different or different-length strings as not', () => {
    const t = generateToken();
    expect(tokensEqual(t, `${t}`)).toBe(true);
    expect(tokensEqual('', '')).toBe(true);
    expect(tokensEqual(t, t.slice(0, -1))).toBe(false);
    expect(tokensEqual(t, t + 'x')).toBe(false);
    expect(tokensEqual(t, t.slice(0, -1) + (t.endsWith('A') ? 'B' : 'A'))).toBe(false);
    expect(tokensEqual('a', '')).toBe(false);
  });
});

/**
 * API tokens: random bearer secrets of which only the SHA-256 is stored. A token is `ecf_` followed by
 * 32 random bytes in base64url (43 characters, no padding).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'ecf_';

export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** SHA-256 of the token (UTF-8), lowercase hex: what storage keeps and looks up. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Compares two secrets in constant time. Both sides are hashed first, so the comparison always runs over
 * two equal-length digests and leaks neither content nor length.
 */
export function tokensEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}

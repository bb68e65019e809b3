/**
 * SHA-384 as lower-case hex, without Node built-ins: the DIAN pure core may run where `node:crypto` does
 * not (browsers, edge runtimes). `@noble/hashes` 1.x (audited, no dependencies, CommonJS and ESM).
 */
import { sha384 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** SHA-384 of the UTF-8 bytes of `text`, lower-case hex (96 characters), as DIAN's codes are written. */
export function sha384Hex(text: string): string {
  return bytesToHex(sha384(utf8Bytes(text)));
}

/**
 * The UTF-8 bytes of `text`: an ASCII text (every pre-image the kit builds from a document is) byte by byte,
 * which for these short texts is quicker than a TextEncoder call; anything else through `utf8ToBytes`.
 */
function utf8Bytes(text: string): Uint8Array {
  const n = text.length;
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return utf8ToBytes(text);
    bytes[i] = c;
  }
  return bytes;
}

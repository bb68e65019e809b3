/**
 * SHA-384 as lower-case hex, without Node built-ins: the DIAN pure core may run where `node:crypto` does
 * not (browsers, edge runtimes). `@noble/hashes` 1.x (audited, no dependencies, CommonJS and ESM).
 */
import { sha384 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** SHA-384 of the UTF-8 bytes of `text`, lower-case hex (96 characters), as DIAN's codes are written. */
export function sha384Hex(text: string): string {
  return bytesToHex(sha384(utf8ToBytes(text)));
}

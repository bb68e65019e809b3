/**
 * The development key file of a data directory: a random sealing key generated once (mode 0600) and reused
 * afterwards. Moved unchanged from src/ecf/server/secrets.ts.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_BYTES, parseKey, SecretError } from './sealing.js';

/** File name of the development key inside the data directory. */
export const DEV_KEY_FILE = 'certificate.key';

export function devKey(dataDir: string): Uint8Array {
  const file = join(dataDir, DEV_KEY_FILE);
  const existing = readKeyFile(file);
  if (existing) return existing;
  if (!existsSync(dataDir)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
  }
  const key = randomBytes(KEY_BYTES);
  try {
    // `wx`: never overwrite a key another process created meanwhile (it may already protect stored data).
    writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    // The mode given to open() is filtered by the umask; set it explicitly.
    chmodSync(file, 0o600);
    return new Uint8Array(key);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readKeyFile(file);
      if (raced) return raced;
    }
    throw e;
  }
}

function readKeyFile(file: string): Uint8Array | null {
  let text: string;
  try {
    if (!statSync(file).isFile()) throw new SecretError(`${file} is not a file.`, { code: 'invalid_key' });
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  // A concurrent creator may not have written the content yet.
  if (text.trim() === '') return null;
  return parseKey(text, file);
}

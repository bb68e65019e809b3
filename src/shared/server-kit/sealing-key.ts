/**
 * Loading a server's sealing key (the key that seals its tenants' certificates at rest, ./sealing.ts) from its
 * settings, the same way for every product: `<SETTING>` is the current key (used to encrypt),
 * `<SETTING>_PREVIOUS` lists older keys (comma-separated) still accepted for decryption during a rotation; the
 * result is a {@link SecretKey}. Without the setting: in development a random key generated once into a key file
 * of the data directory (mode 0600) and reused afterwards; in production an error saying how to set one.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_BYTES, parseKey, SecretError, SecretKey } from './sealing.js';

/** The default file name of a development key inside the data directory (`devKey`'s default). */
export const DEV_KEY_FILE = 'certificate.key';

/** How a product names its sealing key. */
export interface SealingKeySettings {
  /** The setting of the current key, e.g. `ECF_CERT_KEY`; older keys are in `${setting}_PREVIOUS`. */
  setting: string;
  /** File name of the development key inside the data directory. */
  devKeyFile: string;
  /** What the stored secrets are, for the production error (e.g. `uploaded certificates`). */
  protects: string;
}

/**
 * The sealing key of a server.
 *
 * - `<setting>` set: that key (64 hex characters or base64 of 32 bytes); `<setting>_PREVIOUS` (comma-separated,
 *   same formats) adds older keys accepted for decryption.
 * - not set, development: the development key file of `dataDir` (created on first use).
 * - not set, production: throws, saying how to set one (a key kept next to the data it protects protects
 *   nothing against a copied data directory).
 *
 * @throws SecretError `key_missing` (production), `invalid_key`
 */
export function loadSealingKey(
  settings: SealingKeySettings,
  options: { env: Record<string, string | undefined>; dataDir: string; production: boolean },
): SecretKey {
  const { env, dataDir, production } = options;
  const { setting } = settings;
  const previous = (env[`${setting}_PREVIOUS`] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s, i) => parseKey(s, `${setting}_PREVIOUS[${i}]`));
  const configured = env[setting]?.trim();
  if (configured) return new SecretKey(parseKey(configured, setting), previous);
  if (production) {
    throw new SecretError(
      `${setting} is not set. In production the key that encrypts ${settings.protects} must come from the ` +
        'environment: generate one with `openssl rand -hex 32`, keep it in your secret store and set ' +
        `${setting} to it (64 hex characters or base64 of 32 bytes). Losing it makes stored certificates unreadable.`,
      { code: 'key_missing' },
    );
  }
  return new SecretKey(devKey(dataDir, settings.devKeyFile), previous);
}

/** The development key of `dataDir` (`fileName` inside it), generated on first use. */
export function devKey(dataDir: string, fileName = DEV_KEY_FILE): Uint8Array {
  const file = join(dataDir, fileName);
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

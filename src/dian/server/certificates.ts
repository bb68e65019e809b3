/**
 * Companies' signing identities at rest: a .p12 and its password sealed in one AES-256-GCM envelope with the
 * server's key (the kit's sealing, src/shared/server-kit/sealing.ts). The key: `DIAN_CERT_KEY` (64 hex
 * characters or base64 of 32 bytes), else a development key generated once into `${dataDir}/dian-certificate.key`.
 * For this slice a company added without a certificate gets a development self-signed identity (its NIT as
 * the subject's serial number): the local DIAN checks signatures, not chains; a real DIAN needs the company's
 * certificate, which `ecf dian admin certificate add` seals the same way in its place (./admin.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EcfError } from '../index.js';
import { createSelfSignedIdentity, p12Signer, readP12, type Signer } from '../sign/index.js';
import { KEY_BYTES, parseKey } from '../../shared/server-kit/sealing.js';
import { sealP12, unsealP12 } from '../../shared/server-kit/sealed-p12.js';
import { ensurePrivateDir } from '../../shared/server-kit/storage/open.js';
import type { CompanyRecord } from './storage/types.js';

/** File name of the development key inside the data directory. */
export const DIAN_DEV_KEY_FILE = 'dian-certificate.key';

/** The sealing key: `DIAN_CERT_KEY`, else the development key file of `dataDir` (created on first use, mode 0600). */
export function loadDianCertificateKey(options: { dataDir: string; env?: Record<string, string | undefined> }): Uint8Array {
  const configured = options.env?.DIAN_CERT_KEY?.trim();
  if (configured) return parseKey(configured, 'DIAN_CERT_KEY');
  ensurePrivateDir(options.dataDir);
  const file = join(options.dataDir, DIAN_DEV_KEY_FILE);
  try {
    return parseKey(readFileSync(file, 'utf8'), file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const key = randomBytes(KEY_BYTES);
  try {
    writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    return new Uint8Array(key);
  } catch (e) {
    // Another process created it meanwhile: use theirs.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return parseKey(readFileSync(file, 'utf8'), file);
    throw e;
  }
}

/** What a blob sealed with another key tells the operator to do. */
const WRONG_KEY_HINT = 'Set DIAN_CERT_KEY to the key used when it was stored.';

/** Seals a .p12 with its password (the kit's `sealP12`, the payload the e-CF server seals too). */
export function sealIdentity(identity: { p12: Uint8Array; password: string }, key: Uint8Array): Uint8Array {
  return sealP12(identity, key);
}

/** Opens what {@link sealIdentity} sealed. */
export function unsealIdentity(blob: Uint8Array, key: Uint8Array): { p12: Uint8Array; password: string } {
  return unsealP12(blob, key, { wrongKeyHint: WRONG_KEY_HINT });
}

/** A development identity for a company (self-signed, its NIT as serial number), sealed. */
export function sealedDevIdentity(nit: string, name: string, key: Uint8Array): Uint8Array {
  const id = createSelfSignedIdentity({ commonName: name, serialNumber: nit });
  return sealIdentity(id, key);
}

/**
 * `signerFor(company)`: each company's sealed identity opened once and kept while the stored bytes stay the
 * same. The company record comes fresh from storage with every request, so an identity replaced by
 * `ecf dian admin certificate add` (another process) is opened on the company's next request.
 */
export function companySigners(key: Uint8Array): (company: CompanyRecord) => Promise<Signer> {
  const cache = new Map<number, { digest: string; signer: Signer }>();
  return async (company) => {
    if (!company.certificate) throw new EcfError(`Company ${company.nit} has no signing certificate.`, { code: 'no_certificate' });
    const digest = createHash('sha256').update(company.certificate).digest('hex');
    const hit = cache.get(company.id);
    if (hit?.digest === digest) return hit.signer;
    const { p12, password } = unsealIdentity(company.certificate, key);
    const signer = p12Signer(readP12(p12, password));
    cache.set(company.id, { digest, signer });
    return signer;
  };
}

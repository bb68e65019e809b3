/**
 * Companies' signing identities at rest: a .p12 and its password sealed in one AES-256-GCM envelope with the
 * server's key (the kit's sealing, src/shared/server-kit/sealing.ts). The key: `DIAN_CERT_KEY` (64 hex
 * characters or base64 of 32 bytes), with `DIAN_CERT_KEY_PREVIOUS` (comma-separated) listing older keys still
 * accepted for decryption while rotating; without it a development key generated once into
 * `${dataDir}/dian-certificate.key`, refused in production (the kit's `loadSealingKey`, as the e-CF server loads
 * `ECF_CERT_KEY`). {@link resealIdentities} moves every stored identity to the current key (`ecf dian admin
 * certificate reseal`).
 * For this slice a company added without a certificate gets a development self-signed identity (its NIT as
 * the subject's serial number): the local DIAN checks signatures, not chains; a real DIAN needs the company's
 * certificate, which `ecf dian admin certificate add` seals the same way in its place (./admin.ts).
 */
import { createHash } from 'node:crypto';
import { EcfError } from '../index.js';
import { createSelfSignedIdentity, p12Signer, readP12, type Signer, type SigningIdentity } from '../sign/index.js';
import { envelopeKeyId, isCurrentKey, keyId, type SecretKey } from '../../shared/server-kit/sealing.js';
import { loadSealingKey, type SealingKeySettings } from '../../shared/server-kit/sealing-key.js';
import { sealP12, unsealP12 } from '../../shared/server-kit/sealed-p12.js';
import type { CompanyRecord, CompanyStore } from './storage/types.js';

type CertificateInfo = SigningIdentity['info'];

/** File name of the development key inside the data directory. */
export const DIAN_DEV_KEY_FILE = 'dian-certificate.key';

/** How the DIAN server names its sealing key. */
export const DIAN_KEY_SETTINGS: SealingKeySettings = { setting: 'DIAN_CERT_KEY', devKeyFile: DIAN_DEV_KEY_FILE, protects: "companies' certificates" };

/**
 * The sealing key: `DIAN_CERT_KEY` (current) and `DIAN_CERT_KEY_PREVIOUS` (older keys, comma-separated), else the
 * development key file of `dataDir` (created on first use, mode 0600) — unless `production` (default:
 * `NODE_ENV=production`), where a missing `DIAN_CERT_KEY` throws SecretError `key_missing` saying how to set one.
 *
 * @throws SecretError `key_missing`, `invalid_key`
 */
export function loadDianCertificateKey(options: { dataDir: string; env?: Record<string, string | undefined>; production?: boolean }): SecretKey {
  const env = options.env ?? {};
  return loadSealingKey(DIAN_KEY_SETTINGS, { env, dataDir: options.dataDir, production: options.production ?? env.NODE_ENV === 'production' });
}

/** What a blob sealed with another key tells the operator to do. */
export const DIAN_WRONG_KEY_HINT =
  'Set DIAN_CERT_KEY to the key used when it was stored, or list that key in DIAN_CERT_KEY_PREVIOUS while rotating (then run `ecf dian admin certificate reseal`).';

/** Seals a .p12 with its password (the kit's `sealP12`, the payload the e-CF server seals too). */
export function sealIdentity(identity: { p12: Uint8Array; password: string }, key: Uint8Array): Uint8Array {
  return sealP12(identity, key);
}

/** Opens what {@link sealIdentity} sealed; a {@link SecretKey} also tries its previous keys. */
export function unsealIdentity(blob: Uint8Array, key: Uint8Array | readonly Uint8Array[]): { p12: Uint8Array; password: string } {
  return unsealP12(blob, key, { wrongKeyHint: DIAN_WRONG_KEY_HINT });
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
  return companyIdentities(key).signerFor;
}

/**
 * {@link companySigners} and, over the same cache, `infoOf(company)`: the certificate details (subject, validity)
 * of the company's identity, for the expiry watch.
 */
export function companyIdentities(key: Uint8Array): {
  signerFor: (company: CompanyRecord) => Promise<Signer>;
  infoOf: (company: CompanyRecord) => Promise<CertificateInfo>;
} {
  const cache = new Map<number, { digest: string; signer: Signer; info: CertificateInfo }>();
  const open = (company: CompanyRecord) => {
    if (!company.certificate) throw new EcfError(`Company ${company.nit} has no signing certificate.`, { code: 'no_certificate' });
    const digest = createHash('sha256').update(company.certificate).digest('hex');
    const hit = cache.get(company.id);
    if (hit?.digest === digest) return hit;
    const { p12, password } = unsealIdentity(company.certificate, key);
    const identity = readP12(p12, password);
    const entry = { digest, signer: p12Signer(identity), info: identity.info };
    cache.set(company.id, entry);
    return entry;
  };
  return { signerFor: async (company) => open(company).signer, infoOf: async (company) => open(company).info };
}

/** What {@link resealIdentities} did. */
export interface ResealReport {
  /** The current key's id (hex): every identity re-sealed or already current is sealed under it. */
  key_id: string;
  /** NITs whose identity was sealed under a previous key and is now sealed under the current one. */
  resealed: string[];
  /** NITs whose identity was already sealed under the current key (nothing written). */
  already_current: string[];
  /** Companies whose identity could not be re-sealed (left as stored), and why. */
  failed: { nit: string; code: string; message: string }[];
}

/**
 * Key rotation: re-encrypts under the current key of `key` every company's identity sealed under one of its
 * previous keys (`DIAN_CERT_KEY_PREVIOUS`). One company per write, and that write replaces the identity only if
 * the stored bytes are still those read (an identity replaced meanwhile by `certificate add` is kept, and counted
 * as current when it is): a crash leaves every company either re-sealed or as it was, and a second run re-seals
 * what is left; a run with nothing to do writes nothing. A blob under none of the keys (or altered) is reported
 * in `failed` with the error's code and message, and the other companies are still re-sealed.
 */
export async function resealIdentities(
  storage: Pick<CompanyStore, 'listCompanies' | 'getCompany' | 'replaceCertificate'>,
  key: SecretKey,
): Promise<ResealReport> {
  const report: ResealReport = { key_id: keyId(key), resealed: [], already_current: [], failed: [] };
  for (const company of await storage.listCompanies()) {
    const stored = company.certificate;
    if (!stored) continue;
    if (isCurrentKey(stored, key)) {
      report.already_current.push(company.nit);
      continue;
    }
    let resealed: Uint8Array;
    try {
      resealed = sealIdentity(unsealIdentity(stored, key), key);
    } catch (e) {
      report.failed.push({
        nit: company.nit,
        code: e instanceof EcfError ? e.code : 'error',
        message: `${e instanceof Error ? e.message : String(e)} (stored under key id ${envelopeKeyId(stored) ?? 'none'})`,
      });
      continue;
    }
    if (await storage.replaceCertificate(company.id, stored, resealed)) report.resealed.push(company.nit);
    else {
      // Replaced since it was read: whoever replaced it sealed it with their key; say where it stands now.
      const now = (await storage.getCompany(company.id))?.certificate;
      if (now && isCurrentKey(now, key)) report.already_current.push(company.nit);
      else report.failed.push({ nit: company.nit, code: 'changed', message: 'the identity was replaced while re-sealing; run the command again' });
    }
  }
  return report;
}

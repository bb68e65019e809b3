/**
 * Who signed what arrives at our inbound services, and whether we believe it.
 *
 * A certificate names its holder in the subject: DGII's "SN" is the `serialNumber` attribute (2.5.4.5),
 * written plain (`101672919`) or with the ETSI EN 319 412-1 semantics prefix (`IDCDO-00199999996` for a
 * cédula, `PASDO-…` passport, `TINDO-…` tax id); legal-person certificates may carry the RNC in
 * `organizationIdentifier` (2.5.4.97, `VATDO-131880738` / `NTRDO-…`). {@link normalizeIdentifier} accepts
 * exactly these forms (plain digits, a 3-letter type + `DO` + `-` prefix, dashes and spaces inside the
 * number) and keeps 9-digit RNCs and 11-digit cédulas.
 *
 * Trust is configured per server ({@link InboundTrust}):
 * - `ca`: the signer's certificate must be issued by one of the trust anchors (the accredited CAs' and
 *   their intermediates' certificates, `ECF_INBOUND_TRUST_CA`) and be within its validity; without anchors
 *   every sender is refused. The only mode for a real DGII authority.
 * - `development`: any certificate within its validity, self-signed included, is taken for who its subject
 *   says. For the in-process simulator and tests only: anyone can make such a certificate.
 * In both modes a certificate acts for the RNCs/cédulas of its subject, and for the RNCs whose configured
 * delegates list one of its identifiers or its SHA-256 fingerprint (`ECF_INBOUND_DELEGATES`).
 * Revocation (CRL/OCSP) is not checked.
 */
import { EcfError } from '../../index.js';
import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type InboundTrustMode = 'ca' | 'development';

export interface InboundTrust {
  mode: InboundTrustMode;
  /** Certificates a signer's certificate must be issued by (mode `ca`). */
  anchors: readonly X509Certificate[];
  /**
   * RNC (or cédula) → who may sign for it besides its own certificates: identifiers (RNC/cédula as
   * {@link normalizeIdentifier} reads them) or SHA-256 certificate fingerprints (64 hex digits, colons allowed).
   */
  delegates: Readonly<Record<string, readonly string[]>>;
}

/** Development trust: any certificate, self-signed included (the in-process simulator, tests). */
export const DEVELOPMENT_TRUST: InboundTrust = Object.freeze({ mode: 'development', anchors: [], delegates: {} });

/** Trust nobody: the default when no trust is configured (every inbound sender is refused). */
export const NO_TRUST: InboundTrust = Object.freeze({ mode: 'ca', anchors: [], delegates: {} });

/** A verified signer. */
export interface SignerIdentity {
  /** SHA-256 of the certificate DER, lowercase hex without separators. */
  fingerprint: string;
  subject: string;
  /** RNCs/cédulas the subject carries. */
  identifiers: string[];
  /** Everyone it may act for: its identifiers and the RNCs it is a configured delegate of. */
  principals: string[];
}

export type SignerCheck = { ok: true; identity: SignerIdentity } | { ok: false; reason: string };

const PREFIXED = /^(?:[A-Z]{3})DO\s*[-:]?\s*(.+)$/;

/**
 * The RNC (9 digits) or cédula (11 digits) an identifier attribute carries, or null: `101672919`,
 * `IDCDO-00199999996`, `VATDO-131880738`, `001-9999999-6` are read; anything else is not an identifier.
 */
export function normalizeIdentifier(value: string): string | null {
  let v = value.trim().replace(/^"|"$/g, '').toUpperCase();
  const m = PREFIXED.exec(v);
  if (m) v = m[1]!;
  v = v.replace(/[\s-]/g, '');
  return /^(?:\d{9}|\d{11})$/.test(v) ? v : null;
}

const IDENTIFIER_ATTRIBUTES = new Set(['serialnumber', '2.5.4.5', 'organizationidentifier', '2.5.4.97']);

/** RNCs/cédulas of a certificate's subject (serialNumber and organizationIdentifier). */
export function certificateIdentifiers(cert: X509Certificate): string[] {
  const out = new Set<string>();
  for (const line of cert.subject.split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0 || !IDENTIFIER_ATTRIBUTES.has(line.slice(0, eq).trim().toLowerCase())) continue;
    const id = normalizeIdentifier(line.slice(eq + 1));
    if (id) out.add(id);
  }
  return [...out];
}

/** SHA-256 fingerprint, lowercase hex without separators. */
export function fingerprintOf(cert: X509Certificate): string {
  return cert.fingerprint256.replace(/:/g, '').toLowerCase();
}

function normalizeFingerprint(s: string): string | null {
  const v = s.replace(/[:\s]/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(v) ? v : null;
}

function within(cert: X509Certificate, now: Date): boolean {
  const t = now.getTime();
  return t >= Date.parse(cert.validFrom) && t <= Date.parse(cert.validTo);
}

/**
 * Reads the signer certificate (base64 DER, as `verifyXml` returns it) and decides whether we trust it at
 * `now`, and for whom it may act. `reason` is English, for logs only.
 */
export function checkSigner(trust: InboundTrust, certificateBase64: string | undefined, now: Date): SignerCheck {
  if (!certificateBase64) return { ok: false, reason: 'no signer certificate' };
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(Buffer.from(certificateBase64, 'base64'));
  } catch {
    return { ok: false, reason: 'the signer certificate cannot be read' };
  }
  if (!within(cert, now)) return { ok: false, reason: `the signer certificate is outside its validity (${cert.validFrom} – ${cert.validTo})` };
  if (trust.mode === 'ca') {
    const issuer = trust.anchors.find((a) => {
      try {
        return a.ca && within(a, now) && cert.checkIssued(a) && cert.verify(a.publicKey);
      } catch {
        return false;
      }
    });
    if (!issuer) {
      return {
        ok: false,
        reason:
          trust.anchors.length === 0
            ? 'no trust anchors are configured (ECF_INBOUND_TRUST_CA): every sender is refused'
            : `the signer certificate (issuer ${cert.issuer.split('\n').join(', ')}) is not issued by a configured trust anchor`,
      };
    }
  }
  const identifiers = certificateIdentifiers(cert);
  const fingerprint = fingerprintOf(cert);
  const principals = new Set(identifiers);
  for (const [rnc, allowed] of Object.entries(trust.delegates)) {
    if (
      allowed.some((entry) => {
        const fp = normalizeFingerprint(entry);
        if (fp) return fp === fingerprint;
        const id = normalizeIdentifier(entry);
        return id !== null && identifiers.includes(id);
      })
    )
      principals.add(rnc);
  }
  return { ok: true, identity: { fingerprint, subject: cert.subject.split('\n').join(', '), identifiers, principals: [...principals] } };
}

/** Certificates of a PEM file, or of every `.pem`/`.crt`/`.cer` file of a directory. @throws Error naming the problem */
export function loadTrustAnchors(path: string): X509Certificate[] {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => /\.(pem|crt|cer)$/i.test(f))
        .sort()
        .map((f) => join(path, f))
    : [path];
  const out: X509Certificate[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    if (blocks.length === 0) throw new EcfError(`ECF_INBOUND_TRUST_CA: ${file} holds no PEM certificate`, { code: 'invalid_config' });
    for (const b of blocks) out.push(new X509Certificate(b));
  }
  if (out.length === 0) throw new EcfError(`ECF_INBOUND_TRUST_CA: no certificate found in ${path}`, { code: 'invalid_config' });
  return out;
}

/**
 * Delegates from JSON text: `{"101672919": ["00199999996", "AB:CD:…(SHA-256)"]}`: keys are RNCs/cédulas,
 * values identifiers or fingerprints. @throws Error naming the problem
 */
export function parseDelegates(text: string): Record<string, string[]> {
  const data: unknown = JSON.parse(text);
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new EcfError('ECF_INBOUND_DELEGATES: expected a JSON object {"RNC": ["identifier or SHA-256 fingerprint", …]}', { code: 'invalid_config' });
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    const rnc = normalizeIdentifier(key);
    if (!rnc) throw new EcfError(`ECF_INBOUND_DELEGATES: "${key}" is not an RNC or cédula`, { code: 'invalid_config' });
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || (!normalizeFingerprint(v) && !normalizeIdentifier(v)))) {
      throw new EcfError(`ECF_INBOUND_DELEGATES: the delegates of ${key} must be a list of RNCs/cédulas or SHA-256 fingerprints`, { code: 'invalid_config' });
    }
    out[rnc] = value as string[];
  }
  return out;
}

/**
 * Issuers' own signing certificates: checks on upload, sealing (the .p12 and its password encrypted together,
 * so signing later needs only the server's certificate key) and unsealing.
 */
import { checkValidity, readP12, type SigningIdentity } from '../sign/index.js';
import { EcfError, isEcfError } from '../index.js';
import type { Issuer, IssuerStore } from './storage/types.js';
import { ECF_WRONG_KEY_HINT, isCurrentKey } from './secrets.js';
import { sealP12, type SealedP12, unsealP12 } from '../../shared/server-kit/sealed-p12.js';

/** Stable codes of {@link CertificateUploadError}. */
export type CertificateUploadErrorCode =
  | 'invalid_file'
  | 'wrong_password'
  | 'no_private_key'
  | 'no_certificate'
  | 'unsupported_key'
  | 'no_tax_id'
  | 'tax_id_mismatch'
  | 'expired'
  | 'not_yet_valid';

/** Spanish texts for the API client (the caller of `POST /api/v1/certificate`). */
const MESSAGES: Record<Exclude<CertificateUploadErrorCode, 'tax_id_mismatch' | 'expired' | 'not_yet_valid'>, string> = {
  invalid_file:
    'El archivo no es un certificado PKCS#12 (.p12 / .pfx) legible. Envíe el archivo .p12 tal como lo entregó la entidad certificadora (no un PEM, .cer ni texto base64).',
  wrong_password: 'La contraseña no abre el certificado .p12. Verifique mayúsculas, minúsculas y espacios al final.',
  no_private_key: 'El archivo .p12 no contiene la llave privada. Exporte el certificado de nuevo incluyendo la llave privada.',
  no_certificate: 'El archivo .p12 contiene una llave privada pero ningún certificado corresponde a ella. Exporte la llave junto con su certificado.',
  unsupported_key: 'La llave del certificado no es RSA. Las firmas de la DGII son RSA-SHA256: use un certificado RSA.',
  no_tax_id:
    'El certificado no indica el RNC o la cédula de su titular (atributo serialNumber del sujeto); no sirve para firmar comprobantes fiscales electrónicos.',
};

/**
 * An uploaded certificate is refused. `message` is Spanish (it goes to the API client as is); `code` is stable.
 *
 * @example
 * try { prepareCertificate({ issuer, p12, password: 'x', key, now }) } catch (e) { (e as CertificateUploadError).code } //=> 'wrong_password'
 */
export class CertificateUploadError extends EcfError {
  declare readonly code: CertificateUploadErrorCode;
  constructor(message: string, options: { code: CertificateUploadErrorCode; cause?: unknown }) {
    super(message, { code: options.code, cause: options.cause });
    this.name = 'CertificateUploadError';
  }
}

/** Metadata of an issuer's certificate kept in clear (`Issuer.certificateInfo`), for `GET /certificate`. */
export interface CertificateSummary {
  /** Subject distinguished name, one line. */
  subject: string;
  /** Issuer (certification authority) distinguished name, one line. */
  issuer: string;
  /** The certificate's serial number, lower-case hex. */
  serial_number: string;
  /** The holder's RNC or cédula, from the subject serialNumber (OID 2.5.4.5) without its prefix. */
  tax_id: string;
  /** ISO 8601 instants. */
  not_before: string;
  not_after: string;
  /** ISO 8601 instant of the upload. */
  uploaded_at: string;
}

/**
 * Checks an uploaded .p12 for an issuer and seals it for storage.
 *
 * Checks, in this order: it is a PKCS#12 file, the password opens it, it holds a private key with its RSA
 * certificate, the subject serialNumber (DGII's "SN": RNC, cédula or passport of the holder, e.g.
 * `IDCDO-00199999996`) carries the issuer's RNC, and the certificate is valid at `now`.
 *
 * @returns `certificate`: the encrypted envelope of the .p12 and its password (store it in `Issuer.certificate`);
 *   `certificateInfo`: a {@link CertificateSummary} (store it in `Issuer.certificateInfo`)
 * @throws CertificateUploadError
 */
export function prepareCertificate(args: { issuer: Pick<Issuer, 'rnc'>; p12: Uint8Array; password: string; key: Uint8Array; now: Date }): {
  certificate: Uint8Array;
  certificateInfo: Record<string, unknown>;
} {
  const { issuer, p12, password, key, now } = args;
  let identity: SigningIdentity;
  try {
    if (!(p12 instanceof Uint8Array) || p12.length === 0) throw new CertificateUploadError(MESSAGES.invalid_file, { code: 'invalid_file' });
    identity = readP12(p12, typeof password === 'string' ? password : '');
  } catch (e) {
    throw toUploadError(e);
  }
  const serial = identity.info.serialNumber;
  const taxId = serial === null ? null : taxIdFromSubjectSerial(serial);
  if (taxId === null) throw new CertificateUploadError(MESSAGES.no_tax_id, { code: 'no_tax_id' });
  if (taxId !== issuer.rnc) {
    throw new CertificateUploadError(
      `El certificado pertenece a ${taxId} (serialNumber ${serial}), no al RNC ${issuer.rnc} del emisor. ` +
        'Suba el certificado del titular de este RNC, o firme con el certificado del proveedor delegando el rol de firmante en la Oficina Virtual de la DGII.',
      { code: 'tax_id_mismatch' },
    );
  }
  try {
    checkValidity(identity, () => now);
  } catch (e) {
    const { notBefore, notAfter } = identity.info;
    if (isEcfError(e) && e.code === 'expired') {
      throw new CertificateUploadError(`El certificado venció el ${notAfter.toISOString()}. Renuévelo con su entidad certificadora y suba el nuevo .p12.`, {
        code: 'expired',
        cause: e,
      });
    }
    throw new CertificateUploadError(
      `El certificado no es válido antes del ${notBefore.toISOString()}. Súbalo a partir de esa fecha o verifique la hora del sistema.`,
      { code: 'not_yet_valid', cause: e },
    );
  }
  const info: CertificateSummary = {
    subject: identity.info.subject.text,
    issuer: identity.info.issuer.text,
    serial_number: identity.info.certificateSerial,
    tax_id: taxId,
    not_before: identity.info.notBefore.toISOString(),
    not_after: identity.info.notAfter.toISOString(),
    uploaded_at: now.toISOString(),
  };
  return { certificate: sealCertificate({ p12, password }, key), certificateInfo: { ...info } };
}

/**
 * The holder's tax id from a subject serialNumber: ETSI EN 319 412-1 semantic identifiers (`IDCDO-…` national
 * id, `PASDO-…` passport, `TINDO-…`) and the plain prefixes seen in practice (`RNC`, `CED`) are removed, and
 * separators inside an all-digit id (`001-9999999-6`) dropped. Null when nothing is left.
 *
 * @example
 * taxIdFromSubjectSerial('IDCDO-00199999996') //=> '00199999996'
 * taxIdFromSubjectSerial('RNC 131880738') //=> '131880738'
 */
export function taxIdFromSubjectSerial(serial: string): string | null {
  let id = serial
    .trim()
    .replace(/^(?:(?:IDC|PAS|TIN|VAT|NTR)[A-Z]{2}[-:]|(?:RNC|CEDULA|CED)[-:\s]*)/i, '')
    .trim();
  if (/^[\d\s.-]+$/.test(id)) id = id.replace(/[\s.-]/g, '');
  return id === '' ? null : id;
}

/** What a sealed certificate holds. */
export type SealedCertificate = SealedP12;

/** Encrypts a .p12 together with its password (one envelope: the kit's `sealP12`, shared with the DIAN server). */
export function sealCertificate(cert: SealedCertificate, key: Uint8Array): Uint8Array {
  return sealP12(cert, key);
}

/**
 * Decrypts an envelope made by {@link sealCertificate}.
 *
 * @throws SecretError when the key is wrong or the blob was altered; EcfError `invalid_certificate_payload`
 *   when the decrypted content is not a sealed certificate
 */
export function unsealCertificate(blob: Uint8Array, key: Uint8Array | readonly Uint8Array[]): SealedCertificate {
  return unsealP12(blob, key, { wrongKeyHint: ECF_WRONG_KEY_HINT });
}

/**
 * Key rotation: re-encrypts with the current key every stored certificate that was sealed with an older one
 * (the key's `previous` keys must still be given). Returns how many were re-encrypted.
 */
export async function reencryptCertificates(storage: Pick<IssuerStore, 'listIssuers' | 'updateIssuer'>, key: Uint8Array): Promise<number> {
  let count = 0;
  for (const issuer of await storage.listIssuers()) {
    if (!issuer.certificate || isCurrentKey(issuer.certificate, key)) continue;
    await storage.updateIssuer(issuer.id, { certificate: sealCertificate(unsealCertificate(issuer.certificate, key), key) });
    count++;
  }
  return count;
}

function toUploadError(e: unknown): CertificateUploadError {
  if (e instanceof CertificateUploadError) return e;
  const code = isEcfError(e) ? e.code : '';
  if (code in MESSAGES) {
    const c = code as keyof typeof MESSAGES;
    return new CertificateUploadError(MESSAGES[c], { code: c, cause: e });
  }
  return new CertificateUploadError(MESSAGES.invalid_file, { code: 'invalid_file', cause: e });
}

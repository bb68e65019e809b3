/**
 * Which Signer signs an issuer's documents: its own uploaded certificate (decrypted with the server's
 * certificate key) or the provider's certificate (issuers that delegated the signer role to the service).
 * Signers are cached per issuer; a new upload (different certificate bytes) replaces the cached one.
 */
import { createHash } from 'node:crypto';
import { checkValidity, p12Signer, readP12, type SigningIdentity, type Signer } from '../sign/index.js';
import { EcfError, isEcfError, type Clock } from '../index.js';
import { unsealCertificate } from './certificates.js';
import type { Issuer } from './storage/types.js';

/** Stable codes of {@link SignerUnavailableError}. */
export type SignerUnavailableCode =
  | 'no_certificate' // own mode without an uploaded certificate, or provider mode without a provider certificate
  | 'certificate_unreadable' // the stored certificate cannot be decrypted or opened (wrong ECF_CERT_KEY, corrupted)
  | 'certificate_expired'
  | 'certificate_not_yet_valid';

/**
 * No usable signer for an issuer. `message` is Spanish: it ends up in the document's `errors` while it waits
 * in `system_error` for the certificate to be fixed (an upload), and in API answers.
 */
export class SignerUnavailableError extends EcfError {
  declare readonly code: SignerUnavailableCode;
  constructor(message: string, options: { code: SignerUnavailableCode; cause?: unknown }) {
    super(message, { code: options.code, cause: options.cause });
    this.name = 'SignerUnavailableError';
  }
}

export interface SignerProvider {
  /** The signer for the issuer's documents. @throws SignerUnavailableError */
  signerFor(issuer: Issuer): Promise<Signer>;
}

export interface SignerProviderOptions {
  /** Certificate key (a `SecretKey` also carries previous keys); null when no issuer signs with its own certificate. */
  key: Uint8Array | null;
  /** The provider's certificate, for issuers in `provider` signing mode. */
  provider?: { p12: Uint8Array; password: string };
  /** For validity checks; defaults to the system clock. */
  clock?: Clock;
}

interface CachedSigner {
  digest: string;
  identity: SigningIdentity;
  signer: Signer;
}

/**
 * @example
 * const signers = createSignerProvider({ key: loadCertificateKey({ env, dataDir, production }) });
 * const signed = await signEcf(xml, await signers.signerFor(issuer), clock);
 */
export function createSignerProvider(options: SignerProviderOptions): SignerProvider {
  const clock = options.clock ?? (() => new Date());
  const own = new Map<number, CachedSigner>();
  let provider: CachedSigner | null = null;

  const usable = (cached: CachedSigner, whose: string): Signer => {
    try {
      checkValidity(cached.identity, clock);
    } catch (e) {
      const expired = isEcfError(e) && e.code === 'expired';
      throw new SignerUnavailableError(
        expired
          ? `El certificado ${whose} venció el ${cached.identity.info.notAfter.toISOString()}; no se puede firmar. Suba un certificado vigente.`
          : `El certificado ${whose} no es válido antes del ${cached.identity.info.notBefore.toISOString()}; no se puede firmar todavía.`,
        { code: expired ? 'certificate_expired' : 'certificate_not_yet_valid', cause: e },
      );
    }
    return cached.signer;
  };

  const providerSigner = (): Signer => {
    const p = options.provider;
    if (!p) {
      throw new SignerUnavailableError('El emisor firma con el certificado del proveedor, pero el servicio no tiene un certificado de proveedor configurado.', {
        code: 'no_certificate',
      });
    }
    if (!provider) {
      try {
        const identity = readP12(p.p12, p.password);
        provider = { digest: '', identity, signer: p12Signer(identity) };
      } catch (cause) {
        throw new SignerUnavailableError('El certificado del proveedor no se puede abrir (archivo o contraseña incorrectos).', {
          code: 'certificate_unreadable',
          cause,
        });
      }
    }
    return usable(provider, 'del proveedor');
  };

  const ownSigner = (issuer: Issuer): Signer => {
    const blob = issuer.certificate;
    if (!blob || blob.length === 0) {
      own.delete(issuer.id);
      throw new SignerUnavailableError(`El emisor ${issuer.rnc} firma con su propio certificado y no ha subido ninguno. Súbalo con POST /api/v1/certificate.`, {
        code: 'no_certificate',
      });
    }
    const digest = createHash('sha256').update(blob).digest('hex');
    let cached = own.get(issuer.id);
    if (!cached || cached.digest !== digest) {
      if (!options.key) {
        throw new SignerUnavailableError('El servicio no tiene configurada la llave que descifra los certificados (ECF_CERT_KEY).', {
          code: 'certificate_unreadable',
        });
      }
      let identity: SigningIdentity;
      try {
        const sealed = unsealCertificate(blob, options.key);
        identity = readP12(sealed.p12, sealed.password);
      } catch (cause) {
        throw new SignerUnavailableError(
          `El certificado guardado del emisor ${issuer.rnc} no se puede descifrar o abrir (¿cambió ECF_CERT_KEY?). Súbalo de nuevo.`,
          { code: 'certificate_unreadable', cause },
        );
      }
      cached = { digest, identity, signer: p12Signer(identity) };
      own.set(issuer.id, cached);
    }
    return usable(cached, `del emisor ${issuer.rnc}`);
  };

  return {
    async signerFor(issuer: Issuer): Promise<Signer> {
      return issuer.signingMode === 'provider' ? providerSigner() : ownSigner(issuer);
    },
  };
}

/**
 * Reading PKCS#12 (.p12 / .pfx) signing certificates.
 *
 * node-forge is used only to open the container (decrypt the bags), because it reads the legacy
 * RC2-40 files that certificates accepted by tax authorities often come in, which OpenSSL 3 (and so node:crypto)
 * refuses without its legacy provider. Everything after that is node:crypto: the key becomes a
 * `KeyObject`, and signing never touches forge.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { CertificateError } from '../errors/certificate-error.js';
import type { Clock } from '../ports.js';

/** Distinguished-name details of a certificate's subject or issuer. */
export interface DistinguishedName {
  /** One line, most significant attribute last as in the certificate: `CN=Juan Pérez, serialNumber=IDCDO-00199999996, C=DO`. */
  text: string;
  /**
   * Attribute map by short name (`CN`, `O`, `OU`, `C`, `L`, `ST`, `E`) or, for the others, the
   * X.500 name (`serialNumber`, `givenName`, `surname`, …) or the dotted OID. Repeated attributes
   * are joined with `, ` in certificate order.
   */
  attributes: Record<string, string>;
}

/** What a signing certificate says about itself. */
export interface CertificateInfo {
  subject: DistinguishedName;
  issuer: DistinguishedName;
  /**
   * The subject's `serialNumber` attribute (OID 2.5.4.5): the holder's tax or identity
   * number, e.g. `IDCDO-00199999996`. `null` when absent. (OpenSSL's short name
   * `SN` is *surname*, a different attribute.)
   */
  serialNumber: string | null;
  /** The certificate's own serial number, lower-case hex. */
  certificateSerial: string;
  notBefore: Date;
  notAfter: Date;
}

/** A private key and its certificate, ready for {@link p12Signer}. */
export interface SigningIdentity {
  /** The RSA private key as a node:crypto key object. */
  privateKey: KeyObject;
  /** Leaf certificate (the one whose public key matches `privateKey`), DER, base64. */
  certificate: string;
  /** The other certificates found in the file (CA chain), DER, base64, in file order. */
  chain: string[];
  info: CertificateInfo;
}

const MS_PER_DAY = 86_400_000;

/**
 * Opens a PKCS#12 file and returns the private key with the certificate that matches it.
 *
 * Works with modern (PBES2/AES, 3DES) and legacy (RC2-40) encryption and with files holding
 * several certificates: the leaf is the certificate whose public key equals the key's, wherever
 * it sits in the file (the first key that has one; `singleKey: true` refuses a file with more than one key
 * instead). Validity is not checked here: see {@link checkValidity}.
 *
 * @throws CertificateError `invalid_file`, `wrong_password`, `no_private_key`, `no_certificate`, `unsupported_key`,
 *   `several_keys` (with `singleKey`)
 * @example
 * const id = readP12(await readFile('firma.p12'), process.env.P12_PASSWORD!);
 * id.info.serialNumber //=> 'IDCDO-00199999996'
 */
export function readP12(bytes: Uint8Array, password: string, options: { singleKey?: boolean } = {}): SigningIdentity {
  const p12 = openContainer(bytes, password);
  const keys = collectKeys(p12);
  if (options.singleKey && keys.length > 1) {
    throw new CertificateError(
      `The .p12 file holds ${keys.length} private keys; a signing identity is one key with its certificate. ` +
        'Export the signing certificate alone (with its private key) into a new .p12.',
      { code: 'several_keys' },
    );
  }
  if (keys.length === 0) {
    throw new CertificateError(
      'The .p12 file holds no private key (it contains only certificates). Export the certificate again ' +
        'from the browser or certificate store choosing "include private key" / "export private key".',
      { code: 'no_private_key' },
    );
  }
  const certs = collectCertificates(p12);
  for (const privateKey of keys) {
    const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
    const leaf = certs.find((c) => c.spki?.equals(spki));
    if (leaf) {
      return {
        privateKey,
        certificate: leaf.der.toString('base64'),
        chain: certs.filter((c) => c !== leaf).map((c) => c.der.toString('base64')),
        info: describe(leaf.cert),
      };
    }
  }
  throw new CertificateError(
    `The .p12 file holds a private key but none of its ${certs.length} certificate(s) belongs to that key. ` +
      'Export the key together with its own certificate.',
    { code: 'no_certificate' },
  );
}

/**
 * Throws when the certificate is not valid at the clock's instant.
 *
 * @throws CertificateError `expired` or `not_yet_valid`
 * @example
 * checkValidity(identity, () => new Date()); // throws CertificateError('expired') after notAfter
 */
export function checkValidity(identity: Pick<SigningIdentity, 'info'>, clock: Clock): void {
  const now = clock();
  const { notBefore, notAfter, subject } = identity.info;
  if (now.getTime() > notAfter.getTime()) {
    throw new CertificateError(
      `The certificate "${subject.text}" expired on ${notAfter.toISOString()}. ` +
        'Renew it with your certification authority and use the new .p12; tax authorities reject signatures made with expired certificates.',
      { code: 'expired' },
    );
  }
  if (now.getTime() < notBefore.getTime()) {
    throw new CertificateError(
      `The certificate "${subject.text}" is not valid before ${notBefore.toISOString()}. ` + 'Wait until then, or check that the system clock is right.',
      { code: 'not_yet_valid' },
    );
  }
}

/**
 * Whole days from the clock's instant until the certificate expires (negative once expired).
 *
 * @example
 * daysToExpiry(identity, () => new Date('2026-01-01T00:00:00Z')) //=> 364
 */
export function daysToExpiry(identity: Pick<SigningIdentity, 'info'>, clock: Clock): number {
  return Math.floor((identity.info.notAfter.getTime() - clock().getTime()) / MS_PER_DAY);
}

function openContainer(bytes: Uint8Array, password: string): forge.pkcs12.Pkcs12Pfx {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(bytes).toString('binary')));
  } catch (cause) {
    throw invalidFile(cause);
  }
  try {
    return forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (/password|MAC could not be verified|decrypt/i.test(message)) {
      throw new CertificateError(
        'Wrong password for the .p12 file. Use the password chosen when the certificate was exported ' +
          '(it is case-sensitive; check for trailing spaces or newlines in environment variables).',
        { code: 'wrong_password', cause },
      );
    }
    throw invalidFile(cause);
  }
}

function invalidFile(cause: unknown): CertificateError {
  return new CertificateError(
    'The file is not a readable PKCS#12 (.p12 / .pfx) certificate. Pass the bytes of the .p12 file ' +
      'itself (not a PEM, .cer or base64 text), as exported by your certification authority.',
    { code: 'invalid_file', cause },
  );
}

function collectKeys(p12: forge.pkcs12.Pkcs12Pfx): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const type of [forge.pki.oids.pkcs8ShroudedKeyBag!, forge.pki.oids.keyBag!]) {
    for (const bag of p12.getBags({ bagType: type })[type] ?? []) {
      if (bag.key) {
        const der = forge.asn1.toDer(forge.pki.privateKeyToAsn1(bag.key)).getBytes();
        keys.push(createPrivateKey({ key: Buffer.from(der, 'binary'), format: 'der', type: 'pkcs1' }));
      } else {
        throw new CertificateError('The private key in the .p12 file is not an RSA key. The kit signs RSA-SHA256: use an RSA certificate.', {
          code: 'unsupported_key',
        });
      }
    }
  }
  return keys;
}

interface BagCertificate {
  der: Buffer;
  spki: Buffer | null;
  cert: forge.pki.Certificate;
}

function collectCertificates(p12: forge.pkcs12.Pkcs12Pfx): BagCertificate[] {
  const out: BagCertificate[] = [];
  const type = forge.pki.oids.certBag!;
  for (const bag of p12.getBags({ bagType: type })[type] ?? []) {
    // forge leaves `cert` null for certificates it cannot parse (non-RSA keys): they cannot be our leaf.
    if (!bag.cert) continue;
    const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert)).getBytes(), 'binary');
    const spki = Buffer.from(forge.asn1.toDer(forge.pki.publicKeyToAsn1(bag.cert.publicKey)).getBytes(), 'binary');
    out.push({ der, spki, cert: bag.cert });
  }
  return out;
}

function describe(cert: forge.pki.Certificate): CertificateInfo {
  const subject = distinguishedName(cert.subject.attributes);
  const serial = cert.subject.attributes.find((a) => a.type === '2.5.4.5');
  return {
    subject,
    issuer: distinguishedName(cert.issuer.attributes),
    serialNumber: serial ? attributeValue(serial) : null,
    certificateSerial: cert.serialNumber.toLowerCase(),
    notBefore: new Date(cert.validity.notBefore.getTime()),
    notAfter: new Date(cert.validity.notAfter.getTime()),
  };
}

function distinguishedName(attrs: forge.pki.CertificateField[]): DistinguishedName {
  const attributes: Record<string, string> = {};
  const parts: string[] = [];
  for (const a of attrs) {
    const key = a.shortName ?? a.name ?? a.type ?? '?';
    const value = attributeValue(a);
    attributes[key] = key in attributes ? `${attributes[key]}, ${value}` : value;
    parts.push(`${key}=${value}`);
  }
  return { text: parts.join(', '), attributes };
}

/** forge keeps attribute values as binary strings; UTF8String values need decoding. */
function attributeValue(a: forge.pki.CertificateField): string {
  const raw = String(a.value ?? '');
  if (Number(a.valueTagClass) === forge.asn1.Type.UTF8) {
    try {
      return forge.util.decodeUtf8(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

/**
 * Test certificates, generated at test time and cached per test process; never committed.
 *
 * Keys come from node:crypto (fast); certificates are built and signed with node-forge; .p12 files
 * are packaged with node-forge (3DES, AES-256) or, for the legacy RC2-40 and OpenSSL-3-default
 * variants, with the `openssl` command line.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';

export const TEST_PASSWORD = 'prueba-ecf-kit 2026';
/** Cédula-style serial of DGII's own test certificate. */
export const TEST_CEDULA_SERIAL = 'IDCDO-00199999996';
/** An RNC-style subject serial (arbitrary test value). */
export const TEST_RNC_SERIAL = 'IDCDO-131880738';
export const VALID_FROM = new Date('2025-01-01T00:00:00Z');
export const VALID_TO = new Date('2035-01-01T00:00:00Z');

export interface TestCertificate {
  p12: Uint8Array;
  password: string;
  /** Leaf certificate: PEM, DER, base64 DER. */
  certificatePem: string;
  certificateDer: Buffer;
  certificate: string;
  /** Private key, PKCS#8 PEM. */
  keyPem: string;
}

interface KeyPair {
  keyPem: string;
  forgeKey: forge.pki.rsa.PrivateKey;
  forgePublic: forge.pki.rsa.PublicKey;
}

function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

function newKeyPair(): KeyPair {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pkcs1 = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pkcs1) as forge.pki.rsa.PrivateKey;
  return {
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    forgeKey,
    forgePublic: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e),
  };
}

const leafKey = once(newKeyPair);
const caKey = once(newKeyPair);

let serialCounter = 0x1000;

interface CertSpec {
  subject: forge.pki.CertificateField[];
  issuer?: forge.pki.CertificateField[];
  key: KeyPair;
  signer?: KeyPair;
  notBefore?: Date;
  notAfter?: Date;
  ca?: boolean;
}

function buildCertificate(spec: CertSpec): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = spec.key.forgePublic;
  // A positive INTEGER without leading zero bytes (DER requires minimal encoding).
  cert.serialNumber = (0x40000000 + serialCounter++).toString(16);
  cert.validity.notBefore = spec.notBefore ?? VALID_FROM;
  cert.validity.notAfter = spec.notAfter ?? VALID_TO;
  cert.setSubject(spec.subject);
  cert.setIssuer(spec.issuer ?? spec.subject);
  cert.setExtensions(
    spec.ca
      ? [
          { name: 'basicConstraints', cA: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
        ],
  );
  cert.sign((spec.signer ?? spec.key).forgeKey, forge.md.sha256.create());
  return cert;
}

function personSubject(serial: string): forge.pki.CertificateField[] {
  return [
    { shortName: 'C', value: 'DO' },
    { shortName: 'O', value: 'ECF KIT PRUEBAS' },
    // UTF8String so that accents survive (forge encodes the value when valueTagClass is UTF8).
    { name: 'commonName', value: 'JOSÉ PEÑA PRUEBA', valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class },
    { name: 'serialNumber', value: serial },
  ];
}

function toPem(cert: forge.pki.Certificate): string {
  return forge.pki.certificateToPem(cert);
}

function p12Der(key: KeyPair | null, certs: forge.pki.Certificate[], algorithm: '3des' | 'aes256'): Uint8Array {
  const asn1 = forge.pkcs12.toPkcs12Asn1(key ? key.forgeKey : null, certs, TEST_PASSWORD, {
    algorithm,
    friendlyName: 'ecf-kit test',
  });
  return new Uint8Array(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'));
}

function describeLeaf(cert: forge.pki.Certificate, key: KeyPair, p12: Uint8Array): TestCertificate {
  const certificatePem = toPem(cert);
  const certificateDer = new X509Certificate(certificatePem).raw;
  return {
    p12,
    password: TEST_PASSWORD,
    certificatePem,
    certificateDer,
    certificate: certificateDer.toString('base64'),
    keyPem: key.keyPem,
  };
}

const validLeaf = once(() => buildCertificate({ subject: personSubject(TEST_CEDULA_SERIAL), key: leafKey() }));

/** Valid self-signed certificate (subject serialNumber `IDCDO-00199999996`), .p12 with 3DES. */
export const modernP12 = once(() => describeLeaf(validLeaf(), leafKey(), p12Der(leafKey(), [validLeaf()], '3des')));

/** Same certificate and key, .p12 with AES-256 (PBES2). */
export const aesP12 = once(() => describeLeaf(validLeaf(), leafKey(), p12Der(leafKey(), [validLeaf()], 'aes256')));

/** Subject serialNumber carries an RNC. */
export const rncP12 = once(() => {
  const cert = buildCertificate({ subject: personSubject(TEST_RNC_SERIAL), key: leafKey() });
  return describeLeaf(cert, leafKey(), p12Der(leafKey(), [cert], '3des'));
});

/** Test CA certificate (its own key). */
export const caCertificate = once(() =>
  buildCertificate({
    subject: [
      { shortName: 'C', value: 'DO' },
      { name: 'commonName', value: 'ECF KIT TEST ROOT CA' },
    ],
    key: caKey(),
    ca: true,
  }),
);

/** Multi-certificate .p12: the CA certificate is listed first, the leaf (issued by that CA) second. */
export const multiCertP12 = once(() => {
  const ca = caCertificate();
  const leaf = buildCertificate({ subject: personSubject(TEST_CEDULA_SERIAL), issuer: ca.subject.attributes, key: leafKey(), signer: caKey() });
  const described = describeLeaf(leaf, leafKey(), p12Der(leafKey(), [ca, leaf], '3des'));
  return { ...described, caCertificate: new X509Certificate(toPem(ca)).raw.toString('base64') };
});

/** Expired: valid 2020-01-01 to 2021-01-01. */
export const expiredP12 = once(() => {
  const cert = buildCertificate({
    subject: personSubject(TEST_CEDULA_SERIAL),
    key: leafKey(),
    notBefore: new Date('2020-01-01T00:00:00Z'),
    notAfter: new Date('2021-01-01T00:00:00Z'),
  });
  return describeLeaf(cert, leafKey(), p12Der(leafKey(), [cert], '3des'));
});

/** Not yet valid: valid from 2099-01-01. */
export const notYetValidP12 = once(() => {
  const cert = buildCertificate({
    subject: personSubject(TEST_CEDULA_SERIAL),
    key: leafKey(),
    notBefore: new Date('2099-01-01T00:00:00Z'),
    notAfter: new Date('2100-01-01T00:00:00Z'),
  });
  return describeLeaf(cert, leafKey(), p12Der(leafKey(), [cert], '3des'));
});

/** Certificate only, no private key. */
export const noKeyP12 = once(() => describeLeaf(validLeaf(), leafKey(), p12Der(null, [validLeaf()], '3des')));

/** True when the `openssl` command line is available. */
export const hasOpenssl = once(() => spawnSync('openssl', ['version'], { encoding: 'utf8' }).status === 0);

/** True when `xmlsec1` is available. */
export const hasXmlsec1 = once(() => spawnSync('xmlsec1', ['--version'], { encoding: 'utf8' }).status === 0);

/**
 * Throws a clear error when a system tool the tests need is missing. The tests never skip: a
 * missing tool is a failing test that says which Debian package to install.
 */
export function requireTool(tool: 'xmlsec1' | 'openssl'): void {
  if (tool === 'xmlsec1' ? hasXmlsec1() : hasOpenssl()) return;
  throw new Error(
    `This test needs the \`${tool}\` command, which was not found on PATH. ` +
      `Install the Debian package "${tool}": apt-get update && apt-get install -y ${tool}`,
  );
}

/**
 * Runs `xmlsec1 --verify` on a signed document; `trustedPem` switches from --insecure to a trusted
 * certificate. Fails (throws) when xmlsec1 is not installed.
 */
export function xmlsecVerify(signedXml: string, trustedPem?: string): { ok: boolean; output: string } {
  requireTool('xmlsec1');
  return withTempDir((dir) => {
    const file = join(dir, 'signed.xml');
    writeFileSync(file, signedXml);
    const args = ['--verify'];
    if (trustedPem) {
      writeFileSync(join(dir, 'trusted.pem'), trustedPem);
      args.push('--trusted-pem', join(dir, 'trusted.pem'));
    } else {
      args.push('--insecure');
    }
    const r = spawnSync('xmlsec1', [...args, file], { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
  });
}

/** Runs `fn` with a fresh temporary directory, removed afterwards. */
export function withTempDir<T>(fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'ecf-kit-test-'));
  try {
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function opensslP12(extraArgs: string[]): Uint8Array {
  requireTool('openssl');
  const leaf = modernP12();
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'cert.pem'), leaf.certificatePem);
    writeFileSync(join(dir, 'key.pem'), leaf.keyPem);
    execFileSync(
      'openssl',
      [
        'pkcs12',
        '-export',
        ...extraArgs,
        '-in',
        join(dir, 'cert.pem'),
        '-inkey',
        join(dir, 'key.pem'),
        '-passout',
        'env:ECF_KIT_TEST_P12_PASSWORD',
        '-out',
        join(dir, 'out.p12'),
      ],
      { env: { ...process.env, ECF_KIT_TEST_P12_PASSWORD: TEST_PASSWORD }, stdio: 'pipe' },
    );
    return new Uint8Array(readFileSync(join(dir, 'out.p12')));
  });
}

/** Legacy .p12 (certificates under RC2-40-CBC, key under 3DES, SHA-1 MAC), made by `openssl -legacy`. */
export const legacyP12 = once(() => ({
  ...modernP12(),
  p12: opensslP12(['-legacy', '-certpbe', 'PBE-SHA1-RC2-40', '-keypbe', 'PBE-SHA1-3DES', '-macalg', 'sha1']),
}));

/** OpenSSL 3's default .p12 (PBES2 / PBKDF2-HMAC-SHA256 / AES-256-CBC, SHA-256 MAC). */
export const opensslDefaultP12 = once(() => ({ ...modernP12(), p12: opensslP12([]) }));

/** Tries to read a .p12 with the openssl command line (no -legacy); returns its exit status and stderr. */
export function opensslRead(p12: Uint8Array): { status: number | null; stderr: string } {
  requireTool('openssl');
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'in.p12'), p12);
    const r = spawnSync('openssl', ['pkcs12', '-in', join(dir, 'in.p12'), '-passin', 'env:ECF_KIT_TEST_P12_PASSWORD', '-nokeys', '-noout'], {
      env: { ...process.env, ECF_KIT_TEST_P12_PASSWORD: TEST_PASSWORD },
      encoding: 'utf8',
    });
    return { status: r.status, stderr: r.stderr };
  });
}

/** A key whose certificate is missing: the file holds the key and only the (unrelated) CA certificate. */
export const mismatchedP12 = once(() => ({ ...modernP12(), p12: p12Der(leafKey(), [caCertificate()], '3des') }));

/** An EC (P-256) key and certificate, made by the openssl command line. */
export const ecP12 = once(() => {
  requireTool('openssl');
  return withTempDir((dir) => {
    const env = { ...process.env, ECF_KIT_TEST_P12_PASSWORD: TEST_PASSWORD };
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=EC TEST',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'pipe' },
    );
    execFileSync(
      'openssl',
      [
        'pkcs12',
        '-export',
        '-in',
        join(dir, 'cert.pem'),
        '-inkey',
        join(dir, 'key.pem'),
        '-passout',
        'env:ECF_KIT_TEST_P12_PASSWORD',
        '-out',
        join(dir, 'out.p12'),
      ],
      { env, stdio: 'pipe' },
    );
    return new Uint8Array(readFileSync(join(dir, 'out.p12')));
  });
});

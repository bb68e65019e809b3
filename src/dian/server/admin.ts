/**
 * The operator's operations on the DIAN server's database (the `ecf dian admin` commands call them): add a
 * company with its profile, software and a development signing identity; add a token (only its hash is
 * stored; the token is returned once); add a numbering resolution for a kind.
 */
import { randomBytes } from 'node:crypto';
import { DIAN_KINDS, type DianCompany, type DianKindId, EcfError } from '../index.js';
import { hashToken } from '../../shared/server-kit/tokens.js';
import { sealedDevIdentity, sealIdentity } from './certificates.js';
import { testSetIdProblem } from './storage/test-set.js';
import { checkValidity, daysToExpiry, readP12, type SigningIdentity } from '../sign/index.js';
import type { DianNumberingRange, DianNumberingRanges } from '../transport/index.js';
import type { ContingencyStore, ContingencyWindowRecord } from './storage/types.js';
import type { CompanyRecord, CompanyStore, DianEnvironmentCode, NewResolution, ResolutionRecord, ResolutionStore } from './storage/types.js';

/** A refusal the operator can act on (unknown company, bad range…); the CLI prints it and exits 1. */
export class DianAdminError extends EcfError {
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { code: options.code ?? 'admin_refused', cause: options.cause });
    this.name = 'DianAdminError';
  }
}

/** Prefix of the DIAN server's bearer tokens. */
export const DIAN_TOKEN_PREFIX = 'dian_';

/** A new bearer token (`dian_` + 32 random bytes, base64url). */
export function generateDianToken(): string {
  return DIAN_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export interface AddCompanyInput {
  nit: string;
  profile: DianCompany;
  softwareId: string;
  softwarePin: string;
  /** Default: the company's own NIT and DV (its own software). */
  providerNit?: string;
  providerDv?: string;
  /** Default `2` (habilitación). */
  environment?: DianEnvironmentCode;
  /** Habilitación's test set: documents are sent with SendTestSetAsync (docs/dian/server.md). Default none. */
  testSetId?: string | null;
}

/** Adds a company with a development identity and a first token. */
export async function addCompany(storage: CompanyStore, input: AddCompanyInput, key: Uint8Array): Promise<{ company: CompanyRecord; token: string }> {
  if (!/^\d{5,10}$/.test(input.nit)) throw new DianAdminError(`NIT must be 5 to 10 digits without check digit, got ${JSON.stringify(input.nit)}`);
  const testSetProblem = input.testSetId ? testSetIdProblem(input.testSetId) : null;
  if (testSetProblem) throw new DianAdminError(testSetProblem);
  const company = await storage.createCompany({
    nit: input.nit,
    profile: { ...input.profile, nit: input.nit },
    softwareId: input.softwareId,
    softwarePin: input.softwarePin,
    providerNit: input.providerNit ?? input.nit,
    providerDv: input.providerDv ?? input.profile.dv,
    environment: input.environment ?? '2',
    certificate: sealedDevIdentity(input.nit, input.profile.name, key),
    testSetId: input.testSetId ?? null,
  });
  const token = generateDianToken();
  await storage.addToken(company.id, hashToken(token), 'initial');
  return { company, token };
}

/** Adds a token for the company of `nit`. */
export async function addToken(
  storage: CompanyStore,
  nit: string,
  label: string | null = null,
): Promise<{ company: CompanyRecord; token: string; id: number }> {
  const company = await storage.getCompanyByNit(nit);
  if (!company) throw new DianAdminError(`unknown company: no company with NIT ${nit}`);
  const token = generateDianToken();
  const t = await storage.addToken(company.id, hashToken(token), label);
  return { company, token, id: t.id };
}

/** Adds a numbering resolution for one kind of the company of `nit`. */
export async function addResolution(storage: CompanyStore & ResolutionStore, nit: string, resolution: NewResolution): Promise<ResolutionRecord> {
  const company = await storage.getCompanyByNit(nit);
  if (!company) throw new DianAdminError(`unknown company: no company with NIT ${nit}`);
  if (!(resolution.kind in DIAN_KINDS)) throw new DianAdminError(`unknown kind ${JSON.stringify(resolution.kind)} (${Object.keys(DIAN_KINDS).join(', ')})`);
  for (const d of [resolution.resolutionDate, resolution.validFrom, resolution.validTo]) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d)) throw new DianAdminError(`dates are yyyy-MM-dd, got ${JSON.stringify(d)}`);
  }
  if (!(Number.isSafeInteger(resolution.from) && Number.isSafeInteger(resolution.to) && resolution.from >= 0 && resolution.from <= resolution.to)) {
    throw new DianAdminError(`the range must be whole numbers with from ≤ to, got ${resolution.from}–${resolution.to}`);
  }
  return storage.addResolution(company.id, { ...resolution, kind: resolution.kind as DianKindId });
}

/** Declares a contingency window (ISO instants with an offset, both included) for the company of `nit`. */
export async function addContingencyWindow(
  storage: CompanyStore & ContingencyStore,
  nit: string,
  window: { from: string; to: string },
): Promise<{ company: CompanyRecord; window: ContingencyWindowRecord }> {
  const company = await storage.getCompanyByNit(nit);
  if (!company) throw new DianAdminError(`unknown company: no company with NIT ${nit}`);
  const instant = (s: string) => {
    const t = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) ? Date.parse(s) : Number.NaN;
    if (Number.isNaN(t)) throw new DianAdminError(`instants are ISO 8601 with an offset (2025-03-14T08:00:00-05:00), got ${JSON.stringify(s)}`);
    return t;
  };
  const from = instant(window.from);
  const to = instant(window.to);
  if (from > to) throw new DianAdminError(`the window must end after it starts, got ${window.from} – ${window.to}`);
  return { company, window: await storage.addContingencyWindow(company.id, { from, to }) };
}

/** Days before expiry from which `certificate add` warns. */
export const CERTIFICATE_EXPIRY_WARNING_DAYS = 30;

/** A warning of `certificate add`: accepted, but the operator should look. */
export interface CertificateWarning {
  code: 'expires_soon' | 'nit_mismatch';
  message: string;
}

/** What `certificate add` says about the certificate it stored. */
export interface CertificateSummary {
  subject: string;
  issuer: string;
  /** The certificate's serial number, lower-case hex. */
  serial_number: string;
  /** The subject's serialNumber attribute (OID 2.5.4.5), where Colombian CAs put the holder's NIT or cédula; null when absent. */
  subject_serial_number: string | null;
  not_before: string;
  not_after: string;
  days_to_expiry: number;
}

/**
 * Replaces the signing identity of the company of `nit` with an operator's .p12 (sealed like the development
 * identity). Refused (DianAdminError, code of the kit's CertificateError): not a .p12, wrong password, no
 * private key or several, no certificate for the key, a non-RSA key, expired or not yet valid at `now`. Accepted with a
 * warning: expiring within {@link CERTIFICATE_EXPIRY_WARNING_DAYS} days, or a subject that does not carry the
 * company's NIT (a provider's certificate can sign for its clients, so this is not refused). The server opens
 * the new identity on the company's next request (its signers are keyed by the sealed bytes).
 */
export async function setCompanyCertificate(
  storage: CompanyStore,
  nit: string,
  upload: { p12: Uint8Array; password: string },
  key: Uint8Array,
  now: Date,
): Promise<{ company: CompanyRecord; certificate: CertificateSummary; warnings: CertificateWarning[] }> {
  const company = await storage.getCompanyByNit(nit);
  if (!company) throw new DianAdminError(`unknown company: no company with NIT ${nit}`);
  let identity: SigningIdentity;
  try {
    identity = readP12(upload.p12, upload.password, { singleKey: true });
    checkValidity(identity, () => now);
  } catch (e) {
    if (e instanceof EcfError) throw new DianAdminError(`certificate refused: ${e.message}`, { code: e.code, cause: e });
    throw e;
  }
  const { info } = identity;
  const days = daysToExpiry(identity, () => now);
  const warnings: CertificateWarning[] = [];
  if (days < CERTIFICATE_EXPIRY_WARNING_DAYS) {
    warnings.push({
      code: 'expires_soon',
      message: `the certificate expires on ${info.notAfter.toISOString()} (in ${days} day(s)); renew it and upload the new .p12 before then`,
    });
  }
  if (!carriesNit(identity, company.nit, company.profile.dv)) {
    const provider = company.providerNit !== company.nit && carriesNit(identity, company.providerNit, company.providerDv);
    warnings.push({
      code: 'nit_mismatch',
      message:
        `the certificate's subject (${info.subject.text}) does not carry the company's NIT ${company.nit}` +
        (provider
          ? `; it carries the provider's NIT ${company.providerNit}, which DIAN accepts only while the provider is authorised for this company`
          : '; DIAN accepts documents signed with a certificate of the issuer or of its authorised provider only'),
    });
  }
  await storage.setCertificate(company.id, sealIdentity(upload, key));
  return {
    company,
    certificate: {
      subject: info.subject.text,
      issuer: info.issuer.text,
      serial_number: info.certificateSerial,
      subject_serial_number: info.serialNumber,
      not_before: info.notBefore.toISOString(),
      not_after: info.notAfter.toISOString(),
      days_to_expiry: days,
    },
    warnings,
  };
}

/**
 * True when an attribute of the certificate's subject carries `nit` (alone or followed by its check digit),
 * separators ignored: `901458732`, `9014587328`, `901.458.732-8`, `NITCO-901458732`.
 */
function carriesNit(identity: SigningIdentity, nit: string, dv: string): boolean {
  const values = [identity.info.serialNumber ?? '', ...Object.values(identity.info.subject.attributes)];
  return values.some((v) => (v.replace(/[\s.-]/g, '').match(/\d+/g) ?? []).some((run) => run === nit || run === nit + dv));
}

/** Where `resolution fetch` asks: GetNumberingRange of a DIAN client signed with the company's identity. */
export interface NumberingRangeSource {
  getNumberingRange(accountCode: string, accountCodeT: string, softwareCode: string): Promise<DianNumberingRanges>;
}

/** A range DIAN returned that cannot be stored, and why. */
export interface SkippedRange {
  range: DianNumberingRange;
  reason: string;
}

/** What `resolution fetch` did with each range DIAN returned. */
export interface FetchedResolutions {
  company: CompanyRecord;
  /** DIAN's `OperationCode` and `OperationDescription`. */
  operation: { code: string; description: string | null };
  /** Ranges stored now. */
  added: ResolutionRecord[];
  /** Ranges stored before, with the same content. */
  unchanged: ResolutionRecord[];
  /** Ranges stored before under the same identity but with another technical key, resolution date or validity: left as stored. */
  differs: { stored: ResolutionRecord; dian: NewResolution }[];
  skipped: SkippedRange[];
}

/**
 * Asks DIAN (GetNumberingRange: the company's NIT, the provider's NIT — `accountCodeT`, default the company's
 * provider — and its software id) for the company's numbering ranges and stores each as a resolution of `kind`
 * (default `invoice`). Idempotent: a range is identified by kind, prefix, resolution number and first and last
 * number; one already stored is `unchanged` (or `differs`, left as stored, when DIAN now says another technical
 * key, resolution date or validity). Refused: unknown company or kind, and any OperationCode other than `100`
 * (`301`: DIAN holds no range for this company, provider and software).
 */
export async function fetchResolutions(
  storage: CompanyStore & ResolutionStore,
  nit: string,
  options: { kind?: string; accountCodeT?: string; dian: (company: CompanyRecord) => Promise<NumberingRangeSource> | NumberingRangeSource },
): Promise<FetchedResolutions> {
  const company = await storage.getCompanyByNit(nit);
  if (!company) throw new DianAdminError(`unknown company: no company with NIT ${nit}`);
  const kind = options.kind ?? 'invoice';
  if (!(kind in DIAN_KINDS)) throw new DianAdminError(`unknown kind ${JSON.stringify(kind)} (${Object.keys(DIAN_KINDS).join(', ')})`);
  const accountCodeT = options.accountCodeT ?? company.providerNit;
  if (!/^\d{5,15}$/.test(accountCodeT)) throw new DianAdminError(`accountCodeT is the provider's NIT without check digit, got ${JSON.stringify(accountCodeT)}`);
  const source = await options.dian(company);
  const answer = await source.getNumberingRange(company.nit, accountCodeT, company.softwareId);
  const operation = { code: answer.operationCode ?? '', description: answer.operationDescription };
  if (operation.code !== '100') {
    const what =
      operation.code === '301'
        ? `DIAN has no numbering range for NIT ${company.nit}, provider ${accountCodeT} and software ${company.softwareId}`
        : `DIAN refused GetNumberingRange for NIT ${company.nit}`;
    throw new DianAdminError(`${what} (OperationCode ${operation.code || '(none)'}: ${operation.description ?? ''})`, {
      code: operation.code === '301' ? 'no_ranges' : 'dian_refused',
    });
  }
  const result: FetchedResolutions = { company, operation, added: [], unchanged: [], differs: [], skipped: [] };
  const stored = await storage.listResolutions(company.id, kind as DianKindId);
  for (const range of answer.ranges) {
    const read = rangeAsResolution(range, kind as DianKindId);
    if (typeof read === 'string') {
      result.skipped.push({ range, reason: read });
      continue;
    }
    const same = stored.find((r) => r.prefix === read.prefix && r.resolutionNumber === read.resolutionNumber && r.from === read.from && r.to === read.to);
    if (!same) {
      const added = await storage.addResolution(company.id, read);
      stored.push(added);
      result.added.push(added);
    } else if (
      same.technicalKey === read.technicalKey &&
      same.resolutionDate === read.resolutionDate &&
      same.validFrom === read.validFrom &&
      same.validTo === read.validTo
    ) {
      if (!result.unchanged.includes(same) && !result.added.includes(same)) result.unchanged.push(same);
    } else {
      result.differs.push({ stored: same, dian: read });
    }
  }
  return result;
}

/** A range of DIAN's answer as a resolution, or why it cannot be one. */
function rangeAsResolution(r: DianNumberingRange, kind: DianKindId): NewResolution | string {
  const whole = (s: string | null) => (s !== null && /^\d{1,15}$/.test(s.trim()) ? Number(s.trim()) : null);
  // DIAN writes dates as yyyy-MM-dd, sometimes with a time of day after them.
  const day = (s: string | null) => (s !== null && /^\d{4}-\d{2}-\d{2}(?:$|[T ])/.test(s.trim()) ? s.trim().slice(0, 10) : null);
  const from = whole(r.fromNumber);
  const to = whole(r.toNumber);
  if (from === null || to === null || from > to) return `the range must be whole numbers with from ≤ to, got ${r.fromNumber}–${r.toNumber}`;
  const resolutionNumber = r.resolutionNumber?.trim() ?? '';
  if (!resolutionNumber) return 'no resolution number';
  const validFrom = day(r.validDateFrom);
  const validTo = day(r.validDateTo);
  if (!validFrom || !validTo) return `validity dates must be yyyy-MM-dd, got ${r.validDateFrom} – ${r.validDateTo}`;
  return {
    kind,
    prefix: r.prefix?.trim() ?? '',
    from,
    to,
    technicalKey: r.technicalKey?.trim() || null,
    resolutionNumber,
    resolutionDate: day(r.resolutionDate) ?? validFrom,
    validFrom,
    validTo,
  };
}

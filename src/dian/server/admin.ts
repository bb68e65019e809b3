/**
 * The operator's operations on the DIAN server's database (the `ecf dian admin` commands call them): add a
 * company with its profile, software and a development signing identity; add a token (only its hash is
 * stored; the token is returned once); add a numbering resolution for a kind.
 */
import { randomBytes } from 'node:crypto';
import { DIAN_KINDS, type DianCompany, type DianKindId, EcfError } from '../index.js';
import { hashToken } from '../../shared/server-kit/tokens.js';
import { sealedDevIdentity } from './certificates.js';
import { testSetIdProblem } from './storage/test-set.js';
import type { ContingencyStore, ContingencyWindowRecord } from './storage/types.js';
import type { CompanyRecord, CompanyStore, DianEnvironmentCode, NewResolution, ResolutionRecord, ResolutionStore } from './storage/types.js';

/** A refusal the operator can act on (unknown company, bad range…); the CLI prints it and exits 1. */
export class DianAdminError extends EcfError {
  constructor(message: string) {
    super(message, { code: 'admin_refused' });
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

/**
 * The operator's test-set operation (`ecf dian admin company set --test-set-id ID | --no-test-set`): puts a company
 * into habilitación's test-set mode (its documents go out with SendTestSetAsync) or takes it out (SendBillSync).
 */
import { DianAdminError } from './admin.js';
import { testSetIdProblem } from './storage/test-set.js';
import type { CompanyRecord, CompanyStore, TestSetStore } from './storage/types.js';

/** Sets (`testSetId`) or clears (null) the test set of the company of `nit`; the company as it is now. */
export async function setCompanyTestSet(storage: CompanyStore & TestSetStore, nit: string, testSetId: string | null): Promise<CompanyRecord> {
  const company = await storage.getCompanyByNit(nit);
  if (!company) throw new DianAdminError(`unknown company: no company with NIT ${nit}`);
  const problem = testSetId === null ? null : testSetIdProblem(testSetId);
  if (problem) throw new DianAdminError(problem);
  await storage.setCompanyTestSet(company.id, testSetId);
  return { ...company, testSetId };
}

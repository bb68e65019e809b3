/**
 * The test-set store (company `test_set_id`, dian_test_set_documents) on SQLite and PostgreSQL: the company's test
 * set set and cleared, a send recorded before it is made, its ZipKey and verdict, a second send of the same row
 * replacing the first, a send forgotten, the per-set counts per company.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PROFILE, STORAGE_ENGINES as engines } from '../helpers.js';

describe.each(engines)('test-set store on %s', (_name, open) => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(async () => {
    await cleanup();
  });

  it('company test set; sends with ZipKey and verdict; a resend replaces; forget; counts per set and company', async () => {
    const o = await open();
    cleanup = o.cleanup;
    const s = o.storage;
    const company = (nit: string, testSetId?: string) =>
      s.createCompany({ nit, profile: PROFILE, softwareId: 's', softwarePin: '1', providerNit: nit, providerDv: '0', environment: '2', testSetId });
    const a = await company('900111222', 'set-a');
    const b = await company('900333444');
    expect(a.testSetId).toBe('set-a');
    expect(b.testSetId).toBeNull();
    expect(await s.setCompanyTestSet(b.id, 'set-b')).toBe(true);
    expect((await s.getCompanyByNit('900333444'))!.testSetId).toBe('set-b');
    expect(await s.setCompanyTestSet(a.id, null)).toBe(true);
    expect((await s.getCompany(a.id))!.testSetId).toBeNull();
    expect(await s.setCompanyTestSet(999_999, 'x')).toBe(false);

    const doc = async (companyId: number, number: number) =>
      (await s.reserveDocument({ companyId, kind: 'invoice', prefix: 'SETP', number, requestHash: `h${number}` })).document;
    const d1 = await doc(a.id, 1);
    const d2 = await doc(a.id, 2);
    const d3 = await doc(a.id, 3);
    const d4 = await doc(b.id, 1);

    expect(await s.getTestSetSend(d1.id)).toBeNull();
    const started = await s.startTestSetSend({ documentId: d1.id, companyId: a.id, testSetId: 'set-a' });
    expect(started).toMatchObject({ documentId: d1.id, companyId: a.id, testSetId: 'set-a', zipKey: null, verdict: null });
    await s.setTestSetZipKey(d1.id, 'zip-1');
    await s.setTestSetVerdict(d1.id, 'rejected');
    expect(await s.getTestSetSend(d1.id)).toMatchObject({ zipKey: 'zip-1', verdict: 'rejected' });
    // The same row sent again (a rejected number taken over): ZipKey and verdict start over.
    await s.startTestSetSend({ documentId: d1.id, companyId: a.id, testSetId: 'set-a2' });
    expect(await s.getTestSetSend(d1.id)).toMatchObject({ testSetId: 'set-a2', zipKey: null, verdict: null });
    await s.setTestSetVerdict(d1.id, 'accepted');

    await s.startTestSetSend({ documentId: d2.id, companyId: a.id, testSetId: 'set-a' });
    await s.setTestSetVerdict(d2.id, 'accepted');
    await s.startTestSetSend({ documentId: d3.id, companyId: a.id, testSetId: 'set-a' });
    await s.startTestSetSend({ documentId: d4.id, companyId: b.id, testSetId: 'set-b' });
    await s.setTestSetVerdict(d4.id, 'rejected');

    expect(await s.testSetProgress(a.id)).toEqual([
      { testSetId: 'set-a', accepted: 1, rejected: 0, pending: 1 },
      { testSetId: 'set-a2', accepted: 1, rejected: 0, pending: 0 },
    ]);
    expect(await s.testSetProgress(b.id)).toEqual([{ testSetId: 'set-b', accepted: 0, rejected: 1, pending: 0 }]);

    // A send that never happened is forgotten, and the number can then be released.
    await s.forgetTestSetSend(d3.id);
    expect(await s.getTestSetSend(d3.id)).toBeNull();
    await s.releaseDocument(d3.id);
    expect(await s.getDocumentByNumber(a.id, 'SETP', 3)).toBeNull();
    expect(await s.testSetProgress(a.id)).toEqual([
      { testSetId: 'set-a', accepted: 1, rejected: 0, pending: 0 },
      { testSetId: 'set-a2', accepted: 1, rejected: 0, pending: 0 },
    ]);
  });
});

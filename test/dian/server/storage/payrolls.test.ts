/** The payroll store (dian_payrolls, migration 4) on SQLite and PostgreSQL: reservation, idempotency, a refused number taken over, release, per company. */
import { afterEach, describe, expect, it } from 'vitest';
import type { DianStorage } from '../../../../src/dian/server/index.js';
import { PROFILE, STORAGE_ENGINES as engines } from '../helpers.js';

const CUNE = 'c'.repeat(96);

describe.each(engines)('payroll store on %s', (_name, open) => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(async () => {
    await cleanup();
  });

  const company = (s: DianStorage, nit: string) =>
    s.createCompany({ nit, profile: PROFILE, softwareId: 's', softwarePin: '1', providerNit: nit, providerDv: '0', environment: '2' });
  const input = (companyId: number, requestHash: string, over: Record<string, unknown> = {}) => ({
    companyId,
    kind: 'payroll',
    prefix: 'NOM',
    consecutive: 1,
    requestHash,
    sendMode: 'sync' as const,
    testSetId: null,
    ...over,
  });

  it('reserves prefix + consecutive once per company across both kinds; same body, other body, a refused number taken over, release', async () => {
    const o = await open();
    cleanup = o.cleanup;
    const s = o.storage;
    const a = await company(s, '900111222');
    const b = await company(s, '900333444');
    const first = await s.reservePayroll(input(a.id, 'h1'));
    expect(first.outcome).toBe('reserved');
    expect(first.payroll).toMatchObject({ state: 'building', kind: 'payroll', prefix: 'NOM', consecutive: 1, sendMode: 'sync', testSetId: null, cune: null });
    expect((await s.reservePayroll(input(a.id, 'h1'))).outcome).toBe('same');
    expect((await s.reservePayroll(input(a.id, 'h2', { kind: 'payroll-adjustment' }))).outcome).toBe('different');
    // Another prefix, and another company's NOM1, are their own numbers.
    expect((await s.reservePayroll(input(a.id, 'h1', { prefix: 'NA' }))).outcome).toBe('reserved');
    expect((await s.reservePayroll(input(b.id, 'h9'))).outcome).toBe('reserved');

    const zip = new Uint8Array([80, 75, 3, 4, 0, 255]);
    const sent = await s.updatePayroll(first.payroll.id, { state: 'sending', cune: CUNE, signedXml: '<x/>', xmlFileName: 'nie1.xml', zip, predecessorId: 7 });
    expect(sent).toMatchObject({ state: 'sending', cune: CUNE, signedXml: '<x/>', xmlFileName: 'nie1.xml', predecessorId: 7 });
    expect(Array.from(sent.zip!)).toEqual(Array.from(zip));
    expect(await s.getPayrollByCune(a.id, CUNE)).toMatchObject({ id: first.payroll.id });
    expect(await s.getPayrollByCune(b.id, CUNE)).toBeNull();
    expect(await s.getPayroll(b.id, first.payroll.id)).toBeNull();
    const refused = await s.updatePayroll(first.payroll.id, {
      state: 'rejected',
      response: { status: 422, body: { payroll: { statusCode: 11 } } },
      dianAnswer: { isValid: false },
      dianAnsweredAt: 1234,
    });
    expect(refused).toMatchObject({ dianAnswer: { isValid: false }, dianAnsweredAt: 1234, response: { status: 422, body: { payroll: { statusCode: 11 } } } });
    const again = await s.reservePayroll(input(a.id, 'h3', { sendMode: 'test_set', testSetId: 'set-1' }));
    expect(again.outcome).toBe('reserved');
    expect(again.payroll).toMatchObject({
      id: first.payroll.id,
      state: 'building',
      requestHash: 'h3',
      sendMode: 'test_set',
      testSetId: 'set-1',
      cune: null,
      zip: null,
      response: null,
      dianAnswer: null,
      predecessorId: null,
    });
    await s.updatePayroll(again.payroll.id, { state: 'pending', zipKey: 'zk' });
    expect(await s.getPayroll(a.id, again.payroll.id)).toMatchObject({ state: 'pending', zipKey: 'zk' });

    // A pending upload is never released; a building one is.
    await s.releasePayroll(again.payroll.id);
    expect(await s.getPayroll(a.id, again.payroll.id)).toMatchObject({ state: 'pending' });
    const other = await s.reservePayroll(input(a.id, 'h5', { consecutive: 2 }));
    await s.releasePayroll(other.payroll.id);
    expect(await s.getPayroll(a.id, other.payroll.id)).toBeNull();
  });

  it('claims by compare-and-set: of two claims on one observed row one wins; a rejected number is re-reserved once', async () => {
    const o = await open();
    cleanup = o.cleanup;
    const s = o.storage;
    const a = await company(s, '900111222');
    const r = await s.reservePayroll(input(a.id, 'h'));
    const seen = await s.updatePayroll(r.payroll.id, { state: 'sending', cune: CUNE, response: { status: 503, body: {} } });
    const claims = await Promise.all([
      s.claimPayroll(seen.id, { state: 'sending', updatedAt: seen.updatedAt }, { response: null }),
      s.claimPayroll(seen.id, { state: 'sending', updatedAt: seen.updatedAt }, { response: null }),
    ]);
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    expect(claims.find((c) => c !== null)).toMatchObject({ state: 'sending', response: null });
    expect(await s.claimPayroll(seen.id, { state: 'accepted' }, { state: 'rejected' })).toBeNull();

    await s.updatePayroll(seen.id, { state: 'rejected' });
    const takeovers = await Promise.all(Array.from({ length: 6 }, (_, i) => s.reservePayroll(input(a.id, `t${i}`))));
    expect(takeovers.filter((t) => t.outcome === 'reserved')).toHaveLength(1);
    expect(takeovers.filter((t) => t.outcome === 'different')).toHaveLength(5);
  });

  it('never releases an accepted payroll', async () => {
    const o = await open();
    cleanup = o.cleanup;
    const s = o.storage;
    const a = await company(s, '900111222');
    const r = await s.reservePayroll(input(a.id, 'h'));
    await s.updatePayroll(r.payroll.id, { state: 'accepted' });
    await s.releasePayroll(r.payroll.id);
    expect(await s.getPayroll(a.id, r.payroll.id)).toMatchObject({ state: 'accepted' });
  });
});

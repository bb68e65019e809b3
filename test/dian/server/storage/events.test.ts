/** The events store (dian_events) on SQLite and PostgreSQL: reservation, idempotency, a refused number taken over, release, per company. */
import { afterEach, describe, expect, it } from 'vitest';
import type { DianStorage } from '../../../../src/dian/server/index.js';
import { PROFILE, STORAGE_ENGINES as engines } from '../helpers.js';

const CUFE = 'a'.repeat(96);

describe.each(engines)('events store on %s', (_name, open) => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(async () => {
    await cleanup();
  });

  const company = (s: DianStorage, nit: string) =>
    s.createCompany({ nit, profile: PROFILE, softwareId: 's', softwarePin: '1', providerNit: nit, providerDv: '0', environment: '2' });

  it('reserves a number once per company; same body, other body, a refused number taken over, release', async () => {
    const o = await open();
    cleanup = o.cleanup;
    const s = o.storage;
    const a = await company(s, '900111222');
    const b = await company(s, '900333444');
    const first = await s.reserveEvent({ companyId: a.id, code: '031', number: 1, requestHash: 'h1', documentKey: CUFE });
    expect(first.outcome).toBe('reserved');
    expect(first.event).toMatchObject({ state: 'building', code: '031', number: 1, documentKey: CUFE, cude: null });
    expect((await s.reserveEvent({ companyId: a.id, code: '031', number: 1, requestHash: 'h1', documentKey: CUFE })).outcome).toBe('same');
    expect((await s.reserveEvent({ companyId: a.id, code: '034', number: 1, requestHash: 'h2', documentKey: CUFE })).outcome).toBe('different');
    // Another company's number 1 is its own.
    expect((await s.reserveEvent({ companyId: b.id, code: '031', number: 1, requestHash: 'h9', documentKey: CUFE })).outcome).toBe('reserved');

    const zip = new Uint8Array([80, 75, 3, 4, 0, 255]);
    const sent = await s.updateEvent(first.event.id, { state: 'sending', cude: 'c'.repeat(96), signedXml: '<x/>', zip });
    expect(sent).toMatchObject({ state: 'sending', cude: 'c'.repeat(96), signedXml: '<x/>', attachedDocument: null });
    // The AttachedDocument of an accepted event is kept with it; a refused number taken over starts without one.
    expect((await s.updateEvent(first.event.id, { attachedDocument: '<AttachedDocument/>' })).attachedDocument).toBe('<AttachedDocument/>');
    expect((await s.getEventByNumber(a.id, 1))?.attachedDocument).toBe('<AttachedDocument/>');
    expect(Array.from(sent.zip!)).toEqual(Array.from(zip));
    const refused = await s.updateEvent(first.event.id, {
      state: 'rejected',
      response: { status: 422, body: { event: { statusCode: 11 } } },
      dianAnswer: { isValid: false },
    });
    expect(refused.response).toEqual({ status: 422, body: { event: { statusCode: 11 } } });
    const again = await s.reserveEvent({ companyId: a.id, code: '031', number: 1, requestHash: 'h3', documentKey: CUFE });
    expect(again.outcome).toBe('reserved');
    expect(again.event).toMatchObject({
      id: first.event.id,
      state: 'building',
      requestHash: 'h3',
      cude: null,
      zip: null,
      response: null,
      attachedDocument: null,
    });

    await s.releaseEvent(again.event.id);
    expect(await s.getEventByNumber(a.id, 1)).toBeNull();
    expect(await s.getEventByNumber(b.id, 1)).toMatchObject({ requestHash: 'h9' });
  });

  it('never releases an accepted event', async () => {
    const o = await open();
    cleanup = o.cleanup;
    const s = o.storage;
    const a = await company(s, '900111222');
    const r = await s.reserveEvent({ companyId: a.id, code: '034', number: 7, requestHash: 'h', documentKey: CUFE });
    await s.updateEvent(r.event.id, { state: 'accepted' });
    await s.releaseEvent(r.event.id);
    expect(await s.getEventByNumber(a.id, 7)).toMatchObject({ state: 'accepted' });
  });
});

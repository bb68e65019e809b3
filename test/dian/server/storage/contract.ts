/** The DIAN storage conformance suite: SQLite and PostgreSQL pass it unchanged. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DianStorage } from '../../../../src/dian/server/index.js';
import { PROFILE } from '../helpers.js';

export function runDianStorageContract(name: string, make: () => Promise<{ storage: DianStorage; cleanup(): Promise<void> }>): void {
  describe(`DIAN storage contract: ${name}`, () => {
    let s: DianStorage;
    let cleanup: () => Promise<void>;
    let nit = 900000000;
    const newCompany = () =>
      s.createCompany({
        nit: String(++nit),
        profile: PROFILE,
        softwareId: 'sw-1',
        softwarePin: '12345',
        providerNit: '900000001',
        providerDv: '5',
        environment: '2',
      });

    beforeAll(async () => {
      ({ storage: s, cleanup } = await make());
    });
    afterAll(async () => {
      await cleanup();
    });

    it('migrating again is a no-op', async () => {
      await s.migrate();
      expect(await s.listCompanies()).toEqual([]);
    });

    it('stores a company with its profile and refuses a second one with the same NIT', async () => {
      const c = await newCompany();
      expect(await s.getCompanyByNit(c.nit)).toEqual(c);
      expect((await s.getCompany(c.id))?.profile).toEqual(PROFILE);
      await expect(s.createCompany({ ...c, certificate: null })).rejects.toMatchObject({ code: 'conflict' });
    });

    it('keeps a sealed certificate as bytes', async () => {
      const c = await newCompany();
      await s.setCertificate(c.id, new Uint8Array([1, 2, 3, 255]));
      expect([...((await s.getCompany(c.id))?.certificate ?? [])]).toEqual([1, 2, 3, 255]);
    });

    it('replaces a sealed certificate only while it is still the one expected (reseal after a concurrent upload)', async () => {
      const c = await newCompany();
      const other = await newCompany();
      await s.setCertificate(c.id, new Uint8Array([1, 2, 3]));
      await s.setCertificate(other.id, new Uint8Array([1, 2, 3]));
      expect(await s.replaceCertificate(c.id, new Uint8Array([1, 2, 4]), new Uint8Array([9]))).toBe(false);
      expect([...((await s.getCompany(c.id))?.certificate ?? [])]).toEqual([1, 2, 3]);
      expect(await s.replaceCertificate(c.id, new Uint8Array([1, 2, 3]), new Uint8Array([9, 9]))).toBe(true);
      expect([...((await s.getCompany(c.id))?.certificate ?? [])]).toEqual([9, 9]);
      expect([...((await s.getCompany(other.id))?.certificate ?? [])]).toEqual([1, 2, 3]);
      expect(await s.replaceCertificate(c.id, new Uint8Array([1, 2, 3]), new Uint8Array([7]))).toBe(false);
    });

    it('finds the company of an active token hash only', async () => {
      const a = await newCompany();
      const t = await s.addToken(a.id, `hash-${a.nit}`, 'ci');
      expect((await s.companyByTokenHash(`hash-${a.nit}`))?.id).toBe(a.id);
      expect(await s.companyByTokenHash('unknown')).toBeNull();
      const b = await newCompany();
      expect(await s.revokeToken(b.id, t.id)).toBe(false); // another company's token
      expect(await s.revokeToken(a.id, t.id)).toBe(true);
      expect(await s.companyByTokenHash(`hash-${a.nit}`)).toBeNull();
    });

    it('lists resolutions per company and kind', async () => {
      const c = await newCompany();
      const r = await s.addResolution(c.id, {
        kind: 'invoice',
        prefix: 'SETP',
        from: 990000000,
        to: 995000000,
        technicalKey: 'k',
        resolutionNumber: '18760000001',
        resolutionDate: '2024-01-01',
        validFrom: '2024-01-01',
        validTo: '2030-12-31',
      });
      await s.addResolution(c.id, { ...r, kind: 'pos', prefix: 'POS' });
      expect((await s.listResolutions(c.id, 'invoice')).map((x) => [x.prefix, x.from, x.to])).toEqual([['SETP', 990000000, 995000000]]);
      expect(await s.listResolutions(c.id)).toHaveLength(2);
      expect(await s.listResolutions((await newCompany()).id)).toEqual([]);
    });

    it('reserves a number once: same body, different body, a rejected number taken over with any body', async () => {
      const c = await newCompany();
      const input = { companyId: c.id, kind: 'invoice' as const, prefix: 'SETP', number: 990000001, requestHash: 'h1' };
      const first = await s.reserveDocument(input);
      expect(first.outcome).toBe('reserved');
      expect(first.document.state).toBe('building');
      expect((await s.reserveDocument(input)).outcome).toBe('same');
      expect((await s.reserveDocument({ ...input, requestHash: 'h2' })).outcome).toBe('different');
      // Another company may use the same number.
      const other = await newCompany();
      expect((await s.reserveDocument({ ...input, companyId: other.id })).outcome).toBe('reserved');
      await s.updateDocument(first.document.id, { state: 'rejected', response: { status: 422, body: { x: 1 } } });
      const again = await s.reserveDocument({ ...input, requestHash: 'h2' });
      expect(again.outcome).toBe('reserved');
      expect(again.document.id).toBe(first.document.id);
      expect(again.document.response).toBeNull();
      // Rejected again: even the same body takes it over (DIAN keeps no rejected document as a duplicate).
      await s.updateDocument(first.document.id, { state: 'rejected' });
      expect((await s.reserveDocument({ ...input, requestHash: 'h2' })).outcome).toBe('reserved');
    });

    it('concurrent reservations of one number give one row', async () => {
      const c = await newCompany();
      const input = { companyId: c.id, kind: 'invoice' as const, prefix: '', number: 7, requestHash: 'h' };
      const all = await Promise.all(Array.from({ length: 8 }, () => s.reserveDocument(input)));
      expect(all.filter((r) => r.outcome === 'reserved')).toHaveLength(1);
      expect(all.filter((r) => r.outcome === 'same')).toHaveLength(7);
    });

    it('updates, finds by number and key, and releases only unsent documents', async () => {
      const c = await newCompany();
      const r = await s.reserveDocument({ companyId: c.id, kind: 'pos', prefix: 'POS', number: 1, requestHash: 'h' });
      const zip = new Uint8Array([80, 75, 3, 4]);
      const d = await s.updateDocument(r.document.id, {
        state: 'accepted',
        documentKey: 'a'.repeat(96),
        signedXml: '<Invoice/>',
        zip,
        zipName: 'z.zip',
        dianAnswer: { isValid: true },
        applicationResponse: '<ApplicationResponse/>',
        attachedDocument: '<AttachedDocument/>',
        response: { status: 200, body: { status: 'success' } },
      });
      expect(d).toMatchObject({ state: 'accepted', zipName: 'z.zip', dianAnswer: { isValid: true }, response: { status: 200 } });
      expect([...(d.zip ?? [])]).toEqual([...zip]);
      expect((await s.getDocumentByNumber(c.id, 'POS', 1))?.id).toBe(d.id);
      expect((await s.getDocumentByKey(c.id, 'a'.repeat(96)))?.id).toBe(d.id);
      const other = await newCompany();
      expect(await s.getDocumentByKey(other.id, 'a'.repeat(96))).toBeNull();
      await s.releaseDocument(d.id);
      expect(await s.getDocumentByNumber(c.id, 'POS', 1)).not.toBeNull();
      const r2 = await s.reserveDocument({ companyId: c.id, kind: 'pos', prefix: 'POS', number: 2, requestHash: 'h' });
      await s.releaseDocument(r2.document.id);
      expect(await s.getDocumentByNumber(c.id, 'POS', 2)).toBeNull();
    });
  });
}

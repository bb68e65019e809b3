/**
 * The Storage conformance suite: every adapter must pass it unchanged. `make` returns a fresh, migrated
 * storage.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EcfType } from '../../../../src/ecf/spec/model.js';
import { StorageConflictError } from '../../../../src/ecf/server/storage/kysely.js';
import type { DocumentRecord, Issuer, NewDocument, NewReceivedDocument, Storage } from '../../../../src/ecf/server/storage/types.js';

export interface StorageFixture {
  storage: Storage;
  cleanup(): Promise<void>;
}

const TODAY = '2026-04-01';

export function newDoc(overrides: Partial<NewDocument> = {}): NewDocument {
  return {
    source: 'json',
    unsignedXml: '<ECF><Encabezado/></ECF>',
    summary: false,
    issuedAt: '01-04-2026',
    totalAmount: '118.00',
    totalItbis: '18.00',
    ...overrides,
  };
}

export function newReceived(overrides: Partial<NewReceivedDocument> = {}): NewReceivedDocument {
  return {
    emisorRnc: '132000001',
    emisorName: 'Proveedor Ejemplo SRL',
    encf: 'E310000000001',
    tipo: '31',
    fechaEmision: '01-04-2026',
    montoTotal: '1180.00',
    totalItbis: '180.00',
    xml: '<ECF><Encabezado/></ECF>',
    arecfXml: '<ARECF><DetalleAcusedeRecibo/></ARECF>',
    estado: 0,
    motivo: null,
    receivedAt: 1_775_000_000_000,
    ...overrides,
  };
}

/** Consecutive of an e-NCF. */
function consecutive(encf: string): number {
  return Number(encf.slice(3));
}

export function runStorageContract(name: string, make: () => Promise<StorageFixture>): void {
  describe(`Storage contract: ${name}`, () => {
    // One storage for the suite (tests create their own issuers); the lease tests, where claimDue sees
    // every issuer's documents, get a fresh one each.
    let shared: StorageFixture;
    let s: Storage;
    let rncCounter = 0;

    beforeAll(async () => {
      shared = await make();
      s = shared.storage;
    });
    afterAll(async () => {
      await shared.cleanup();
    });

    async function issuer(signingMode: 'own' | 'provider' = 'provider'): Promise<Issuer> {
      rncCounter++;
      const rnc = String(100000000 + rncCounter);
      return s.createIssuer({
        rnc,
        name: `Emisor ${rncCounter}`,
        profile: { rnc, razon_social: `Emisor ${rncCounter} SRL`, direccion: 'Calle 1' },
        signingMode,
      });
    }

    async function reserve(issuerId: number, tipo: EcfType = '31', today = TODAY, doc: Partial<NewDocument> = {}): Promise<DocumentRecord | null> {
      return s.reserveAndInsert(issuerId, tipo, today, () => newDoc(doc));
    }

    async function reserveEncf(issuerId: number, tipo: EcfType = '31', today = TODAY): Promise<string | null> {
      return (await reserve(issuerId, tipo, today))?.encf ?? null;
    }

    describe('migrations', () => {
      it('migrate() again (also concurrently) keeps the data and the schema working', async () => {
        const i = await issuer();
        await s.addSequence(i.id, { tipo: '31', from: 1, to: 10, expiresOn: null });
        await reserve(i.id);
        await s.migrate();
        await Promise.all([s.migrate(), s.migrate()]);
        expect((await s.getIssuer(i.id))?.rnc).toBe(i.rnc);
        expect(await reserveEncf(i.id)).toBe('E310000000002');
      });
    });

    describe('issuers', () => {
      it('creates, reads by id and RNC, lists and updates', async () => {
        const a = await issuer('own');
        const b = await issuer();
        expect(a.id).not.toBe(b.id);
        expect(a).toMatchObject({ signingMode: 'own', certificate: null, certificateInfo: null });
        expect(a.profile).toEqual({ rnc: a.rnc, razon_social: a.name + ' SRL', direccion: 'Calle 1' });
        expect(a.createdAt).toBeGreaterThan(0);
        expect(await s.getIssuer(a.id)).toEqual(a);
        expect(await s.getIssuerByRnc(b.rnc)).toEqual(b);
        expect(await s.getIssuer(999_999)).toBeNull();
        expect(await s.getIssuerByRnc('000000000')).toBeNull();
        const listed = (await s.listIssuers()).map((x) => x.id);
        expect(listed.filter((id) => id === a.id || id === b.id)).toEqual([a.id, b.id]);

        const cert = new Uint8Array([0, 1, 2, 250, 255, 7]);
        const updated = await s.updateIssuer(a.id, {
          name: 'Nuevo',
          profile: { rnc: a.rnc, razon_social: 'Nuevo SRL', direccion: 'Av. 2' },
          signingMode: 'provider',
          certificate: cert,
          certificateInfo: { subject: 'CN=x', notAfter: 1_900_000_000_000 },
        });
        expect(updated).toMatchObject({
          id: a.id,
          rnc: a.rnc,
          name: 'Nuevo',
          signingMode: 'provider',
          certificateInfo: { subject: 'CN=x', notAfter: 1_900_000_000_000 },
        });
        expect(updated.profile.razon_social).toBe('Nuevo SRL');
        expect(updated.certificate).toBeInstanceOf(Uint8Array);
        expect(Array.from(updated.certificate!)).toEqual([0, 1, 2, 250, 255, 7]);
        expect(await s.getIssuer(a.id)).toEqual(updated);

        const cleared = await s.updateIssuer(a.id, { certificate: null, certificateInfo: null });
        expect(cleared).toMatchObject({ name: 'Nuevo', certificate: null, certificateInfo: null });
      });

      it('refuses a second issuer with the same RNC and an update of a missing issuer', async () => {
        const a = await issuer();
        await expect(s.createIssuer({ rnc: a.rnc, name: 'Otro', profile: {}, signingMode: 'provider' })).rejects.toBeInstanceOf(StorageConflictError);
        await expect(s.updateIssuer(999_999, { name: 'x' })).rejects.toThrow(/not found/);
        expect((await s.listIssuers()).filter((x) => x.rnc === a.rnc)).toEqual([a]);
      });
    });

    describe('tokens', () => {
      it('finds live tokens with their issuer, never revoked ones', async () => {
        const a = await issuer();
        const b = await issuer();
        const t1 = await s.addToken(a.id, 'a'.repeat(64), 'ERP');
        const t2 = await s.addToken(a.id, 'b'.repeat(64));
        const t3 = await s.addToken(b.id, 'c'.repeat(64), null);
        expect(t1).toMatchObject({ issuerId: a.id, hash: 'a'.repeat(64), label: 'ERP', revokedAt: null });
        expect(t2.label).toBeNull();

        const found = await s.findToken('a'.repeat(64));
        expect(found?.token).toEqual(t1);
        expect(found?.issuer).toEqual(a);
        expect((await s.findToken('c'.repeat(64)))?.issuer.id).toBe(b.id);
        expect(await s.findToken('d'.repeat(64))).toBeNull();

        expect(await s.revokeToken(t1.id)).toBe(true);
        expect(await s.findToken('a'.repeat(64))).toBeNull();
        expect(await s.revokeToken(t1.id)).toBe(false);
        expect(await s.revokeToken(999_999)).toBe(false);
        expect((await s.findToken('b'.repeat(64)))?.token.id).toBe(t2.id);

        const list = await s.listTokens(a.id);
        expect(list.map((t) => t.id)).toEqual([t1.id, t2.id]);
        expect(list[0]!.revokedAt).toBeGreaterThan(0);
        expect(list[1]!.revokedAt).toBeNull();
        expect((await s.listTokens(b.id)).map((t) => t.id)).toEqual([t3.id]);
      });

      it('refuses a duplicate token hash', async () => {
        const a = await issuer();
        await s.addToken(a.id, 'e'.repeat(64));
        await expect(s.addToken(a.id, 'e'.repeat(64))).rejects.toBeInstanceOf(StorageConflictError);
      });
    });

    describe('sequences', () => {
      it('adds with next = from, lists, toggles active, and refuses bad bounds', async () => {
        const a = await issuer();
        const s31 = await s.addSequence(a.id, { tipo: '31', from: 5, to: 9_999_999_999, expiresOn: '2027-12-31' });
        const s32 = await s.addSequence(a.id, { tipo: '32', from: 1, to: 100, expiresOn: null, active: false });
        expect(s31).toMatchObject({ issuerId: a.id, tipo: '31', from: 5, to: 9_999_999_999, next: 5, expiresOn: '2027-12-31', active: true });
        expect(s32).toMatchObject({ tipo: '32', next: 1, expiresOn: null, active: false });
        expect(await s.listSequences(a.id)).toEqual([s31, s32]);
        await s.setSequenceActive(s32.id, true);
        expect((await s.listSequences(a.id))[1]!.active).toBe(true);
        await expect(s.addSequence(a.id, { tipo: '31', from: 0, to: 5, expiresOn: null })).rejects.toThrow();
        await expect(s.addSequence(a.id, { tipo: '31', from: 9, to: 5, expiresOn: null })).rejects.toThrow();
        await expect(s.addSequence(a.id, { tipo: '31', from: 1, to: 10_000_000_000, expiresOn: null })).rejects.toThrow();
        expect(await s.listSequences(a.id)).toHaveLength(2);
      });
    });

    describe('reserveAndInsert', () => {
      it('numbers from the lowest sequence first, pads e-NCF to 10 digits and returns null when exhausted', async () => {
        const a = await issuer();
        const high = await s.addSequence(a.id, { tipo: '31', from: 100, to: 101, expiresOn: '2026-12-31' });
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 2, expiresOn: null });
        const seen: { encf: string; seqId: number; next: number; expiresOn: string | null }[] = [];
        for (let k = 0; k < 4; k++) {
          const d = await s.reserveAndInsert(a.id, '31', TODAY, (encf, seq) => {
            seen.push({ encf, seqId: seq.id, next: seq.next, expiresOn: seq.expiresOn });
            return newDoc();
          });
          expect(d).not.toBeNull();
        }
        expect(seen.map((x) => x.encf)).toEqual(['E310000000001', 'E310000000002', 'E310000000100', 'E310000000101']);
        expect(seen[2]).toMatchObject({ seqId: high.id, next: 101, expiresOn: '2026-12-31' });
        expect(await reserve(a.id)).toBeNull();
        expect((await s.listSequences(a.id)).map((x) => x.next)).toEqual([3, 102]);
      });

      it('inserts the document made for the number, received and due', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '32', from: 9_999_999_998, to: 9_999_999_999, expiresOn: null });
        const before = Date.now();
        const d = await s.reserveAndInsert(a.id, '32', TODAY, (encf) =>
          newDoc({ unsignedXml: `<ECF>${encf}</ECF>`, summary: true, totalAmount: '250000.00', issuedAt: '15-03-2026' }),
        );
        expect(d).toMatchObject({
          issuerId: a.id,
          tipo: '32',
          encf: 'E329999999998',
          status: 'received',
          source: 'json',
          unsignedXml: '<ECF>E329999999998</ECF>',
          summary: true,
          signedXml: null,
          rfceXml: null,
          securityCode: null,
          trackId: null,
          issuedAt: '15-03-2026',
          signedAt: null,
          totalAmount: '250000.00',
          totalItbis: '18.00',
          sequenceReusable: null,
          errors: null,
          authorityState: null,
          transmission: 'pending',
          sendAttempts: 0,
          attempts: 0,
          leaseOwner: null,
          leaseUntil: null,
        });
        expect(d!.nextAttemptAt).toBeGreaterThanOrEqual(before);
        expect(await s.getDocument(d!.id)).toEqual(d);
        expect(await s.getDocumentByEncf(a.id, 'E329999999998')).toEqual(d);
        const later = await s.reserveAndInsert(a.id, '32', TODAY, () => newDoc({ nextAttemptAt: 42 }));
        expect(later).toMatchObject({ encf: 'E329999999999', nextAttemptAt: 42 });
      });

      it('keeps types and issuers apart', async () => {
        const a = await issuer();
        const b = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 10, expiresOn: null });
        await s.addSequence(a.id, { tipo: '34', from: 1, to: 10, expiresOn: null });
        await s.addSequence(b.id, { tipo: '31', from: 1, to: 10, expiresOn: null });
        expect(await reserveEncf(a.id, '31')).toBe('E310000000001');
        expect(await reserveEncf(a.id, '31')).toBe('E310000000002');
        expect(await reserveEncf(a.id, '34')).toBe('E340000000001');
        expect(await reserveEncf(b.id, '31')).toBe('E310000000001');
        expect(await reserveEncf(b.id, '33')).toBeNull();
        expect(await s.getDocumentByEncf(b.id, 'E310000000002')).toBeNull();
        expect((await s.getDocumentByEncf(a.id, 'E310000000002'))?.issuerId).toBe(a.id);
      });

      it('skips expired and inactive sequences; the expiry day itself is still valid', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 10, expiresOn: '2026-03-31' });
        const inactive = await s.addSequence(a.id, { tipo: '31', from: 11, to: 20, expiresOn: null, active: false });
        await s.addSequence(a.id, { tipo: '31', from: 21, to: 21, expiresOn: '2026-04-01' });
        expect(await reserveEncf(a.id, '31', '2026-03-31')).toBe('E310000000001');
        expect(await reserveEncf(a.id, '31', TODAY)).toBe('E310000000021');
        expect(await reserveEncf(a.id, '31', TODAY)).toBeNull();
        await s.setSequenceActive(inactive.id, true);
        expect(await reserveEncf(a.id, '31', TODAY)).toBe('E310000000011');
        await s.setSequenceActive(inactive.id, false);
        expect(await reserveEncf(a.id, '31', TODAY)).toBeNull();
        expect(await reserveEncf(a.id, '31', '2026-04-02')).toBeNull();
      });

      it('skips consecutives a passthrough took ahead of the pointer', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 10, expiresOn: null });
        for (const n of [2, 3, 5]) {
          const r = await s.insertWithEncf(a.id, '31', `E31000000000${n}`, TODAY, newDoc({ source: 'xml' }));
          expect('refused' in r).toBe(false);
        }
        const got = [];
        for (let k = 0; k < 7; k++) got.push(await reserveEncf(a.id));
        expect(got).toEqual(['E310000000001', 'E310000000004', 'E310000000006', 'E310000000007', 'E310000000008', 'E310000000009', 'E310000000010']);
        expect(await reserveEncf(a.id)).toBeNull();
      });

      it('skips long runs of used numbers (more than one read-ahead chunk)', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '41', from: 1, to: 1000, expiresOn: null });
        // 270 used numbers: more than the adapter's read-ahead chunk of 256.
        for (let n = 2; n <= 271; n++) {
          const r = await s.insertWithEncf(a.id, '41', `E41${String(n).padStart(10, '0')}`, TODAY, newDoc({ source: 'xml' }));
          expect('refused' in r).toBe(false);
        }
        expect(await reserveEncf(a.id, '41')).toBe('E410000000001');
        expect(await reserveEncf(a.id, '41')).toBe('E410000000272');
      });

      it('consumes nothing when make() throws or rejects, and rethrows', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 10, expiresOn: null });
        await expect(
          s.reserveAndInsert(a.id, '31', TODAY, () => {
            throw new Error('validación falló');
          }),
        ).rejects.toThrow('validación falló');
        await expect(
          s.reserveAndInsert(a.id, '31', TODAY, async () => {
            await new Promise((r) => setTimeout(r, 5));
            throw new TypeError('async falló');
          }),
        ).rejects.toThrow(TypeError);
        expect((await s.listSequences(a.id))[0]!.next).toBe(1);
        expect(await s.listDocuments(a.id, { limit: 10 })).toEqual([]);
        expect(await reserveEncf(a.id)).toBe('E310000000001');
      });

      it('hands 300 concurrent callers distinct consecutive numbers with no gaps', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 1000, expiresOn: null });
        const calls = Array.from({ length: 300 }, (_, k) =>
          s.reserveAndInsert(a.id, '31', TODAY, async (encf) => {
            // Yield inside the transaction so callers would interleave if the adapter let them.
            if (k % 3 === 0) await new Promise((r) => setTimeout(r, 0));
            else await Promise.resolve();
            return newDoc({ unsignedXml: `<ECF>${encf}</ECF>` });
          }),
        );
        const docs = await Promise.all(calls);
        const numbers = docs.map((d) => consecutive(d!.encf)).sort((x, y) => x - y);
        expect(numbers).toEqual(Array.from({ length: 300 }, (_, k) => k + 1));
        for (const d of docs) expect(d!.unsignedXml).toBe(`<ECF>${d!.encf}</ECF>`);
        expect((await s.listSequences(a.id))[0]!.next).toBe(301);
      });
    });

    describe('insertWithEncf', () => {
      it('inserts a valid explicit e-NCF and refuses each failing check with its code', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 100, expiresOn: '2026-12-31' });
        await s.addSequence(a.id, { tipo: '31', from: 201, to: 300, expiresOn: '2026-01-31' });
        const off = await s.addSequence(a.id, { tipo: '31', from: 301, to: 400, expiresOn: null });
        await s.setSequenceActive(off.id, false);

        const ok = await s.insertWithEncf(a.id, '31', 'E310000000050', TODAY, newDoc({ source: 'xml', unsignedXml: '<ECF>50</ECF>' }));
        expect(ok).toMatchObject({ encf: 'E310000000050', tipo: '31', source: 'xml', status: 'received', unsignedXml: '<ECF>50</ECF>' });

        expect(await s.insertWithEncf(a.id, '31', 'E310000000050', TODAY, newDoc())).toEqual({ refused: 'duplicate' });
        expect(await s.insertWithEncf(a.id, '33', 'E330000000001', TODAY, newDoc())).toEqual({ refused: 'no_sequence' });
        expect(await s.insertWithEncf(a.id, '31', 'E310000000150', TODAY, newDoc())).toEqual({ refused: 'outside_sequence' });
        expect(await s.insertWithEncf(a.id, '31', 'E310000000250', TODAY, newDoc())).toEqual({ refused: 'expired' });
        expect(await s.insertWithEncf(a.id, '31', 'E310000000350', TODAY, newDoc())).toEqual({ refused: 'inactive' });
        expect(await s.insertWithEncf(a.id, '31', 'E32000000001', TODAY, newDoc())).toEqual({ refused: 'outside_sequence' });
        expect(await s.insertWithEncf(a.id, '31', 'E320000000001', TODAY, newDoc())).toEqual({ refused: 'outside_sequence' });

        await s.createVoidBatch(a.id, 'L1', [{ tipo: '31', from: 60, to: 61 }]);
        expect(await s.insertWithEncf(a.id, '31', 'E310000000060', TODAY, newDoc())).toEqual({ refused: 'voided' });
        // Refusals consumed nothing: only the one accepted document exists.
        expect((await s.listDocuments(a.id, { limit: 50 })).map((d) => d.encf)).toEqual(['E310000000050']);
        // Another issuer's sequences are not ours.
        const b = await issuer();
        expect(await s.insertWithEncf(b.id, '31', 'E310000000051', TODAY, newDoc())).toEqual({ refused: 'no_sequence' });
      });
    });

    describe('void ranges', () => {
      it('pending ranges withhold numbers; a rejection gives them back', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 20, expiresOn: null });
        const batch = await s.createVoidBatch(a.id, 'L-1', [
          { tipo: '31', from: 1, to: 3 },
          { tipo: '31', from: 6, to: 8 },
        ]);
        expect(batch).toMatchObject({
          issuerId: a.id,
          lote: 'L-1',
          accepted: null,
          messages: [],
          ranges: [
            { tipo: '31', from: 1, to: 3 },
            { tipo: '31', from: 6, to: 8 },
          ],
        });
        expect([await reserveEncf(a.id), await reserveEncf(a.id), await reserveEncf(a.id)]).toEqual(['E310000000004', 'E310000000005', 'E310000000009']);
        const settled = await s.settleVoidBatch(batch.id, false, ['Rango no autorizado']);
        expect(settled).toMatchObject({ id: batch.id, accepted: false, messages: ['Rango no autorizado'] });
        // Pointer is at 10; numbers below it that came back are not revisited by reservation, but the
        // pointer was never moved past them, and an explicit e-NCF can use them again.
        expect(await s.insertWithEncf(a.id, '31', 'E310000000002', TODAY, newDoc())).toMatchObject({ encf: 'E310000000002' });
        expect(await s.insertWithEncf(a.id, '31', 'E310000000007', TODAY, newDoc())).toMatchObject({ encf: 'E310000000007' });
      });

      it('a rejected range ahead of the pointer is handed out again', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 20, expiresOn: null });
        const batch = await s.createVoidBatch(a.id, 'L-2', [{ tipo: '31', from: 2, to: 4 }]);
        expect(await reserveEncf(a.id)).toBe('E310000000001');
        await s.settleVoidBatch(batch.id, false, []);
        expect(await reserveEncf(a.id)).toBe('E310000000002');
        expect(await reserveEncf(a.id)).toBe('E310000000003');
      });

      it('an accepted range moves a pointer inside it past it and is skipped when ahead', async () => {
        const a = await issuer();
        const seq = await s.addSequence(a.id, { tipo: '31', from: 1, to: 100, expiresOn: null });
        const other = await s.addSequence(a.id, { tipo: '32', from: 1, to: 100, expiresOn: null });
        const b1 = await s.createVoidBatch(a.id, 'L-3', [
          { tipo: '31', from: 1, to: 10 },
          { tipo: '31', from: 11, to: 12 },
          { tipo: '31', from: 30, to: 40 },
        ]);
        await s.settleVoidBatch(b1.id, true, ['Aceptado']);
        const seqs = await s.listSequences(a.id);
        expect(seqs.find((x) => x.id === seq.id)!.next).toBe(13);
        expect(seqs.find((x) => x.id === other.id)!.next).toBe(1);
        expect(await s.insertWithEncf(a.id, '31', 'E310000000005', TODAY, newDoc())).toEqual({ refused: 'voided' });
        expect(await s.insertWithEncf(a.id, '31', 'E310000000035', TODAY, newDoc())).toEqual({ refused: 'voided' });
        const got: (string | null)[] = [];
        for (let k = 0; k < 18; k++) got.push(await reserveEncf(a.id));
        expect(got.slice(0, 2)).toEqual(['E310000000013', 'E310000000014']);
        expect(got[16]).toBe('E310000000029');
        expect(got[17]).toBe('E310000000041');
        expect(await reserveEncf(a.id, '32')).toBe('E320000000001');
      });

      it('lists batches newest first with their ranges, and refuses settling an unknown batch', async () => {
        const a = await issuer();
        const b = await issuer();
        const ranges = Array.from({ length: 1200 }, (_, k) => ({ tipo: '31' as EcfType, from: k * 2 + 1, to: k * 2 + 1 }));
        const x = await s.createVoidBatch(a.id, 'A', ranges);
        const y = await s.createVoidBatch(a.id, 'B', [{ tipo: '34', from: 1, to: 9 }]);
        await s.createVoidBatch(b.id, 'C', [{ tipo: '31', from: 1, to: 1 }]);
        await s.settleVoidBatch(x.id, true, ['ok', 'dos']);
        const list = await s.listVoidBatches(a.id, 200);
        expect(list.map((v) => v.lote)).toEqual(['B', 'A']);
        expect(list[1]!.ranges).toHaveLength(1200);
        expect(list[1]!.ranges[1199]).toEqual({ tipo: '31', from: 2399, to: 2399 });
        expect(list[1]).toMatchObject({ accepted: true, messages: ['ok', 'dos'] });
        expect(list[0]).toMatchObject({ id: y.id, accepted: null, ranges: [{ tipo: '34', from: 1, to: 9 }] });
        expect((await s.listVoidBatches(a.id, 1)).map((v) => v.lote)).toEqual(['B']);
        await expect(s.settleVoidBatch(999_999, true, [])).rejects.toThrow(/not found/);
      });
    });

    describe('findIssuedInRanges', () => {
      it("returns the issuer's e-NCFs inside the ranges, per type, up to the limit", async () => {
        const a = await issuer();
        const b = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 10_000, expiresOn: null });
        await s.addSequence(a.id, { tipo: '34', from: 1, to: 100, expiresOn: null });
        await s.addSequence(b.id, { tipo: '31', from: 1, to: 100, expiresOn: null });
        for (let k = 0; k < 5; k++) await reserve(a.id, '31');
        await s.insertWithEncf(a.id, '31', 'E310000005000', TODAY, newDoc({ source: 'xml' }));
        await reserve(a.id, '34');
        for (let k = 0; k < 20; k++) await reserve(b.id, '31');
        const ranges = (tipo: EcfType, ...pairs: [number, number][]) => pairs.map(([from, to]) => ({ tipo, from, to }));
        expect(await s.findIssuedInRanges(a.id, ranges('31', [4, 10], [2, 2], [11, 4999]), 100)).toEqual(['E310000000002', 'E310000000004', 'E310000000005']);
        expect(await s.findIssuedInRanges(a.id, [...ranges('34', [1, 1]), ...ranges('31', [5000, 9000])], 100)).toEqual(['E310000005000', 'E340000000001']);
        expect(await s.findIssuedInRanges(a.id, ranges('31', [6, 4999], [5001, 10_000]), 100)).toEqual([]);
        expect(await s.findIssuedInRanges(a.id, ranges('31', [1, 10_000]), 2)).toEqual(['E310000000001', 'E310000000002']);
        // Many single-number ranges (more than one statement's worth).
        const singles = Array.from({ length: 1000 }, (_, k) => ({ tipo: '31' as EcfType, from: 10 * k + 3, to: 10 * k + 3 }));
        expect(await s.findIssuedInRanges(a.id, singles, 100)).toEqual(['E310000000003']);
        expect(await s.findIssuedInRanges(a.id, [], 100)).toEqual([]);
      });
    });

    describe('worker leases', () => {
      let fresh: StorageFixture;
      beforeEach(async () => {
        fresh = await make();
        s = fresh.storage;
      });
      afterEach(async () => {
        await fresh.cleanup();
        s = shared.storage;
      });

      async function dueDocs(count: number, nextAttemptAt: (k: number) => number | undefined) {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 10_000, expiresOn: null });
        const docs: DocumentRecord[] = [];
        for (let k = 0; k < count; k++) docs.push((await s.reserveAndInsert(a.id, '31', TODAY, () => newDoc({ nextAttemptAt: nextAttemptAt(k) })))!);
        return { a, docs };
      }

      it('claims due documents oldest first, up to the limit, and not those leased or not yet due', async () => {
        const { docs } = await dueDocs(6, (k) => [500, 100, 300, 5_000, 200, 400][k]);
        await s.updateDocument(docs[5]!.id, { nextAttemptAt: null });
        const first = await s.claimDue(1000, 'w1', 60_000, 3);
        expect(first.map((d) => d.nextAttemptAt)).toEqual([100, 200, 300]);
        for (const d of first) expect(d).toMatchObject({ leaseOwner: 'w1', leaseUntil: 61_000 });
        const second = await s.claimDue(1000, 'w2', 60_000, 10);
        expect(second.map((d) => d.id)).toEqual([docs[0]!.id]);
        expect(await s.claimDue(4_000, 'w3', 60_000, 10)).toEqual([]);
        // The not-yet-due one is claimable once due.
        expect((await s.claimDue(5_000, 'w4', 60_000, 10)).map((d) => d.id)).toEqual([docs[3]!.id]);
        // Expired leases (until ≤ now) are taken over; the one leased until 65,000 is not.
        const later = await s.claimDue(61_000, 'w5', 1_000, 10);
        expect(later.map((d) => d.id).sort()).toEqual([docs[0]!.id, docs[1]!.id, docs[2]!.id, docs[4]!.id].sort());
        for (const d of later) expect(d.leaseOwner).toBe('w5');
        expect(await s.claimDue(62_000, 'w6', 1_000, 0)).toEqual([]);
      });

      it('never hands one document to two concurrent claimers', async () => {
        const { docs } = await dueDocs(60, () => 1);
        const claims = await Promise.all(Array.from({ length: 12 }, (_, k) => s.claimDue(10, `w${k}`, 60_000, 7)));
        const ids = claims.flat().map((d) => d.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(60);
        expect(new Set(ids)).toEqual(new Set(docs.map((d) => d.id)));
        claims.forEach((list, k) => list.forEach((d) => expect(d.leaseOwner).toBe(`w${k}`)));
        for (const d of docs) {
          const owner = claims.findIndex((list) => list.some((x) => x.id === d.id));
          expect((await s.getDocument(d.id))!.leaseOwner).toBe(`w${owner}`);
        }
      });

      it('applies a lease-guarded update only while the owner still holds the lease', async () => {
        const { docs } = await dueDocs(1, () => 1);
        const id = docs[0]!.id;
        const [claimed] = await s.claimDue(10, 'w1', 100, 1);
        const upd = await s.updateDocument(
          id,
          {
            status: 'in_process_authority',
            trackId: 'trk-1',
            transmission: 'sent',
            sendAttempts: 1,
            signedXml: '<ECF>firmado</ECF>',
            securityCode: 'AbC123',
            signedAt: '01-04-2026 10:00:00',
            authorityState: 'En Proceso',
            nextAttemptAt: 500,
          },
          'w1',
        );
        expect(upd).toMatchObject({
          id,
          status: 'in_process_authority',
          trackId: 'trk-1',
          transmission: 'sent',
          sendAttempts: 1,
          leaseOwner: 'w1',
          nextAttemptAt: 500,
          signedXml: '<ECF>firmado</ECF>',
          securityCode: 'AbC123',
          signedAt: '01-04-2026 10:00:00',
          authorityState: 'En Proceso',
        });
        expect(upd!.updatedAt).toBeGreaterThanOrEqual(claimed!.updatedAt);
        // w1's lease expires and w2 takes it over: w1 can no longer write.
        expect((await s.claimDue(600, 'w2', 100, 1)).map((d) => d.id)).toEqual([id]);
        expect(await s.updateDocument(id, { status: 'system_error', errors: ['perdido'] }, 'w1')).toBeNull();
        expect(await s.getDocument(id)).toMatchObject({ status: 'in_process_authority', errors: null, leaseOwner: 'w2' });
        const done = await s.updateDocument(
          id,
          {
            status: 'rejected_authority',
            errors: ['Monto inválido', 'Otro'],
            sequenceReusable: false,
            attempts: 3,
            nextAttemptAt: null,
            leaseOwner: null,
            leaseUntil: null,
          },
          'w2',
        );
        expect(done).toMatchObject({
          status: 'rejected_authority',
          errors: ['Monto inválido', 'Otro'],
          sequenceReusable: false,
          attempts: 3,
          nextAttemptAt: null,
          leaseOwner: null,
          leaseUntil: null,
          trackId: 'trk-1',
        });
        // Unguarded updates always apply; null clears, undefined keeps.
        const free = await s.updateDocument(id, { sequenceReusable: true, errors: null, rfceXml: '<RFCE/>' });
        expect(free).toMatchObject({ sequenceReusable: true, errors: null, rfceXml: '<RFCE/>', status: 'rejected_authority' });
        expect(await s.updateDocument(999_999, { attempts: 1 })).toBeNull();
        expect(await s.claimDue(10_000, 'w3', 100, 10)).toEqual([]);
      });
    });

    describe('submissions', () => {
      it('records hand-overs per document in order', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '32', from: 1, to: 10, expiresOn: null });
        const d1 = (await reserve(a.id, '32'))!;
        const d2 = (await reserve(a.id, '32'))!;
        const x = await s.addSubmission(d1.id, 'ecf', 'trk-a', null);
        const y = await s.addSubmission(d1.id, 'rfce', null, 'Aceptado');
        await s.addSubmission(d2.id, 'ecf', 'trk-z', 'En Proceso');
        expect(x).toMatchObject({ documentId: d1.id, kind: 'ecf', trackId: 'trk-a', state: null });
        expect(x.at).toBeGreaterThan(0);
        expect(await s.listSubmissions(d1.id)).toEqual([x, y]);
        expect((await s.listSubmissions(d2.id)).map((r) => r.trackId)).toEqual(['trk-z']);
        expect(await s.listSubmissions(999_999)).toEqual([]);
      });
    });

    describe('listDocuments', () => {
      it('filters by status, type and issue date, newest first, with cursor pagination', async () => {
        const a = await issuer();
        const b = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 100, expiresOn: null });
        await s.addSequence(a.id, { tipo: '32', from: 1, to: 100, expiresOn: null });
        await s.addSequence(b.id, { tipo: '31', from: 1, to: 100, expiresOn: null });
        const dates = ['30-03-2026', '31-03-2026', '01-04-2026', '02-04-2026'];
        const all: DocumentRecord[] = [];
        for (let k = 0; k < 12; k++) all.push((await reserve(a.id, k % 3 === 0 ? '32' : '31', TODAY, { issuedAt: dates[k % 4] }))!);
        await reserve(b.id, '31');
        for (const d of all.filter((_, k) => k % 2 === 0)) await s.updateDocument(d.id, { status: 'accepted_authority' });

        const ids = (ds: DocumentRecord[]) => ds.map((d) => d.id);
        const newestFirst = ids(all).reverse();
        expect(ids(await s.listDocuments(a.id, { limit: 100 }))).toEqual(newestFirst);
        expect(ids(await s.listDocuments(a.id, { limit: 100, status: 'accepted_authority' }))).toEqual(ids(all.filter((_, k) => k % 2 === 0)).reverse());
        expect(ids(await s.listDocuments(a.id, { limit: 100, tipo: '32' }))).toEqual(ids(all.filter((d) => d.tipo === '32')).reverse());
        expect(ids(await s.listDocuments(a.id, { limit: 100, issuedFrom: '2026-03-31', issuedTo: '2026-04-01' }))).toEqual(
          ids(all.filter((d) => d.issuedAt === '31-03-2026' || d.issuedAt === '01-04-2026')).reverse(),
        );
        expect(ids(await s.listDocuments(a.id, { limit: 100, issuedFrom: '2026-04-02' }))).toEqual(
          ids(all.filter((d) => d.issuedAt === '02-04-2026')).reverse(),
        );
        expect(ids(await s.listDocuments(a.id, { limit: 100, tipo: '31', status: 'received', issuedTo: '2026-03-31' }))).toEqual(
          ids(all.filter((d, k) => d.tipo === '31' && k % 2 === 1 && ['30-03-2026', '31-03-2026'].includes(d.issuedAt))).reverse(),
        );

        const pages: number[][] = [];
        let cursor: number | undefined;
        for (;;) {
          const page = await s.listDocuments(a.id, { limit: 5, cursor });
          if (page.length === 0) break;
          pages.push(ids(page));
          cursor = page[page.length - 1]!.id;
        }
        expect(pages.map((p) => p.length)).toEqual([5, 5, 2]);
        expect(pages.flat()).toEqual(newestFirst);
        expect(await s.listDocuments(a.id, { limit: 0 })).toEqual([]);
        expect((await s.listDocuments(b.id, { limit: 100 })).map((d) => d.issuerId)).toEqual([b.id]);
      });
    });

    describe('received documents (inbound)', () => {
      it('records an e-CF once per (issuer, emisor, e-NCF) and reads it back as written', async () => {
        const a = await issuer();
        const b = await issuer();
        const rec = await s.addReceivedDocument(a.id, newReceived({ xml: '<ECF>uno</ECF>', montoTotal: '0.50', totalItbis: null, emisorName: null }));
        expect(rec).toMatchObject({
          issuerId: a.id,
          emisorRnc: '132000001',
          emisorName: null,
          encf: 'E310000000001',
          tipo: '31',
          fechaEmision: '01-04-2026',
          montoTotal: '0.50',
          totalItbis: null,
          xml: '<ECF>uno</ECF>',
          arecfXml: '<ARECF><DetalleAcusedeRecibo/></ARECF>',
          estado: 0,
          motivo: null,
          receivedAt: 1_775_000_000_000,
          approvalEstado: null,
          approvalMotivo: null,
          approvalXml: null,
          approvalSentAt: null,
          approvalOutcome: null,
        });
        // The same e-NCF from the same emisor to the same issuer is a duplicate: nothing recorded.
        expect(await s.addReceivedDocument(a.id, newReceived({ xml: '<ECF>otra vez</ECF>' }))).toBeNull();
        expect((await s.getReceivedDocument(a.id, 'E310000000001', '132000001'))!.xml).toBe('<ECF>uno</ECF>');
        // Another emisor may use the same e-NCF; another issuer may receive the same document.
        const other = await s.addReceivedDocument(a.id, newReceived({ emisorRnc: '101672919', xml: '<ECF>dos</ECF>' }));
        expect(other).not.toBeNull();
        expect(await s.addReceivedDocument(b.id, newReceived())).not.toBeNull();
        expect((await s.getReceivedDocument(a.id, 'E310000000001', '101672919'))!.id).toBe(other!.id);
        // Without the emisor: the most recently received one.
        expect((await s.getReceivedDocument(a.id, 'E310000000001'))!.id).toBe(other!.id);
        expect(await s.getReceivedDocument(a.id, 'E310000000002')).toBeNull();
        expect(await s.getReceivedDocument(a.id, 'E310000000001', '999999999')).toBeNull();
        expect((await s.listReceivedDocuments(a.id, { limit: 10 })).map((d) => d.id)).toEqual([other!.id, rec!.id]);
      });

      it('lets exactly one of concurrent deliveries of the same document in', async () => {
        const a = await issuer();
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, k) => s.addReceivedDocument(a.id, newReceived({ encf: 'E330000000009', tipo: '33', xml: `<ECF>${k}</ECF>` }))),
        );
        expect(results.filter((r) => r !== null)).toHaveLength(1);
        expect(await s.listReceivedDocuments(a.id, { limit: 50 })).toHaveLength(1);
      });

      it('lists newest first with emisor, type, e-NCF and issue-date filters and cursor pagination', async () => {
        const a = await issuer();
        const b = await issuer();
        const dates = ['30-03-2026', '31-03-2026', '01-04-2026', '02-04-2026'];
        const all = [];
        for (let k = 0; k < 10; k++) {
          all.push(
            (await s.addReceivedDocument(
              a.id,
              newReceived({
                emisorRnc: k % 2 ? '132000001' : '101672919',
                tipo: k % 3 === 0 ? '33' : '31',
                encf: `E${k % 3 === 0 ? '33' : '31'}${String(k + 1).padStart(10, '0')}`,
                fechaEmision: dates[k % 4],
              }),
            ))!,
          );
        }
        await s.addReceivedDocument(b.id, newReceived());
        const ids = (ds: { id: number }[]) => ds.map((d) => d.id);
        const newest = ids(all).reverse();
        expect(ids(await s.listReceivedDocuments(a.id, { limit: 100 }))).toEqual(newest);
        expect(ids(await s.listReceivedDocuments(a.id, { limit: 100, emisorRnc: '132000001' }))).toEqual(
          ids(all.filter((d) => d.emisorRnc === '132000001')).reverse(),
        );
        expect(ids(await s.listReceivedDocuments(a.id, { limit: 100, tipo: '33' }))).toEqual(ids(all.filter((d) => d.tipo === '33')).reverse());
        expect(ids(await s.listReceivedDocuments(a.id, { limit: 100, encf: all[4]!.encf }))).toEqual([all[4]!.id]);
        expect(ids(await s.listReceivedDocuments(a.id, { limit: 100, from: '2026-03-31', to: '2026-04-01' }))).toEqual(
          ids(all.filter((d) => d.fechaEmision === '31-03-2026' || d.fechaEmision === '01-04-2026')).reverse(),
        );
        expect(ids(await s.listReceivedDocuments(a.id, { limit: 100, from: '2026-04-02', tipo: '31' }))).toEqual(
          ids(all.filter((d) => d.fechaEmision === '02-04-2026' && d.tipo === '31')).reverse(),
        );
        const pages: number[][] = [];
        let cursor: number | undefined;
        for (;;) {
          const page = await s.listReceivedDocuments(a.id, { limit: 4, cursor });
          if (page.length === 0) break;
          pages.push(ids(page));
          cursor = page[page.length - 1]!.id;
        }
        expect(pages.map((p) => p.length)).toEqual([4, 4, 2]);
        expect(pages.flat()).toEqual(newest);
        expect(await s.listReceivedDocuments(a.id, { limit: 0 })).toEqual([]);
        expect((await s.listReceivedDocuments(b.id, { limit: 100 })).map((d) => d.issuerId)).toEqual([b.id]);
      });

      it('sets the commercial approval later, once when guarded', async () => {
        const a = await issuer();
        const rec = (await s.addReceivedDocument(a.id, newReceived()))!;
        const guarded = await Promise.all(
          Array.from({ length: 8 }, (_, k) =>
            s.updateReceivedApproval(rec.id, { approvalEstado: k % 2 ? 2 : 1, approvalMotivo: k % 2 ? `motivo ${k}` : null }, { onlyIfUnapproved: true }),
          ),
        );
        const winners = guarded.filter((r) => r !== null);
        expect(winners).toHaveLength(1);
        const stored = (await s.getReceivedDocument(a.id, rec.encf, rec.emisorRnc))!;
        expect(stored.approvalEstado).toBe(winners[0]!.approvalEstado);
        expect(await s.updateReceivedApproval(rec.id, { approvalEstado: 1 }, { onlyIfUnapproved: true })).toBeNull();
        const sent = await s.updateReceivedApproval(rec.id, {
          approvalEstado: 2,
          approvalMotivo: 'Mercancía dañada',
          approvalXml: '<ACECF/>',
          approvalSentAt: 1_775_000_100_000,
          approvalOutcome: { receptor: { status: 200 }, autoridad: { estado: 'Aprobación comercial rechazada' } },
        });
        expect(sent).toMatchObject({
          approvalEstado: 2,
          approvalMotivo: 'Mercancía dañada',
          approvalXml: '<ACECF/>',
          approvalSentAt: 1_775_000_100_000,
          approvalOutcome: { receptor: { status: 200 }, autoridad: { estado: 'Aprobación comercial rechazada' } },
          xml: rec.xml,
          estado: 0,
        });
        // undefined keeps, null clears.
        const cleared = await s.updateReceivedApproval(rec.id, { approvalOutcome: null });
        expect(cleared).toMatchObject({ approvalEstado: 2, approvalXml: '<ACECF/>', approvalOutcome: null });
        expect(await s.updateReceivedApproval(999_999, { approvalEstado: 1 })).toBeNull();
      });
    });

    describe('approvals of our documents (inbound)', () => {
      // Issue 13 finding 1 (was: every approval kept): one per (document, buyer), the first one final.
      it("keeps one approval per document and buyer, the first; others buyers' apart, oldest first", async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 10, expiresOn: null });
        const d1 = (await reserve(a.id))!;
        const d2 = (await reserve(a.id))!;
        const x = await s.addDocumentApproval(d1.id, {
          estado: 2,
          motivo: 'Precio incorrecto',
          rncComprador: '131880738',
          acecfXml: '<ACECF>1</ACECF>',
          receivedAt: 10,
          signerFingerprint: 'ab'.repeat(32),
        });
        const again = await s.addDocumentApproval(d1.id, { estado: 1, motivo: null, rncComprador: '131880738', acecfXml: '<ACECF>2</ACECF>', receivedAt: 20 });
        const y = await s.addDocumentApproval(d1.id, { estado: 1, motivo: null, rncComprador: '101672919', acecfXml: '<ACECF>3</ACECF>', receivedAt: 30 });
        expect(x).toMatchObject({
          created: true,
          approval: {
            documentId: d1.id,
            estado: 2,
            motivo: 'Precio incorrecto',
            rncComprador: '131880738',
            acecfXml: '<ACECF>1</ACECF>',
            receivedAt: 10,
            signerFingerprint: 'ab'.repeat(32),
          },
        });
        expect(again).toEqual({ created: false, approval: x.approval });
        expect(y.created).toBe(true);
        expect(await s.getDocumentApprovals(d1.id)).toEqual([x.approval, y.approval]);
        expect(await s.getDocumentApprovals(d2.id)).toEqual([]);
      });

      it('records one approval per document and buyer under concurrent inserts', async () => {
        const a = await issuer();
        await s.addSequence(a.id, { tipo: '31', from: 1, to: 10, expiresOn: null });
        const d = (await reserve(a.id))!;
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, k) =>
            s.addDocumentApproval(d.id, {
              estado: k % 2 ? 1 : 2,
              motivo: k % 2 ? null : 'x',
              rncComprador: '131880738',
              acecfXml: `<ACECF>${k}</ACECF>`,
              receivedAt: k,
            }),
          ),
        );
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(new Set(results.map((r) => r.approval.id)).size).toBe(1);
        expect(await s.getDocumentApprovals(d.id)).toHaveLength(1);
      });

      it("counts a sender's received documents since an instant, across issuers", async () => {
        const a = await issuer();
        const b = await issuer();
        await s.addReceivedDocument(a.id, newReceived({ encf: 'E310000000101', emisorRnc: '132000009', receivedAt: 1_000 }));
        await s.addReceivedDocument(
          b.id,
          newReceived({ encf: 'E310000000102', emisorRnc: '132000009', receivedAt: 2_000, senderFingerprint: 'cd'.repeat(32) }),
        );
        await s.addReceivedDocument(a.id, newReceived({ encf: 'E310000000103', emisorRnc: '132000008', receivedAt: 2_000 }));
        expect(await s.countReceivedFromSender('132000009', 0)).toBe(2);
        expect(await s.countReceivedFromSender('132000009', 1_500)).toBe(1);
        expect(await s.countReceivedFromSender('132000007', 0)).toBe(0);
        expect((await s.getReceivedDocument(b.id, 'E310000000102', '132000009'))!.senderFingerprint).toBe('cd'.repeat(32));
      });
    });

    describe('inbound authentication', () => {
      it("records a stateless seed's use once, per value", async () => {
        const t0 = 2_000_000_000_000;
        const seed = (valor: string, scope = '') => ({ valor, scope, createdAt: t0, expiresAt: t0 + 300_000, usedAt: t0 + 1 });
        expect(await s.useInboundSeed(seed('semilla-a'))).toBe(true);
        expect(await s.useInboundSeed(seed('semilla-a'))).toBe(false);
        // The value is the key: the same value under another scope is a second use too.
        expect(await s.useInboundSeed(seed('semilla-a', '131880738'))).toBe(false);
        expect(await s.useInboundSeed(seed('semilla-b', '131880738'))).toBe(true);
      });

      it('lets exactly one of concurrent users use a seed', async () => {
        const t0 = 2_100_000_000_000;
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, () => s.useInboundSeed({ valor: 'semilla-carrera', scope: '', createdAt: t0, expiresAt: t0 + 300_000, usedAt: t0 + 10 })),
        );
        expect(outcomes.filter((o) => o)).toHaveLength(1);
        expect(outcomes.filter((o) => !o)).toHaveLength(9);
      });

      it('finds live tokens only, and prunes what expired', async () => {
        const t0 = 2_200_000_000_000;
        const live = { hash: 'f'.repeat(64), scope: '', subject: 'CN=Emisor Remoto, serialNumber=132000001', createdAt: t0, expiresAt: t0 + 3_600_000 };
        await s.addInboundToken(live);
        await s.addInboundToken({ hash: '0'.repeat(64), scope: '131880738', subject: 'CN=x', createdAt: t0, expiresAt: t0 + 1_000 });
        expect(await s.useInboundSeed({ valor: 'semilla-vieja', scope: '', createdAt: t0, expiresAt: t0 + 1_000, usedAt: t0 })).toBe(true);
        expect(await s.useInboundSeed({ valor: 'semilla-viva', scope: '', createdAt: t0, expiresAt: t0 + 3_600_000, usedAt: t0 })).toBe(true);
        expect(await s.findInboundToken(live.hash, t0 + 10)).toEqual(live);
        expect((await s.findInboundToken('0'.repeat(64), t0 + 999))?.scope).toBe('131880738');
        expect(await s.findInboundToken('0'.repeat(64), t0 + 1_000)).toBeNull();
        expect(await s.findInboundToken('1'.repeat(64), t0)).toBeNull();
        expect(await s.pruneInboundAuth(t0 + 1_000)).toBeGreaterThanOrEqual(2);
        // The expired seed's record went (its value would count as unused again); the live one's stayed.
        expect(await s.useInboundSeed({ valor: 'semilla-vieja', scope: '', createdAt: t0, expiresAt: t0 + 1_000, usedAt: t0 })).toBe(true);
        expect(await s.useInboundSeed({ valor: 'semilla-viva', scope: '', createdAt: t0, expiresAt: t0 + 3_600_000, usedAt: t0 + 2_000 })).toBe(false);
        expect(await s.findInboundToken(live.hash, t0 + 2_000)).toEqual(live);
        expect(await s.findInboundToken('0'.repeat(64), t0)).toBeNull();
      });
    });
  });
}

/**
 * Checks that every timestamp `storage` writes comes from its injected clock, which must read `at` (a fixed
 * instant far from the machine's time). `storage` is fresh and migrated.
 */
export async function expectClockStamps(storage: Storage, at: number): Promise<void> {
  const issuer = await storage.createIssuer({ rnc: '131880738', name: 'X', profile: {}, signingMode: 'provider' });
  expect(issuer.createdAt).toBe(at);
  const token = await storage.addToken(issuer.id, 'a'.repeat(64));
  expect(token.createdAt).toBe(at);
  expect(await storage.revokeToken(token.id)).toBe(true);
  expect((await storage.listTokens(issuer.id))[0]!.revokedAt).toBe(at);
  expect((await storage.addSequence(issuer.id, { tipo: '31', from: 1, to: 10, expiresOn: null })).createdAt).toBe(at);
  const doc = (await storage.reserveAndInsert(issuer.id, '31', TODAY, () => newDoc()))!;
  expect([doc.createdAt, doc.updatedAt, doc.nextAttemptAt]).toEqual([at, at, at]);
  expect((await storage.updateDocument(doc.id, { attempts: 1 }))!.updatedAt).toBe(at);
  expect((await storage.addSubmission(doc.id, 'ecf', 't-1', null)).at).toBe(at);
  const batch = await storage.createVoidBatch(issuer.id, 'lote-1', [{ tipo: '31', from: 5, to: 6 }]);
  expect([batch.createdAt, batch.updatedAt]).toEqual([at, at]);
  expect((await storage.settleVoidBatch(batch.id, false, [])).updatedAt).toBe(at);
  const received = (await storage.addReceivedDocument(issuer.id, newReceived()))!;
  expect(received.updatedAt).toBe(at);
  expect((await storage.updateReceivedApproval(received.id, { approvalEstado: 1 }))!.updatedAt).toBe(at);
}

/** One conformance suite for every mail outbox adapter (SQLite, PostgreSQL). */
import { describe, expect, it } from 'vitest';
import type { MailStorage, NewMail } from '../../../src/shared/mail/storage/types.js';

export type OpenMailStorage = () => Promise<{ storage: MailStorage; cleanup: () => Promise<void> }>;

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);

function mail(id: string, count = 1, tenantId = 't1', at = T0): NewMail {
  return {
    messageId: id,
    tenantId,
    requestJson: JSON.stringify({ id }),
    headerMessageIds: Array.from({ length: count }, (_, i) => `<${id}.${i}@x.example>`),
    at,
  };
}

export function runMailStorageContract(name: string, open: OpenMailStorage): void {
  describe(`mail outbox contract (${name})`, () => {
    const withStorage = (fn: (s: MailStorage) => Promise<void>) => async () => {
      const { storage, cleanup } = await open();
      try {
        await fn(storage);
      } finally {
        await cleanup();
      }
    };

    it(
      'enqueues one queued row and event per personalization, visible to its tenant only',
      withStorage(async (s) => {
        await s.enqueue(mail('m1', 2));
        const found = await s.events('m1', 't1');
        expect(found).toEqual({
          messages: [
            { personalization: 0, state: 'queued', attempts: 0 },
            { personalization: 1, state: 'queued', attempts: 0 },
          ],
          events: [
            { personalization: 0, type: 'queued', attempt: 0, detail: null, at: T0 },
            { personalization: 1, type: 'queued', attempt: 0, detail: null, at: T0 },
          ],
        });
        expect(await s.events('m1', 't2')).toBeNull();
        expect(await s.events('nope', 't1')).toBeNull();
      }),
    );

    it(
      'claims due rows under a lease: not again while it holds, again once it expired, attempts counted',
      withStorage(async (s) => {
        await s.enqueue(mail('m1', 2));
        const a = await s.claimDue(T0, 'A', 1000, 10);
        expect(a.map((c) => [c.id, c.personalization, c.attempts, c.headerMessageId, c.tenantId, c.requestJson, c.acceptedAt])).toEqual([
          ['m1.0', 0, 1, '<m1.0@x.example>', 't1', '{"id":"m1"}', T0],
          ['m1.1', 1, 1, '<m1.1@x.example>', 't1', '{"id":"m1"}', T0],
        ]);
        expect(await s.claimDue(T0 + 999, 'B', 1000, 10)).toEqual([]);
        const b = await s.claimDue(T0 + 1000, 'B', 1000, 1);
        expect(b.map((c) => [c.id, c.attempts])).toEqual([['m1.0', 2]]);
        // A's lease on m1.0 is gone: its outcome is refused; B's is recorded.
        expect(await s.markSent('m1.0', 'A', T0 + 1001, '250 ok')).toBe(false);
        expect(await s.markSent('m1.0', 'B', T0 + 1002, '250 ok')).toBe(true);
        expect(await s.markSent('m1.0', 'B', T0 + 1003, '250 ok')).toBe(false);
        expect(await s.claimDue(T0 + 10_000, 'C', 1000, 10).then((r) => r.map((c) => c.id))).toEqual(['m1.1']);
      }),
    );

    it(
      'a retry is due at its time; a failure records the reason twice (attempt and final)',
      withStorage(async (s) => {
        await s.enqueue(mail('m1'));
        await s.claimDue(T0, 'A', 60_000, 10);
        expect(await s.markRetry('m1.0', 'A', T0 + 5, T0 + 5000, 'SMTP 451: try later')).toBe(true);
        expect(await s.claimDue(T0 + 4999, 'A', 60_000, 10)).toEqual([]);
        const again = await s.claimDue(T0 + 5000, 'A', 60_000, 10);
        expect(again.map((c) => c.attempts)).toEqual([2]);
        expect(await s.markFailed('m1.0', 'A', T0 + 6000, 'SMTP 550: no such user')).toBe(true);
        expect(await s.claimDue(T0 + 10 ** 9, 'A', 60_000, 10)).toEqual([]);
        const found = await s.events('m1', 't1');
        expect(found!.messages).toEqual([{ personalization: 0, state: 'failed', attempts: 2 }]);
        expect(found!.events.map((e) => [e.type, e.attempt, e.detail, e.at])).toEqual([
          ['queued', 0, null, T0],
          ['attempt_failed', 1, 'SMTP 451: try later', T0 + 5],
          ['attempt_failed', 2, 'SMTP 550: no such user', T0 + 6000],
          ['failed', 2, 'SMTP 550: no such user', T0 + 6000],
        ]);
      }),
    );

    it(
      'claims oldest first and never hands one row to two concurrent claimers',
      withStorage(async (s) => {
        for (let i = 0; i < 12; i++) await s.enqueue(mail(`m${String(i).padStart(2, '0')}`, 1, 't1', T0 + i));
        const [x, y, z] = await Promise.all([s.claimDue(T0 + 100, 'X', 1000, 5), s.claimDue(T0 + 100, 'Y', 1000, 5), s.claimDue(T0 + 100, 'Z', 1000, 5)]);
        const ids = [...x!, ...y!, ...z!].map((c) => c.id);
        expect(ids.length).toBe(12);
        expect(new Set(ids).size).toBe(12);
        const first = (await s.claimDue(T0 + 5000, 'W', 1000, 3)).map((c) => c.id);
        expect(first).toEqual(['m00.0', 'm01.0', 'm02.0']);
      }),
    );

    it(
      'refuses a second mail with the same id (nothing half-written)',
      withStorage(async (s) => {
        await s.enqueue(mail('m1'));
        await expect(s.enqueue(mail('m1', 3))).rejects.toThrow();
        expect((await s.events('m1', 't1'))!.messages).toHaveLength(1);
      }),
    );
  });
}

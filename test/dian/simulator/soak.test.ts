/**
 * A soak of the local DIAN under injected faults (seeded: dropped connections before and after processing, SOAP
 * 500s, HTML 503s, jitter): invoices and their 030 events sent by the DIAN client the way a careful caller does
 * (an unknown outcome is resolved by GetStatus before any resend). Every document ends in a definite state and
 * none is accepted twice. Reduced in `npm test`; 2,000 documents with `ECF_RELIABILITY=full` (`npm run test:reliability`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDianSimulator, type DianSimulator } from '../../../src/dian/simulator/index.js';
import { isTransportError, type DianClient, type DianResponse } from '../../../src/dian/transport/index.js';
import { scale } from '../../ecf/reliability/mode.js';
import { dianXsdDir } from '../helpers/env.js';
import { BUYER, client, clock, ISSUER, RANGE, signedEvent, signedInvoice, zip1 } from './fixtures.js';

const DOCUMENTS = scale(200, 2_000);
let sim: DianSimulator;
let dian: DianClient;

beforeAll(async () => {
  sim = await startDianSimulator({
    xsdDir: dianXsdDir(),
    clock,
    companies: [ISSUER, BUYER],
    ranges: [RANGE],
    seed: 20_260_124,
    faults: { dropBeforeRate: 0.04, http500Rate: 0.04, http503Rate: 0.04, dropAfterRate: 0.06, jitterMs: 2 },
  });
  dian = client(sim.url, { retries: 3 });
});
afterAll(async () => {
  await dian.close();
  await sim.close();
});

/** A query retried until it answers (the client retries queries itself; a run of faults may outlast that). */
async function query<T>(f: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await f();
    } catch (e) {
      if (!isTransportError(e) || i > 20) throw e;
    }
  }
}

/** Sends an upload until its outcome is known: an unknown outcome is asked with GetStatus by key before a resend. */
async function deliver(send: () => Promise<DianResponse>, key: string): Promise<{ answer: DianResponse; sends: number; resolvedByStatus: boolean }> {
  for (let sends = 1; sends < 30; sends++) {
    try {
      return { answer: await send(), sends, resolvedByStatus: false };
    } catch (e) {
      if (!isTransportError(e)) throw e;
      const status = await query(() => dian.getStatus(key));
      if (status.statusCode !== '90') return { answer: status, sends, resolvedByStatus: true };
    }
  }
  throw new Error(`no definite outcome for ${key}`);
}

describe('local DIAN soak under injected faults', () => {
  it(
    `${DOCUMENTS} invoices and their 030 events each end accepted exactly once`,
    async () => {
      let resolved = 0;
      let duplicates = 0;
      for (let i = 0; i < DOCUMENTS; i++) {
        const inv = await signedInvoice(990_100_000 + i);
        const sent = await deliver(() => dian.sendBillSync('z.zip', zip1(inv.xml)), inv.cufe);
        if (sent.resolvedByStatus) resolved++;
        const rules = sent.answer.messages.map((m) => m.rule);
        if (rules.includes('90')) duplicates++;
        expect(sent.answer.isValid || rules.includes('90'), `${inv.id}: ${JSON.stringify(sent.answer.messages)}`).toBe(true);
        const ev = await signedEvent('030', inv, i + 1);
        const evSent = await deliver(() => dian.sendEventUpdateStatus(zip1(ev.xml, 'ar.xml')), ev.cude);
        expect(evSent.answer.isValid || evSent.answer.messages.some((m) => m.rule === 'LGC01'), `${inv.id} event`).toBe(true);
      }
      sim.setFaults({});
      const stats = sim.stats();
      expect(stats.documents.accepted).toBe(DOCUMENTS);
      expect(stats.events.accepted).toBe(DOCUMENTS);
      // the faults did happen, and some answers were lost after processing
      expect(stats.faults.dropAfter).toBeGreaterThan(0);
      expect(resolved + duplicates).toBeGreaterThan(0);
      for (let i = 0; i < DOCUMENTS; i += Math.max(1, Math.floor(DOCUMENTS / 50))) {
        const inv = await signedInvoice(990_100_000 + i);
        expect((await dian.getStatus(inv.cufe)).statusCode).toBe('00');
        expect((await dian.getStatusEvent(inv.cufe)).messages).toHaveLength(1);
      }
      console.log(`soak: ${DOCUMENTS} documents, faults ${JSON.stringify(stats.faults)}, resolved by GetStatus ${resolved}, Regla 90 answers ${duplicates}`);
    },
    scale(120_000, 1_200_000),
  );
});

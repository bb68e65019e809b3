/**
 * The worker end to end against the real simulator over loopback HTTP: the happy paths (31 through
 * reception and polling, 32 as RFCE), verdicts (rejection, conditional acceptance), certificate problems,
 * lease loss and growing poll intervals.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { securityCode } from '../../../../src/ecf/index.js';
import { verifyXml } from '../../../../src/ecf/sign/index.js';
import type { DgiiClient } from '../../../../src/ecf/dgii/index.js';
import { prepareCertificate } from '../../../../src/ecf/server/certificates.js';
import { createBench, issuerIdentity, runUntilTerminal, schemas, waitTerminal, type Bench } from './harness.js';

let bench: Bench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

describe('worker: happy paths', () => {
  it('a 31 goes received → in_process_authority → accepted_authority', async () => {
    bench = await createBench();
    const { storage, sim } = bench;
    const doc = await bench.insert('31');
    expect(doc.status).toBe('received');
    const worker = bench.worker();

    expect(await worker.runOnce()).toBe(1);
    const sent = await bench.get(doc.id);
    expect(sent).toMatchObject({ status: 'in_process_authority', transmission: 'sent', sendAttempts: 1, attempts: 0, leaseOwner: null, leaseUntil: null });
    expect(sent.trackId).toMatch(/\S/);
    expect(sent.nextAttemptAt).toBeGreaterThan(Date.now() - 1000);
    // Signed once, kept: signature verifies, XSD-valid, security code and signing time recorded.
    expect(verifyXml(sent.signedXml!).valid).toBe(true);
    expect(schemas.validate(sent.signedXml!, 'ECF-31').valid).toBe(true);
    expect(sent.securityCode).toBe(securityCode(sent.signedXml!));
    expect(sent.signedAt).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(sent.signedXml).toContain(`<FechaHoraFirma>${sent.signedAt}</FechaHoraFirma>`);
    expect(verifyXml(sent.signedXml!).certificate).toBe(issuerIdentity().signer.certificate);
    expect(sent.rfceXml).toBeNull();
    expect((await storage.listSubmissions(doc.id)).map((s) => [s.kind, s.trackId])).toEqual([['ecf', sent.trackId]]);

    const [done] = await runUntilTerminal(worker, storage, [doc.id]);
    expect(done).toMatchObject({
      status: 'accepted_authority',
      authorityState: 'Aceptado',
      errors: null,
      trackId: sent.trackId,
      signedXml: sent.signedXml,
      nextAttemptAt: null,
      leaseOwner: null,
      sendAttempts: 1,
    });
    expect(sim.stats().receptions[`${bench.issuer.rnc}${doc.encf}`]).toBe(1);
    // Terminal documents are never claimed again.
    expect(await worker.runOnce()).toBe(0);
  });

  it('a 32 below RD$250,000 goes as RFCE: signed 32 and signed RFCE kept, verdict at once', async () => {
    bench = await createBench();
    const doc = await bench.insert('32');
    expect(doc.summary).toBe(true);
    await bench.worker().runOnce();
    const done = await bench.get(doc.id);
    expect(done).toMatchObject({ status: 'accepted_authority', authorityState: 'Aceptado', transmission: 'sent', nextAttemptAt: null, sendAttempts: 1 });
    expect(verifyXml(done.signedXml!).valid).toBe(true);
    expect(schemas.validate(done.signedXml!, 'ECF-32', { relaxed32: true }).valid).toBe(true);
    expect(verifyXml(done.rfceXml!).valid).toBe(true);
    expect(schemas.validate(done.rfceXml!, 'RFCE').valid).toBe(true);
    expect(done.rfceXml).toContain(`<CodigoSeguridadeCF>${securityCode(done.signedXml!)}</CodigoSeguridadeCF>`);
    const key = `${bench.issuer.rnc}${doc.encf}`;
    expect(bench.sim.stats().rfce[key]).toBe(1);
    expect(bench.sim.stats().receptions[key]).toBeUndefined();
    expect((await bench.storage.listSubmissions(doc.id)).map((s) => [s.kind, s.state])).toEqual([['rfce', 'Aceptado']]);
  });

  it('processes a batch with bounded parallelism, every document to a verdict', async () => {
    bench = await createBench();
    const docs = [];
    for (let i = 0; i < 12; i++) docs.push(await bench.insert(i % 3 === 0 ? '32' : '31'));
    const done = await runUntilTerminal(
      bench.worker({ concurrency: 4, batchSize: 5 }),
      bench.storage,
      docs.map((d) => d.id),
    );
    expect(done.map((d) => d.status)).toEqual(docs.map(() => 'accepted_authority'));
    expect(done.every((d) => d.sendAttempts === 1)).toBe(true);
  });
});

describe('worker: logs', () => {
  it('logs structured events through pino, without XML, passwords or keys', async () => {
    bench = await createBench();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    const doc = await bench.insert('31');
    bench.sim.setFaults({ dropAfterRate: 1, paths: ['facturaselectronicas'], limit: 1 });
    const [done] = await runUntilTerminal(bench.worker({ logger }), bench.storage, [doc.id]);
    expect(done!.status).toBe('accepted_authority');
    const events = lines.map((l) => JSON.parse(l) as { msg: string; documentId?: number; to?: string });
    const messages = events.map((e) => e.msg);
    expect(messages).toContain('sending to the authority');
    expect(messages).toContain('authority call failed; will retry');
    expect(messages).toContain('authority already holds the e-CF; adopting its track id');
    expect(events.filter((e) => e.msg === 'document status changed').map((e) => e.to)).toEqual(['in_process_authority', 'accepted_authority']);
    const text = lines.join('');
    expect(text).not.toMatch(/<ECF|<Signature|SignatureValue|BEGIN/);
    expect(text).not.toContain(issuerIdentity().password);
    expect(text).not.toContain(Buffer.from(bench.key).toString('hex'));
  });
});

describe('worker: verdicts', () => {
  it('rejection → rejected_authority with DGII messages and sequence_reusable', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    bench.sim.setScenarios({ rejectEncfSuffixes: [doc.encf.slice(-4)] });
    const [done] = await runUntilTerminal(bench.worker(), bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'rejected_authority', authorityState: 'Rechazado', nextAttemptAt: null, leaseOwner: null });
    expect(done!.errors).toEqual(['Rechazado por el escenario del simulador (terminación del e-NCF).']);
    // The simulator says secuenciaUtilizada: true → the e-NCF may not be reused.
    expect(done!.sequenceReusable).toBe(false);
  });

  it('an RFCE rejection comes back with the upload: rejected_authority at once', async () => {
    bench = await createBench();
    const doc = await bench.insert('32');
    bench.sim.setScenarios({ forceState: { [doc.encf]: 'Rechazado' } });
    await bench.worker().runOnce();
    const done = await bench.get(doc.id);
    expect(done).toMatchObject({ status: 'rejected_authority', authorityState: 'Rechazado', nextAttemptAt: null, sequenceReusable: false });
    expect(done.errors).toEqual(['Estado Rechazado forzado por el escenario del simulador.']);
    expect(done.rfceXml).not.toBeNull();
  });

  it('a rejection for a broken signature leaves the sequence reusable (secuenciaUtilizada false)', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    // A transport that alters the document after signing (as a proxy rewriting bodies would): the
    // simulator's signature check rejects it and says the e-NCF was not consumed.
    const real = bench.transport;
    const altering: DgiiClient = Object.assign(Object.create(real) as DgiiClient, {
      sendEcf: (who: Parameters<DgiiClient['sendEcf']>[0], file: Parameters<DgiiClient['sendEcf']>[1]) =>
        real.sendEcf(who, { ...file, xml: file.xml.replace('<RazonSocialComprador>Cliente SRL<', '<RazonSocialComprador>Otro Cliente SRL<') }),
    });
    const [done] = await runUntilTerminal(bench.worker({ transport: altering }), bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'rejected_authority', sequenceReusable: true });
    expect(done!.errors!.join(' ')).toMatch(/firma digital/);
  });

  it('conditional acceptance → accepted_authority, state and messages kept', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    bench.sim.setScenarios({ conditionalEncfSuffixes: [doc.encf.slice(-4)] });
    const [done] = await runUntilTerminal(bench.worker(), bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'accepted_authority', authorityState: 'Aceptado Condicional', sequenceReusable: null });
    expect(done!.errors).toEqual(['Aceptado condicional por el escenario del simulador (terminación del e-NCF).']);
  });

  it('a refusal at reception (HTTP 400, no track id) → rejected_authority, sequence reusable', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    // A transport that names the file wrongly: the simulator refuses the upload itself (DGII code 3243).
    const real = bench.transport;
    const misnaming: DgiiClient = Object.assign(Object.create(real) as DgiiClient, {
      sendEcf: (who: Parameters<DgiiClient['sendEcf']>[0], file: Parameters<DgiiClient['sendEcf']>[1]) => real.sendEcf(who, { ...file, fileName: 'x.xml' }),
    });
    await bench.worker({ transport: misnaming }).runOnce();
    const done = await bench.get(doc.id);
    expect(done).toMatchObject({ status: 'rejected_authority', sequenceReusable: true, nextAttemptAt: null, trackId: null });
    expect(done.errors!.join(' ')).toMatch(/nombre del archivo/i);
    expect(bench.sim.stats().receptions[`${bench.issuer.rnc}${doc.encf}`]).toBeUndefined();
  });
});

describe('worker: certificates and failures', () => {
  it('without a certificate: system_error with a Spanish reason, retried; after an upload it goes through', async () => {
    bench = await createBench({ withoutCertificate: true });
    const doc = await bench.insert('31');
    const worker = bench.worker();
    await worker.runOnce();
    const waiting = await bench.get(doc.id);
    expect(waiting).toMatchObject({ status: 'system_error', transmission: 'pending', signedXml: null, attempts: 1, leaseOwner: null });
    expect(waiting.errors![0]).toMatch(/no ha subido ninguno/);
    expect(waiting.nextAttemptAt).toBeGreaterThan(Date.now() - 50);
    expect(bench.sim.stats().requests).toBe(0);

    const id = issuerIdentity();
    await bench.storage.updateIssuer(
      bench.issuer.id,
      prepareCertificate({ issuer: bench.issuer, p12: id.p12, password: id.password, key: bench.key, now: new Date() }),
    );
    const [done] = await runUntilTerminal(worker, bench.storage, [doc.id]);
    expect(done).toMatchObject({ status: 'accepted_authority', errors: null });
  });

  it('an e-CF that fails the XSD after signing: system_error with the reason, nothing sent, nothing kept', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    // Break the stored XML the way a bug in a builder would: drop a required element.
    const broken = doc.unsignedXml.replace(/<TipoIngresos>[^<]*<\/TipoIngresos>/, '');
    expect(broken).not.toBe(doc.unsignedXml);
    const storage = bench.storage;
    const patched = Object.assign(Object.create(storage) as typeof storage, {
      claimDue: async (...a: Parameters<typeof storage.claimDue>) => (await storage.claimDue(...a)).map((d) => ({ ...d, unsignedXml: broken })),
    });
    await bench.worker({ storage: patched }).runOnce();
    const failed = await bench.get(doc.id);
    expect(failed).toMatchObject({ status: 'system_error', transmission: 'pending', signedXml: null, securityCode: null });
    expect(failed.errors![0]).toMatch(/XSD ECF-31/);
    expect(bench.sim.stats().requests).toBe(0);
  });

  it('a worker that lost its lease stops touching the document', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    const { storage } = bench;
    const real = bench.transport;
    // While the upload is in flight, the lease "expires" and another worker claims the document.
    const slow: DgiiClient = Object.assign(Object.create(real) as DgiiClient, {
      sendEcf: async (...a: Parameters<DgiiClient['sendEcf']>) => {
        const taken = await storage.claimDue(Date.now() + 10 * 60_000, 'intruder', 60_000, 10);
        expect(taken.map((d) => d.id)).toEqual([doc.id]);
        return real.sendEcf(...a);
      },
    });
    await bench.worker({ transport: slow, owner: 'first', leaseMs: 1_000 }).runOnce();
    const after = await bench.get(doc.id);
    // The first worker's receipt was not written: the new owner finds `sending` and will ask track ids.
    expect(after).toMatchObject({ leaseOwner: 'intruder', transmission: 'sending', trackId: null, status: 'received', sendAttempts: 1 });
  });
});

describe('worker: loop', () => {
  it('keeps running when a pass fails (storage unreachable for a moment)', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    const storage = bench.storage;
    let failures = 2;
    const flaky = Object.assign(Object.create(storage) as typeof storage, {
      claimDue: async (...a: Parameters<typeof storage.claimDue>) => {
        if (failures-- > 0) throw new Error('SQLITE_BUSY: database is locked');
        return storage.claimDue(...a);
      },
    });
    const errors: string[] = [];
    const quiet = () => undefined;
    const worker = bench.worker({ storage: flaky, logger: { debug: quiet, info: quiet, warn: quiet, error: (_o, m) => errors.push(m ?? '') } });
    worker.start();
    worker.start(); // idempotent
    const [done] = await waitTerminal(storage, [doc.id]);
    await worker.stop();
    expect(done!.status).toBe('accepted_authority');
    expect(errors.filter((m) => m === 'worker pass failed')).toHaveLength(2);
  });
});

describe('worker: poll schedule', () => {
  it('polls with growing intervals while DGII says En Proceso, capped', async () => {
    bench = await createBench();
    const doc = await bench.insert('31');
    bench.sim.setScenarios({ forceState: { [doc.encf]: 'En Proceso' } });
    let now = Date.now() + 1_000;
    const worker = bench.worker({ clock: () => new Date(now), pollSchedule: { initialMs: 500, factor: 2, maxMs: 8_000 } });
    const delays: number[] = [];
    await worker.runOnce();
    for (let i = 0; i < 7; i++) {
      const d = await bench.get(doc.id);
      expect(d.status).toBe('in_process_authority');
      delays.push(d.nextAttemptAt! - now);
      // Not due a millisecond early…
      now = d.nextAttemptAt! - 1;
      expect(await worker.runOnce()).toBe(0);
      // …due at the time.
      now = d.nextAttemptAt!;
      expect(await worker.runOnce()).toBe(1);
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    const polled = await bench.get(doc.id);
    expect(polled.authorityState).toBe('En Proceso');

    bench.sim.setScenarios({});
    // Released from the forced state, the simulator resolves it after its processing delay.
    const [done] = await (async () => {
      for (let i = 0; i < 200; i++) {
        now = (await bench!.get(doc.id)).nextAttemptAt ?? now;
        await worker.runOnce();
        const d = await bench!.get(doc.id);
        if (d.status === 'accepted_authority') return [d];
        await new Promise((r) => setTimeout(r, 10));
      }
      return [await bench!.get(doc.id)];
    })();
    expect(done!.status).toBe('accepted_authority');
  });
});

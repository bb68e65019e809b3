/**
 * The background worker: takes issued documents from `received` to a verdict of the authority.
 *
 * A loop claims due documents with a lease (`Storage.claimDue`), advances each one step by step and persists
 * every step under the lease (`updateDocument(…, owner)`; null = the lease was lost, another worker owns the
 * document now, so this one stops touching it). Several workers, in one process or many sharing one
 * PostgreSQL, never handle the same document at the same time.
 *
 * Per document, by `transmission` (see the state machine in docs/worker.md):
 * - `pending`: sign (once: the signed XML, its security code and FechaHoraFirma are kept for good), verify the
 *   signature, validate the signed XML against the XSD, derive and sign the RFCE for a 32 below the summary
 *   threshold; persist `sending` BEFORE the network call; send; record the track id (or the RFCE verdict).
 * - `sending`: an earlier send may or may not have reached the authority (crash, dropped connection): ask the
 *   authority first (track ids of the e-NCF, or the RFCE verdict) and adopt what it knows; resend only when it
 *   knows nothing. A document is never sent twice blindly.
 * - `sent`: poll the result with growing intervals until Aceptado / Aceptado Condicional / Rechazado.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { dgiiFileName, EcfError, isAuthorityError, isEcfError, isTransportError, securityCode, type Clock, type Logger, type SchemaId, type SchemaValidationResult, type SchemaValidator, type Signer } from '../../index.js';
import { signEcf, signXml, type VerifyResult } from '../../sign/index.js';
import type { AuthorityIdentity, AuthorityTransport, TrackResult } from '../../dgii/index.js';
import type { DocumentPatch, DocumentRecord, DocumentStatus, Issuer, Storage } from '../storage/types.js';
import { inlineOffload, type Offload } from '../offload/index.js';
import type { SignerProvider } from '../signers.js';
import { xmlValue } from '../inbound/xml.js';
import { NOT_FOUND_MAX_MS, notFoundDelay, pollDelay, retryDelay, type PollSchedule, type RetrySchedule } from './schedule.js';

export { pollDelay, retryDelay, notFoundDelay, DEFAULT_POLL, DEFAULT_RETRY, NOT_FOUND_MAX_MS, type PollSchedule, type RetrySchedule } from './schedule.js';

/** The logger the worker uses: the whole `Logger` port (a pino `Logger` fits). */
export type WorkerLogger = Logger;

export interface WorkerDeps {
  storage: Storage;
  transport: AuthorityTransport;
  signers: SignerProvider;
  schemas: SchemaValidator;
  /**
   * Where self-verification, XSD validation and RFCE derivation run (default: in-process). The server passes
   * its child-process pool so a large document never blocks the event loop; signing stays here (linear, and
   * the signer may be an HSM/KMS object that cannot leave the process).
   */
  offload?: Offload;
  clock?: Clock;
  /** Lease owner name; unique per worker (default: host, pid and a random suffix). */
  owner?: string;
  /**
   * How long a claim protects a document (default 120 s). Renewed on every step; must exceed the longest
   * authority call (timeout × attempts of the transport), or another worker may take the document over.
   */
  leaseMs?: number;
  /** Documents claimed per pass (default 32). */
  batchSize?: number;
  /** Pause of the loop when nothing was due (default 250 ms). */
  pollIntervalMs?: number;
  /** Documents of a batch handled at once (default 8). */
  concurrency?: number;
  /** Result polling intervals (default 0.5 s doubling to 5 min). */
  pollSchedule?: PollSchedule;
  /** Backoff after failures (default 1 s doubling to 5 min, jitter 50 %). */
  retry?: RetrySchedule;
  /** "No encontrado" answers tolerated for a track id we hold before asking the track ids again (default 3). */
  notFoundRetries?: number;
  /** Longest wait between those polls (default NOT_FOUND_MAX_MS, 30 s). */
  notFoundMaxMs?: number;
  /** Random source of the jitter (tests). */
  random?: () => number;
  logger?: WorkerLogger;
}

export interface Worker {
  /** Starts the loop (no-op when running). */
  start(): void;
  /** Stops the loop after the documents in hand are finished (their leases released). */
  stop(): Promise<void>;
  /** One pass: claims due documents and advances each of them; returns how many were handled. */
  runOnce(): Promise<number>;
  /** Ends the loop's pause now (e.g. right after a document was received). */
  wake(): void;
  /** The lease owner name. */
  readonly owner: string;
}

const TERMINAL: ReadonlySet<DocumentStatus> = new Set(['accepted_authority', 'rejected_authority', 'rejected_validation']);

/** Thrown internally when a write finds the lease gone. */
class LeaseLost extends Error {}

/**
 * @example
 * const worker = createWorker({ storage, transport: createDgiiClient({ environment: 'testecf' }), signers, schemas });
 * worker.start(); … await worker.stop();
 */
export function createWorker(deps: WorkerDeps): Worker {
  const { storage, transport, signers, schemas } = deps;
  const offload = deps.offload ?? inlineOffload(schemas);
  const clock = deps.clock ?? (() => new Date());
  const now = () => clock().getTime();
  const owner = deps.owner ?? `worker-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const leaseMs = deps.leaseMs ?? 120_000;
  const batchSize = deps.batchSize ?? 32;
  const idleMs = deps.pollIntervalMs ?? 250;
  const concurrency = Math.max(1, deps.concurrency ?? 8);
  const notFoundRetries = deps.notFoundRetries ?? 3;
  const notFoundMaxMs = deps.notFoundMaxMs ?? NOT_FOUND_MAX_MS;
  const random = deps.random ?? Math.random;
  const log = deps.logger;

  const poll = (n: number) => pollDelay(n, deps.pollSchedule);
  const backoff = (n: number) => retryDelay(n, deps.retry, random);

  /** Advances one claimed document as far as it can go now. */
  async function handle(claimed: DocumentRecord): Promise<void> {
    let doc = claimed;
    const started = doc.status;

    const persist = async (patch: DocumentPatch, release = false): Promise<DocumentRecord> => {
      const full: DocumentPatch = release ? { ...patch, leaseOwner: null, leaseUntil: null } : { ...patch, leaseUntil: now() + leaseMs };
      const updated = await storage.updateDocument(doc.id, full, owner);
      if (!updated) throw new LeaseLost();
      if (updated.status !== doc.status) {
        log?.info({ documentId: doc.id, encf: doc.encf, from: doc.status, to: updated.status, trackId: updated.trackId }, 'document status changed');
      }
      doc = updated;
      return updated;
    };
    /** Final write of this pass: persists and releases the lease. */
    const finish = (patch: DocumentPatch) => persist(patch, true);

    /** Keeps the status, schedules a retry (a retryable failure talking to the authority). */
    const retryLater = (e: unknown, extra: DocumentPatch = {}) => {
      log?.warn({ documentId: doc.id, encf: doc.encf, attempts: doc.attempts + 1, err: errorSummary(e) }, 'authority call failed; will retry');
      return finish({ ...extra, attempts: doc.attempts + 1, nextAttemptAt: now() + backoff(doc.attempts) });
    };
    /** Internal failure: `system_error` with the reason, retried automatically. */
    const systemError = (e: unknown, extra: DocumentPatch = {}) => {
      log?.error({ documentId: doc.id, encf: doc.encf, attempts: doc.attempts + 1, err: errorSummary(e) }, 'document processing failed');
      return finish({
        ...extra,
        status: 'system_error',
        errors: [reasonOf(e)],
        attempts: doc.attempts + 1,
        nextAttemptAt: now() + backoff(doc.attempts),
      });
    };
    /** A failed authority call outside the send itself (poll, track ids, RFCE verdict). */
    const queryFailed = (e: unknown) => (isTransportError(e) && e.retryable ? retryLater(e) : systemError(e));

    const fileName = (issuer: Issuer) => dgiiFileName(issuer.rnc, doc.encf);

    /** Applies a verdict (result query or RFCE answer). */
    const applyVerdict = async (r: TrackResult, who: AuthorityIdentity, issuer: Issuer): Promise<void> => {
      const trackId = r.trackId ?? doc.trackId;
      switch (r.codigo) {
        case 1:
        case 4: {
          const texts = messageTexts(r);
          await finish({
            status: 'accepted_authority',
            authorityState: r.estado,
            trackId,
            transmission: 'sent',
            errors: r.codigo === 4 && texts.length > 0 ? texts : null,
            sequenceReusable: null,
            attempts: doc.attempts + 1,
            nextAttemptAt: null,
          });
          return;
        }
        case 2: {
          const texts = messageTexts(r);
          await finish({
            status: 'rejected_authority',
            authorityState: r.estado,
            trackId,
            transmission: 'sent',
            errors: texts.length > 0 ? texts : ['La DGII rechazó el comprobante sin indicar el motivo.'],
            sequenceReusable: r.secuenciaUtilizada === null ? null : !r.secuenciaUtilizada,
            attempts: doc.attempts + 1,
            nextAttemptAt: null,
          });
          return;
        }
        case 3:
          await finish({
            status: 'in_process_authority',
            authorityState: r.estado,
            notFoundPolls: 0,
            trackId,
            errors: null,
            attempts: doc.attempts + 1,
            nextAttemptAt: now() + poll(doc.attempts + 1),
          });
          return;
        default: {
          // "No encontrado" for something the authority acknowledged: it may lag a moment; after a few tries,
          // go back to asking what it holds for the e-NCF (and resend only if nothing).
          // The count is stored with the document, so a restarted worker continues it.
          const count = doc.notFoundPolls + 1;
          if (count <= notFoundRetries) {
            await finish({
              authorityState: r.estado,
              notFoundPolls: count,
              attempts: doc.attempts + 1,
              nextAttemptAt: now() + notFoundDelay(count, deps.pollSchedule, notFoundMaxMs),
            });
            return;
          }
          log?.warn({ documentId: doc.id, encf: doc.encf, trackId: doc.trackId }, 'authority does not find the transmission; checking its track ids');
          await persist({ transmission: 'sending', authorityState: r.estado, notFoundPolls: 0 });
          await reconcile(who, issuer);
        }
      }
    };

    /** Sends (or resends) the signed document; `transmission` is already `sending` and persisted. */
    const send = async (who: AuthorityIdentity, issuer: Issuer): Promise<void> => {
      const kind = doc.summary ? 'rfce' : 'ecf';
      log?.info({ documentId: doc.id, encf: doc.encf, kind, sendAttempt: doc.sendAttempts }, 'sending to the authority');
      try {
        // The submission is recorded before the state that says "sent": a crash in between leaves `sending`,
        // and the reconciliation then finds the record instead of adding a second one (recordSubmission).
        if (doc.summary) {
          const verdict = await transport.sendRfce(who, { fileName: fileName(issuer), xml: doc.rfceXml! });
          await storage.addSubmission(doc.id, 'rfce', verdict.trackId, verdict.estado);
          await persist({ transmission: 'sent', attempts: 0 });
          await applyVerdict(verdict, who, issuer);
        } else {
          const receipt = await transport.sendEcf(who, { fileName: fileName(issuer), xml: doc.signedXml! });
          await storage.addSubmission(doc.id, 'ecf', receipt.trackId, null);
          await finish({
            trackId: receipt.trackId,
            transmission: 'sent',
            status: 'in_process_authority',
            authorityState: null,
            notFoundPolls: 0,
            errors: null,
            attempts: 0,
            nextAttemptAt: now() + poll(0),
          });
        }
      } catch (e) {
        if (e instanceof LeaseLost) throw e;
        await sendFailed(e, kind);
      }
    };

    const sendFailed = async (e: unknown, kind: 'ecf' | 'rfce'): Promise<void> => {
      if (isAuthorityError(e)) {
        if (e.code === 'rejected') {
          // A definitive refusal at reception: nothing was registered, the e-NCF may be used again.
          const texts = e.mensajes.map((m) => m.valor.trim()).filter((t) => t !== '');
          await storage.addSubmission(doc.id, kind, e.trackId, 'Rechazado');
          await finish({
            status: 'rejected_authority',
            authorityState: 'Rechazado',
            transmission: 'sent',
            trackId: e.trackId ?? doc.trackId,
            errors: texts.length > 0 ? texts : [`La DGII rechazó la recepción del comprobante (HTTP ${e.status}).`],
            sequenceReusable: true,
            attempts: doc.attempts + 1,
            nextAttemptAt: null,
          });
          return;
        }
        // 401/403 (certificate not delegated, …) or 404 (wrong endpoint): not about this document; the
        // authority answered, so nothing was received and a plain resend is safe once it is fixed.
        await systemError(e, { transmission: 'pending' });
        return;
      }
      if (isTransportError(e)) {
        if (e.retryable && !e.outcomeUnknown) {
          // Refused before processing (connection refused, 503 …): resending is safe.
          await retryLater(e, { transmission: 'pending' });
        } else if (e.retryable) {
          // The request may have been processed: leave `sending`, the next pass asks the authority first.
          await retryLater(e);
        } else {
          await systemError(e);
        }
        return;
      }
      // Anything else happened after `sending` was persisted: the outcome is unknown, keep `sending`.
      await systemError(e);
    };

    /**
     * Records a transmission the authority holds, unless it is recorded already (the send that made it may
     * have recorded it just before a crash or a lost answer).
     */
    const recordSubmission = async (kind: 'ecf' | 'rfce', trackId: string | null, state: string | null): Promise<void> => {
      const known = await storage.listSubmissions(doc.id);
      if (known.some((x) => x.kind === kind && (kind === 'rfce' || x.trackId === trackId))) return;
      await storage.addSubmission(doc.id, kind, trackId, state);
    };

    /** The outcome of an earlier send is unknown: ask the authority before sending again. */
    const reconcile = async (who: AuthorityIdentity, issuer: Issuer): Promise<void> => {
      try {
        if (doc.summary) {
          let verdict: TrackResult | null = null;
          try {
            verdict = await transport.rfceStatus(who, { rncEmisor: issuer.rnc, encf: doc.encf, codigoSeguridad: doc.securityCode! });
          } catch (e) {
            if (!(isAuthorityError(e) && e.code === 'not_found')) throw e;
          }
          if (verdict && verdict.codigo !== 0) {
            log?.info({ documentId: doc.id, encf: doc.encf, estado: verdict.estado }, 'authority already holds the summary; adopting its verdict');
            await recordSubmission('rfce', verdict.trackId, verdict.estado);
            await persist({ transmission: 'sent' });
            await applyVerdict(verdict, who, issuer);
            return;
          }
        } else {
          let entries: Awaited<ReturnType<AuthorityTransport['trackIds']>> = [];
          try {
            entries = await transport.trackIds(who, { rncEmisor: issuer.rnc, encf: doc.encf });
          } catch (e) {
            if (!(isAuthorityError(e) && e.code === 'not_found')) throw e;
          }
          const known = entries.filter((t) => t.trackId && t.estado !== 'No encontrado');
          if (known.length > 0) {
            const latest = known.reduce((a, b) => ((b.fechaRecepcion?.getTime() ?? 0) >= (a.fechaRecepcion?.getTime() ?? 0) ? b : a));
            log?.info({ documentId: doc.id, encf: doc.encf, trackId: latest.trackId, submissions: known.length }, 'authority already holds the e-CF; adopting its track id');
            await recordSubmission('ecf', latest.trackId, latest.estado);
            await persist({ trackId: latest.trackId, transmission: 'sent', status: 'in_process_authority', errors: null, attempts: 0 });
            await pollResult(who, issuer);
            return;
          }
        }
      } catch (e) {
        if (e instanceof LeaseLost) throw e;
        await queryFailed(e);
        return;
      }
      log?.info({ documentId: doc.id, encf: doc.encf }, 'authority does not hold the document; sending again');
      await persist({ sendAttempts: doc.sendAttempts + 1 });
      await send(who, issuer);
    };

    /** Asks the verdict of a transmission the authority acknowledged. */
    const pollResult = async (who: AuthorityIdentity, issuer: Issuer): Promise<void> => {
      let r: TrackResult;
      try {
        if (doc.summary) {
          r = await transport.rfceStatus(who, { rncEmisor: issuer.rnc, encf: doc.encf, codigoSeguridad: doc.securityCode! });
        } else {
          if (!doc.trackId) {
            await persist({ transmission: 'sending' });
            await reconcile(who, issuer);
            return;
          }
          r = await transport.result(who, doc.trackId);
        }
      } catch (e) {
        if (e instanceof LeaseLost) throw e;
        if (isAuthorityError(e) && e.code === 'not_found') {
          r = { trackId: doc.trackId, codigo: 0, estado: 'No encontrado', rnc: null, encf: doc.encf, secuenciaUtilizada: null, fechaRecepcion: null, mensajes: [] };
        } else {
          await queryFailed(e);
          return;
        }
      }
      await applyVerdict(r, who, issuer);
    };

    /** Signs (once) and validates what will be sent, then sends. */
    const prepareAndSend = async (signer: Signer, who: AuthorityIdentity, issuer: Issuer): Promise<void> => {
      const patch: DocumentPatch = {};
      let signed = doc.signedXml;
      if (!signed) {
        signed = await signEcf(doc.unsignedXml, signer, clock);
        await turn();
        checkSignature(await offload.verify(signed, 'background'), 'e-CF');
        checkSchema(await offload.validate(signed, `ECF-${doc.tipo}` as SchemaId, doc.summary ? { relaxed32: true } : undefined, 'background'), `ECF-${doc.tipo}` as SchemaId, 'e-CF firmado');
        patch.signedXml = signed;
        patch.securityCode = securityCode(signed);
        patch.signedAt = signingTimeOf(signed);
      }
      if (doc.summary && !doc.rfceXml) {
        await turn();
        const rfce = await signXml(await offload.deriveRfce(signed, 'background'), signer);
        await turn();
        checkSignature(await offload.verify(rfce, 'background'), 'RFCE');
        checkSchema(await offload.validate(rfce, 'RFCE', undefined, 'background'), 'RFCE', 'RFCE firmado');
        patch.rfceXml = rfce;
      }
      // Persisted BEFORE the network call: after a crash from here on, the next pass asks the authority
      // what it holds instead of sending again.
      await persist({ ...patch, transmission: 'sending', sendAttempts: doc.sendAttempts + 1 });
      await send(who, issuer);
    };

    try {
      if (TERMINAL.has(doc.status)) {
        await finish({ nextAttemptAt: null });
        return;
      }
      const issuer = await storage.getIssuer(doc.issuerId);
      if (!issuer) throw new EcfError(`issuer ${doc.issuerId} of document ${doc.id} not found`, { code: 'not_found' });
      const signer = await signers.signerFor(issuer);
      const who: AuthorityIdentity = { rnc: issuer.rnc, signer };
      switch (doc.transmission) {
        case 'pending':
          await prepareAndSend(signer, who, issuer);
          break;
        case 'sending':
          await reconcile(who, issuer);
          break;
        case 'sent':
          await pollResult(who, issuer);
          break;
      }
    } catch (e) {
      if (e instanceof LeaseLost) {
        log?.warn({ documentId: doc.id, encf: doc.encf }, 'lease lost; another worker owns the document now');
        return;
      }
      try {
        // Signing, certificate, validation or an unexpected bug: system_error, retried with capped backoff.
        await systemError(e);
      } catch (inner) {
        if (inner instanceof LeaseLost) return;
        log?.error({ documentId: doc.id, err: errorSummary(inner), started }, 'could not record the failure');
      }
    }
  }

  async function runOnce(): Promise<number> {
    const docs = await storage.claimDue(now(), owner, leaseMs, batchSize);
    if (docs.length === 0) return 0;
    log?.debug({ owner, claimed: docs.length }, 'claimed documents');
    let next = 0;
    const lanes = Array.from({ length: Math.min(concurrency, docs.length) }, async () => {
      while (next < docs.length) {
        const doc = docs[next++]!;
        await turn();
        await handle(doc);
      }
    });
    await Promise.all(lanes);
    return docs.length;
  }

  let running: Promise<void> | null = null;
  let stopping = false;
  let wakeUp: (() => void) | null = null;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  async function loop(): Promise<void> {
    log?.info({ owner }, 'worker started');
    let failures = 0;
    while (!stopping) {
      let handled = 0;
      try {
        handled = await runOnce();
        failures = 0;
      } catch (e) {
        // Storage unreachable, typically: back off (up to 30 s) instead of hammering it and the logs.
        failures++;
        log?.error({ owner, failures, err: errorSummary(e) }, 'worker pass failed');
      }
      if (stopping) break;
      if (failures > 0) await pause(Math.min(30_000, idleMs * 2 ** Math.min(failures, 16)));
      else if (handled < batchSize) await pause(idleMs);
    }
    log?.info({ owner }, 'worker stopped');
  }

  return {
    owner,
    start() {
      if (running) return;
      stopping = false;
      running = loop().finally(() => {
        running = null;
      });
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await running;
    },
    runOnce,
    wake() {
      wakeUp?.();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------

function messageTexts(r: TrackResult): string[] {
  return r.mensajes.map((m) => m.valor.trim()).filter((t) => t !== '');
}

/**
 * Lets the event loop run I/O callbacks (HTTP requests of an in-process server) between CPU-heavy steps.
 * Without it the lanes' sign → verify → XSD steps chain as microtasks and a POST waits behind a whole batch.
 */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function checkSignature(v: VerifyResult, what: string): void {
  if (!v.valid) throw new InternalFailure(`La firma del ${what} no se verificó después de firmar (${v.code}): ${v.reason ?? ''}`.trim());
}

function checkSchema(r: SchemaValidationResult, schema: SchemaId, what: string): void {
  if (r.valid) return;
  const first = r.violations.slice(0, 3).map((v) => `${v.xpath ?? '?'}: ${v.message.trim()}`).join('; ');
  throw new InternalFailure(`El ${what} no cumple el XSD ${schema} (${r.violations.length} error(es)): ${first}`);
}

/** A failure whose message is already Spanish, for the document's `errors`. */
class InternalFailure extends EcfError {
  constructor(message: string) {
    super(message, { code: 'internal_failure' });
    this.name = 'InternalFailure';
  }
}

function signingTimeOf(signed: string): string | null {
  // From the parsed document: a comment in passthrough XML must not stand for the signing time.
  return xmlValue(signed, ['FechaHoraFirma']);
}

/** The reason stored in `errors` of a `system_error` (Spanish; never XML, tokens or keys). */
function reasonOf(e: unknown): string {
  if (e instanceof InternalFailure) return e.message;
  if (e instanceof Error && e.name === 'OffloadError') {
    return (e as { code?: unknown }).code === 'timeout'
      ? 'La verificación del documento excedió el tiempo permitido. Se reintentará automáticamente.'
      : 'El servicio estaba ocupado con otros documentos. Se reintentará automáticamente.';
  }
  if (isEcfError(e) && e.name === 'SignerUnavailableError') return e.message;
  if (isAuthorityError(e)) {
    const texts = e.mensajes.map((m) => m.valor.trim()).filter(Boolean);
    return `La DGII respondió HTTP ${e.status}${texts.length ? `: ${texts.join('; ')}` : ''}. Se reintentará automáticamente.`;
  }
  if (isTransportError(e)) return `No se obtuvo respuesta definitiva de la DGII (${e.code}${e.status ? ` HTTP ${e.status}` : ''}). Se reintentará automáticamente.`;
  const detail = e instanceof Error ? e.message : String(e);
  return `Error interno del servicio: ${detail.slice(0, 500)}. Se reintentará automáticamente.`;
}

function errorSummary(e: unknown): Record<string, unknown> {
  if (e instanceof Error) {
    const extra = e as { code?: unknown; status?: unknown; retryable?: unknown; outcomeUnknown?: unknown };
    return { name: e.name, code: extra.code, status: extra.status, retryable: extra.retryable, outcomeUnknown: extra.outcomeUnknown, message: e.message.slice(0, 500) };
  }
  return { message: String(e).slice(0, 500) };
}

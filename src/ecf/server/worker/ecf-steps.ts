/**
 * The e-CF steps of the worker: the I/O of one pass over a claimed document (sign, offloaded verification,
 * XSD and RFCE derivation, the authority calls) and the writes under the lease. What each outcome changes in
 * the document is decided by the transition table (./transitions.ts); this module runs the steps, classifies
 * what happened and persists the row's patch.
 */
import { dgiiFileName, EcfError, securityCode, type Clock, type SchemaId, type SchemaValidationResult, type Signer } from '../../index.js';
import { signEcf, signXml, type VerifyResult } from '../../sign/index.js';
import type { AuthorityIdentity, AuthorityTransport, TrackResult } from '../../dgii/index.js';
import type { DocumentPatch, DocumentRecord, Issuer, Storage } from '../storage/types.js';
import type { Offload } from '../offload/index.js';
import type { SignerProvider } from '../signers.js';
import { xmlValue } from '../inbound/xml.js';
import { errorSummary, yieldToEventLoop as turn, type LoopLogger } from '../../../shared/server-kit/lease-loop.js';
import {
  InternalFailure,
  isAuthorityError,
  latestHeld,
  notFoundResult,
  queryFailure,
  sendFailure,
  TERMINAL,
  transition,
  verdictOutcome,
  type Outcome,
  type Timing,
} from './transitions.js';

export interface EcfStepDeps {
  storage: Storage;
  transport: AuthorityTransport;
  signers: SignerProvider;
  offload: Offload;
  clock: Clock;
  /** Lease owner of the writes. */
  owner: string;
  leaseMs: number;
  /** Timing of the transitions at the current time. */
  timing: () => Timing;
  logger?: LoopLogger;
}

/** Thrown internally when a write finds the lease gone. */
class LeaseLost extends Error {}

/** The `process` callback of the lease loop for e-CF documents: advances one claimed document as far as it can go now. */
export function createEcfSteps(deps: EcfStepDeps): (claimed: DocumentRecord) => Promise<void> {
  const { storage, transport, signers, offload, clock, owner, leaseMs } = deps;
  const log = deps.logger;

  return async function handle(claimed: DocumentRecord): Promise<void> {
    let doc = claimed;
    const started = doc.status;

    const persist = async (patch: DocumentPatch, release = false): Promise<DocumentRecord> => {
      const full: DocumentPatch = release ? { ...patch, leaseOwner: null, leaseUntil: null } : { ...patch, leaseUntil: clock().getTime() + leaseMs };
      const updated = await storage.updateDocument(doc.id, full, owner);
      if (!updated) throw new LeaseLost();
      if (updated.status !== doc.status) {
        log?.info({ documentId: doc.id, encf: doc.encf, from: doc.status, to: updated.status, trackId: updated.trackId }, 'document status changed');
      }
      doc = updated;
      return updated;
    };

    /** Applies the table's row for `outcome`: logs, persists, and returns what the pass does next. */
    const apply = async (outcome: Outcome): Promise<'send' | 'reconcile' | 'poll' | 'verdict' | null> => {
      const t = transition(doc, outcome, deps.timing());
      if (t.log) {
        const err = errorSummary((outcome as { error?: unknown }).error);
        if (t.log === 'retry') log?.warn({ documentId: doc.id, encf: doc.encf, attempts: doc.attempts + 1, err }, 'authority call failed; will retry');
        else log?.error({ documentId: doc.id, encf: doc.encf, attempts: doc.attempts + 1, err }, 'document processing failed');
      }
      await persist(t.patch, t.release);
      return t.release ? null : (t.then ?? null);
    };

    const fileName = (issuer: Issuer) => dgiiFileName(issuer.rnc, doc.encf);

    /** Applies a verdict (result query or RFCE answer). */
    const applyVerdict = async (r: TrackResult, who: AuthorityIdentity, issuer: Issuer): Promise<void> => {
      const outcome = verdictOutcome(r);
      if (outcome.kind === 'not_found' && doc.notFoundPolls + 1 > deps.timing().notFoundRetries) {
        log?.warn({ documentId: doc.id, encf: doc.encf, trackId: doc.trackId }, 'authority does not find the transmission; checking its track ids');
      }
      if ((await apply(outcome)) === 'reconcile') await reconcile(who, issuer);
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
          await apply({ kind: 'rfce_answered' });
          await applyVerdict(verdict, who, issuer);
        } else {
          const receipt = await transport.sendEcf(who, { fileName: fileName(issuer), xml: doc.signedXml! });
          await storage.addSubmission(doc.id, 'ecf', receipt.trackId, null);
          await apply({ kind: 'ecf_received', trackId: receipt.trackId });
        }
      } catch (e) {
        if (e instanceof LeaseLost) throw e;
        const outcome = sendFailure(e);
        if (outcome.kind === 'reception_rejected') await storage.addSubmission(doc.id, kind, outcome.trackId, 'Rechazado');
        await apply(outcome);
      }
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
            await apply({ kind: 'held_rfce' });
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
          const held = latestHeld(entries);
          if (held) {
            const { latest, count } = held;
            log?.info(
              { documentId: doc.id, encf: doc.encf, trackId: latest.trackId, submissions: count },
              'authority already holds the e-CF; adopting its track id',
            );
            await recordSubmission('ecf', latest.trackId, latest.estado);
            await apply({ kind: 'held_ecf', trackId: latest.trackId });
            await pollResult(who, issuer);
            return;
          }
        }
      } catch (e) {
        if (e instanceof LeaseLost) throw e;
        await apply(queryFailure(e));
        return;
      }
      log?.info({ documentId: doc.id, encf: doc.encf }, 'authority does not hold the document; sending again');
      await apply({ kind: 'not_held' });
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
            await apply({ kind: 'no_track_id' });
            await reconcile(who, issuer);
            return;
          }
          r = await transport.result(who, doc.trackId);
        }
      } catch (e) {
        if (e instanceof LeaseLost) throw e;
        if (isAuthorityError(e) && e.code === 'not_found') {
          r = notFoundResult(doc);
        } else {
          await apply(queryFailure(e));
          return;
        }
      }
      await applyVerdict(r, who, issuer);
    };

    /** Signs (once) and validates what will be sent, then sends. */
    const prepareAndSend = async (signer: Signer, who: AuthorityIdentity, issuer: Issuer): Promise<void> => {
      const artifacts: DocumentPatch = {};
      let signed = doc.signedXml;
      if (!signed) {
        signed = await signEcf(doc.unsignedXml, signer, clock);
        await turn();
        checkSignature(await offload.verify(signed, 'background'), 'e-CF');
        checkSchema(
          await offload.validate(signed, `ECF-${doc.tipo}` as SchemaId, doc.summary ? { relaxed32: true } : undefined, 'background'),
          `ECF-${doc.tipo}` as SchemaId,
          'e-CF firmado',
        );
        artifacts.signedXml = signed;
        artifacts.securityCode = securityCode(signed);
        artifacts.signedAt = signingTimeOf(signed);
      }
      if (doc.summary && !doc.rfceXml) {
        await turn();
        const rfce = await signXml(await offload.deriveRfce(signed, 'background'), signer);
        await turn();
        checkSignature(await offload.verify(rfce, 'background'), 'RFCE');
        checkSchema(await offload.validate(rfce, 'RFCE', undefined, 'background'), 'RFCE', 'RFCE firmado');
        artifacts.rfceXml = rfce;
      }
      await apply({ kind: 'prepared', artifacts });
      await send(who, issuer);
    };

    try {
      if (TERMINAL.has(doc.status)) {
        await apply({ kind: 'terminal' });
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
        await apply({ kind: 'system_error', error: e });
      } catch (inner) {
        if (inner instanceof LeaseLost) return;
        log?.error({ documentId: doc.id, err: errorSummary(inner), started }, 'could not record the failure');
      }
    }
  };
}

function checkSignature(v: VerifyResult, what: string): void {
  if (!v.valid) throw new InternalFailure(`La firma del ${what} no se verificó después de firmar (${v.code}): ${v.reason ?? ''}`.trim());
}

function checkSchema(r: SchemaValidationResult, schema: SchemaId, what: string): void {
  if (r.valid) return;
  const first = r.violations
    .slice(0, 3)
    .map((v) => `${v.xpath ?? '?'}: ${v.message.trim()}`)
    .join('; ');
  throw new InternalFailure(`El ${what} no cumple el XSD ${schema} (${r.violations.length} error(es)): ${first}`);
}

function signingTimeOf(signed: string): string | null {
  // From the parsed document: a comment in passthrough XML must not stand for the signing time.
  return xmlValue(signed, ['FechaHoraFirma']);
}

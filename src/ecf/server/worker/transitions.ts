/**
 * The e-CF worker's transitions as a table: `state × outcome → patch`. Pure: each row takes the document as it
 * is, the outcome of the step just taken and the timing (now, poll and backoff delays) and returns the patch to
 * persist, whether this is the last write of the pass (the lease is released) and, if not, what the pass does
 * next. The I/O (signing, offloaded checks, authority calls) lives in ./ecf-steps.ts.
 *
 * | state (transmission)  | outcome              | patch                                                           | next       |
 * |-----------------------|----------------------|-----------------------------------------------------------------|------------|
 * | any, terminal status  | terminal             | no next attempt                                                 | (release)  |
 * | pending               | prepared             | signed artifacts, `sending`, sendAttempts + 1                   | send       |
 * | sending               | ecf_received         | track id, `sent`, in process, first poll scheduled              | (release)  |
 * | sending               | rfce_answered        | `sent`, attempts 0                                              | verdict    |
 * | sending               | reception_rejected   | rejected, `sent`, e-NCF reusable                                | (release)  |
 * | sending               | authority_refused    | system error, back to `pending` (nothing was received)          | (release)  |
 * | sending               | transport_refused    | retry later, back to `pending` (refused before processing)      | (release)  |
 * | sending / sent        | transport_retryable  | retry later, transmission kept (outcome may be unknown)         | (release)  |
 * | sending               | held_rfce            | `sent` (the authority holds the summary)                        | verdict    |
 * | sending               | held_ecf             | its track id, `sent`, in process, attempts 0                    | poll       |
 * | sending               | not_held             | sendAttempts + 1                                                | send       |
 * | sent                  | no_track_id          | back to `sending`                                               | reconcile  |
 * | sent                  | accepted             | accepted (1 Aceptado, 4 Aceptado Condicional with its messages) | (release)  |
 * | sent                  | rejected             | rejected with the messages, e-NCF reusable per the authority    | (release)  |
 * | sent                  | in_process           | in process, next poll scheduled                                 | (release)  |
 * | sent                  | not_found (≤ N)      | count kept, short poll scheduled                                | (release)  |
 * | sent                  | not_found (> N)      | back to `sending`, count reset                                  | reconcile  |
 * | any                   | system_error         | `system_error` with the reason, retry scheduled                 | (release)  |
 */
import { EcfError, isAuthorityError, isEcfError, isTransportError } from '../../index.js';
import type { TrackResult } from '../../dgii/index.js';
import { isOffloadError } from '../offload/pool.js';
import type { DocumentPatch, DocumentRecord, DocumentStatus } from '../storage/types.js';

/** Statuses no step changes any more. */
export const TERMINAL: ReadonlySet<DocumentStatus> = new Set(['accepted_authority', 'rejected_authority', 'rejected_validation']);

/** What the transitions read of a document. */
export type DocumentState = Pick<DocumentRecord, 'attempts' | 'notFoundPolls' | 'trackId' | 'sendAttempts'>;

/** When things happen again (injected: the backoff carries jitter). */
export interface Timing {
  /** Now, in milliseconds since the epoch. */
  now: number;
  /** Delay before result poll number `n` (0 = the first after the transmission). */
  poll(n: number): number;
  /** Delay before retry number `n` (0 = the first), with jitter. */
  backoff(n: number): number;
  /** Delay before the next poll after `count` "No encontrado" answers in a row. */
  notFoundDelay(count: number): number;
  /** "No encontrado" answers tolerated for a track id we hold before asking the track ids again. */
  notFoundRetries: number;
}

/** The outcome of one step of the pass. */
export type Outcome =
  | { kind: 'terminal' }
  /** Signed and validated; `artifacts` holds what was produced now (signed XML, security code, signing time, RFCE). */
  | { kind: 'prepared'; artifacts: DocumentPatch }
  | { kind: 'ecf_received'; trackId: string }
  | { kind: 'rfce_answered' }
  | { kind: 'reception_rejected'; trackId: string | null; status: number; texts: string[] }
  | { kind: 'authority_refused'; error: unknown }
  | { kind: 'transport_refused'; error: unknown }
  | { kind: 'transport_retryable'; error: unknown }
  | { kind: 'held_rfce' }
  | { kind: 'held_ecf'; trackId: string | null }
  | { kind: 'not_held' }
  | { kind: 'no_track_id' }
  | { kind: 'accepted'; result: TrackResult }
  | { kind: 'rejected'; result: TrackResult }
  | { kind: 'in_process'; result: TrackResult }
  | { kind: 'not_found'; result: TrackResult }
  | { kind: 'system_error'; error: unknown };

export type OutcomeKind = Outcome['kind'];

export interface Transition {
  patch: DocumentPatch;
  /** True: the last write of this pass (the lease is released). False: the lease is renewed and the pass goes on with `then`. */
  release: boolean;
  /** What the pass does after persisting (only when not released). */
  then?: 'send' | 'reconcile' | 'poll' | 'verdict';
  /** What the step logs with this write: a retryable authority failure, or a failure of the document. */
  log?: 'retry' | 'failure';
}

type Row<K extends OutcomeKind> = (doc: DocumentState, outcome: Extract<Outcome, { kind: K }>, t: Timing) => Transition;

const done = (patch: DocumentPatch): Transition => ({ patch, release: true });
const next = (patch: DocumentPatch, then: NonNullable<Transition['then']>): Transition => ({ patch, release: false, then });

/** Keeps the status, schedules a retry (a retryable failure talking to the authority). */
const retryLater = (doc: DocumentState, t: Timing, extra: DocumentPatch = {}): Transition => ({
  patch: { ...extra, attempts: doc.attempts + 1, nextAttemptAt: t.now + t.backoff(doc.attempts) },
  release: true,
  log: 'retry',
});

/** Internal failure: `system_error` with the reason, retried automatically. */
const systemError = (doc: DocumentState, t: Timing, error: unknown, extra: DocumentPatch = {}): Transition => ({
  patch: { ...extra, status: 'system_error', errors: [reasonOf(error)], attempts: doc.attempts + 1, nextAttemptAt: t.now + t.backoff(doc.attempts) },
  release: true,
  log: 'failure',
});

/** The table, one small function per outcome. */
export const TRANSITIONS: { [K in OutcomeKind]: Row<K> } = {
  terminal: () => done({ nextAttemptAt: null }),

  // Persisted BEFORE the network call: after a crash from here on, the next pass asks the authority what it
  // holds instead of sending again.
  prepared: (doc, o) => next({ ...o.artifacts, transmission: 'sending', sendAttempts: doc.sendAttempts + 1 }, 'send'),

  ecf_received: (_doc, o, t) =>
    done({
      trackId: o.trackId,
      transmission: 'sent',
      status: 'in_process_authority',
      authorityState: null,
      notFoundPolls: 0,
      errors: null,
      attempts: 0,
      nextAttemptAt: t.now + t.poll(0),
    }),

  rfce_answered: () => next({ transmission: 'sent', attempts: 0 }, 'verdict'),

  // A definitive refusal at reception: nothing was registered, the e-NCF may be used again.
  reception_rejected: (doc, o) =>
    done({
      status: 'rejected_authority',
      authorityState: 'Rechazado',
      transmission: 'sent',
      trackId: o.trackId ?? doc.trackId,
      errors: o.texts.length > 0 ? o.texts : [`La DGII rechazó la recepción del comprobante (HTTP ${o.status}).`],
      sequenceReusable: true,
      attempts: doc.attempts + 1,
      nextAttemptAt: null,
    }),

  // 401/403 (certificate not delegated, …) or 404 (wrong endpoint): not about this document; the authority
  // answered, so nothing was received and a plain resend is safe once it is fixed.
  authority_refused: (doc, o, t) => systemError(doc, t, o.error, { transmission: 'pending' }),

  // Refused before processing (connection refused, 503 …): resending is safe.
  transport_refused: (doc, _o, t) => retryLater(doc, t, { transmission: 'pending' }),

  // The request may have been processed: leave the transmission as it is, the next pass asks the authority first.
  transport_retryable: (doc, _o, t) => retryLater(doc, t),

  held_rfce: () => next({ transmission: 'sent' }, 'verdict'),

  held_ecf: (_doc, o) => next({ trackId: o.trackId, transmission: 'sent', status: 'in_process_authority', errors: null, attempts: 0 }, 'poll'),

  not_held: (doc) => next({ sendAttempts: doc.sendAttempts + 1 }, 'send'),

  no_track_id: () => next({ transmission: 'sending' }, 'reconcile'),

  accepted: (doc, o) => {
    const r = o.result;
    const texts = messageTexts(r);
    return done({
      status: 'accepted_authority',
      authorityState: r.estado,
      trackId: r.trackId ?? doc.trackId,
      transmission: 'sent',
      errors: r.codigo === 4 && texts.length > 0 ? texts : null,
      sequenceReusable: null,
      attempts: doc.attempts + 1,
      nextAttemptAt: null,
    });
  },

  rejected: (doc, o) => {
    const r = o.result;
    const texts = messageTexts(r);
    return done({
      status: 'rejected_authority',
      authorityState: r.estado,
      trackId: r.trackId ?? doc.trackId,
      transmission: 'sent',
      errors: texts.length > 0 ? texts : ['La DGII rechazó el comprobante sin indicar el motivo.'],
      sequenceReusable: r.secuenciaUtilizada === null ? null : !r.secuenciaUtilizada,
      attempts: doc.attempts + 1,
      nextAttemptAt: null,
    });
  },

  in_process: (doc, o, t) =>
    done({
      status: 'in_process_authority',
      authorityState: o.result.estado,
      notFoundPolls: 0,
      trackId: o.result.trackId ?? doc.trackId,
      errors: null,
      attempts: doc.attempts + 1,
      nextAttemptAt: t.now + t.poll(doc.attempts + 1),
    }),

  // "No encontrado" for something the authority acknowledged: it may lag a moment; after a few tries, go back
  // to asking what it holds for the e-NCF (and resend only if nothing). The count is stored with the document,
  // so a restarted worker continues it.
  not_found: (doc, o, t) => {
    const count = doc.notFoundPolls + 1;
    if (count <= t.notFoundRetries) {
      return done({ authorityState: o.result.estado, notFoundPolls: count, attempts: doc.attempts + 1, nextAttemptAt: t.now + t.notFoundDelay(count) });
    }
    return next({ transmission: 'sending', authorityState: o.result.estado, notFoundPolls: 0 }, 'reconcile');
  },

  system_error: (doc, o, t) => systemError(doc, t, o.error),
};

/** The row for `outcome` applied to `doc`. */
export function transition(doc: DocumentState, outcome: Outcome, t: Timing): Transition {
  return (TRANSITIONS[outcome.kind] as Row<OutcomeKind>)(doc, outcome as never, t);
}

// --- classifying what the authority and the transport said ----------------------------------------------

/** A verdict (result query or RFCE answer) as an outcome. */
export function verdictOutcome(result: TrackResult): Extract<Outcome, { result: TrackResult }> {
  switch (result.codigo) {
    case 1:
    case 4:
      return { kind: 'accepted', result };
    case 2:
      return { kind: 'rejected', result };
    case 3:
      return { kind: 'in_process', result };
    default:
      return { kind: 'not_found', result };
  }
}

/** The verdict standing for an authority's "not found" answer to a result query. */
export function notFoundResult(doc: Pick<DocumentRecord, 'trackId' | 'encf'>): TrackResult {
  return { trackId: doc.trackId, codigo: 0, estado: 'No encontrado', rnc: null, encf: doc.encf, secuenciaUtilizada: null, fechaRecepcion: null, mensajes: [] };
}

/** A failed send (e-CF or RFCE) as an outcome. */
export function sendFailure(e: unknown): Outcome {
  if (isAuthorityError(e)) {
    if (e.code === 'rejected')
      return { kind: 'reception_rejected', trackId: e.trackId, status: e.status, texts: e.mensajes.map((m) => m.valor.trim()).filter((x) => x !== '') };
    return { kind: 'authority_refused', error: e };
  }
  if (isTransportError(e)) {
    if (e.retryable && !e.outcomeUnknown) return { kind: 'transport_refused', error: e };
    if (e.retryable) return { kind: 'transport_retryable', error: e };
    return { kind: 'system_error', error: e };
  }
  // Anything else happened after `sending` was persisted: the outcome is unknown, keep `sending`.
  return { kind: 'system_error', error: e };
}

/** A failed authority call outside the send itself (poll, track ids, RFCE verdict) as an outcome. */
export function queryFailure(e: unknown): Outcome {
  return isTransportError(e) && e.retryable ? { kind: 'transport_retryable', error: e } : { kind: 'system_error', error: e };
}

/** Of the track ids the authority holds for an e-NCF, the latest received (null: it holds none). */
export function latestHeld<T extends { trackId: string | null; estado: string; fechaRecepcion: Date | null }>(
  entries: readonly T[],
): { latest: T; count: number } | null {
  const known = entries.filter((x) => x.trackId && x.estado !== 'No encontrado');
  if (known.length === 0) return null;
  const latest = known.reduce((a, b) => ((b.fechaRecepcion?.getTime() ?? 0) >= (a.fechaRecepcion?.getTime() ?? 0) ? b : a));
  return { latest, count: known.length };
}

// The kit's guards (by name and fields, robust to duplicated module copies of the error classes).
export { isAuthorityError, isTransportError };

function messageTexts(r: TrackResult): string[] {
  return r.mensajes.map((m) => m.valor.trim()).filter((t) => t !== '');
}

/** A failure whose message is already Spanish, for the document's `errors`. */
export class InternalFailure extends EcfError {
  constructor(message: string) {
    super(message, { code: 'internal_failure' });
    this.name = 'InternalFailure';
  }
}

/** The reason stored in `errors` of a `system_error` (Spanish; never XML, tokens or keys). */
export function reasonOf(e: unknown): string {
  if (e instanceof InternalFailure) return e.message;
  if (isOffloadError(e)) {
    return e.code === 'timeout'
      ? 'La verificación del documento excedió el tiempo permitido. Se reintentará automáticamente.'
      : 'El servicio estaba ocupado con otros documentos. Se reintentará automáticamente.';
  }
  if (isEcfError(e) && e.name === 'SignerUnavailableError') return e.message;
  if (isAuthorityError(e)) {
    const texts = e.mensajes.map((m) => m.valor.trim()).filter(Boolean);
    return `La DGII respondió HTTP ${e.status}${texts.length ? `: ${texts.join('; ')}` : ''}. Se reintentará automáticamente.`;
  }
  if (isTransportError(e))
    return `No se obtuvo respuesta definitiva de la DGII (${e.code}${e.status ? ` HTTP ${e.status}` : ''}). Se reintentará automáticamente.`;
  const detail = e instanceof Error ? e.message : String(e);
  return `Error interno del servicio: ${detail.slice(0, 500)}. Se reintentará automáticamente.`;
}

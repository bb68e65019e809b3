/** The worker's transition table, row by row (pure: no storage, no authority, no clock). */
import { describe, expect, it } from 'vitest';
import { AuthorityError, TransportError } from '../../../../src/ecf/dgii/index.js';
import type { TrackResult } from '../../../../src/ecf/dgii/index.js';
import {
  InternalFailure,
  latestHeld,
  notFoundResult,
  queryFailure,
  reasonOf,
  sendFailure,
  transition,
  TRANSITIONS,
  verdictOutcome,
  type DocumentState,
  type OutcomeKind,
  type Timing,
} from '../../../../src/ecf/server/worker/transitions.js';

const NOW = 1_700_000_000_000;
const timing: Timing = {
  now: NOW,
  poll: (n) => 500 * 2 ** n,
  backoff: (n) => 1_000 * 2 ** n,
  notFoundDelay: (count) => 100 * count,
  notFoundRetries: 3,
};
const doc = (over: Partial<DocumentState> = {}): DocumentState => ({ attempts: 2, notFoundPolls: 0, trackId: 'T-OLD', sendAttempts: 1, ...over });
const result = (over: Partial<TrackResult> = {}): TrackResult => ({
  trackId: 'T-NEW',
  codigo: 1,
  estado: 'Aceptado',
  rnc: '131880681',
  encf: 'E310000000001',
  secuenciaUtilizada: true,
  fechaRecepcion: null,
  mensajes: [],
  ...over,
});
const transportError = (retryable: boolean, outcomeUnknown: boolean) =>
  new TransportError('boom', { code: retryable ? 'network' : 'bad_response', retryable, outcomeUnknown, status: null });

const covered = new Set<OutcomeKind>();
const row = (kind: OutcomeKind) => {
  covered.add(kind);
  return kind;
};

describe('worker transitions', () => {
  it(row('terminal'), () => {
    expect(transition(doc(), { kind: 'terminal' }, timing)).toEqual({ patch: { nextAttemptAt: null }, release: true });
  });

  it(row('prepared'), () => {
    const artifacts = { signedXml: '<ECF/>', securityCode: 'abc123', signedAt: '01-01-2025 10:00:00' };
    expect(transition(doc(), { kind: 'prepared', artifacts }, timing)).toEqual({
      patch: { ...artifacts, transmission: 'sending', sendAttempts: 2 },
      release: false,
      then: 'send',
    });
    // Already signed in an earlier pass: only the transmission changes.
    expect(transition(doc(), { kind: 'prepared', artifacts: {} }, timing).patch).toEqual({ transmission: 'sending', sendAttempts: 2 });
  });

  it(row('ecf_received'), () => {
    expect(transition(doc(), { kind: 'ecf_received', trackId: 'T-1' }, timing)).toEqual({
      patch: {
        trackId: 'T-1',
        transmission: 'sent',
        status: 'in_process_authority',
        authorityState: null,
        notFoundPolls: 0,
        errors: null,
        attempts: 0,
        nextAttemptAt: NOW + 500,
      },
      release: true,
    });
  });

  it(row('rfce_answered'), () => {
    expect(transition(doc(), { kind: 'rfce_answered' }, timing)).toEqual({ patch: { transmission: 'sent', attempts: 0 }, release: false, then: 'verdict' });
  });

  it(row('reception_rejected'), () => {
    const t = transition(doc(), { kind: 'reception_rejected', trackId: null, status: 400, texts: ['RNC inválido'] }, timing);
    expect(t).toEqual({
      patch: {
        status: 'rejected_authority',
        authorityState: 'Rechazado',
        transmission: 'sent',
        trackId: 'T-OLD',
        errors: ['RNC inválido'],
        sequenceReusable: true,
        attempts: 3,
        nextAttemptAt: null,
      },
      release: true,
    });
    const bare = transition(doc(), { kind: 'reception_rejected', trackId: 'T-R', status: 400, texts: [] }, timing);
    expect(bare.patch.trackId).toBe('T-R');
    expect(bare.patch.errors).toEqual(['La DGII rechazó la recepción del comprobante (HTTP 400).']);
  });

  it(row('authority_refused'), () => {
    const error = new AuthorityError('unauthorized', { code: 'unauthorized', status: 403, mensajes: [{ codigo: null, valor: 'No delegado' }] });
    expect(transition(doc(), { kind: 'authority_refused', error }, timing)).toEqual({
      patch: {
        transmission: 'pending',
        status: 'system_error',
        errors: ['La DGII respondió HTTP 403: No delegado. Se reintentará automáticamente.'],
        attempts: 3,
        nextAttemptAt: NOW + 4_000,
      },
      release: true,
      log: 'failure',
    });
  });

  it(row('transport_refused'), () => {
    expect(transition(doc(), { kind: 'transport_refused', error: transportError(true, false) }, timing)).toEqual({
      patch: { transmission: 'pending', attempts: 3, nextAttemptAt: NOW + 4_000 },
      release: true,
      log: 'retry',
    });
  });

  it(row('transport_retryable'), () => {
    expect(transition(doc({ attempts: 0 }), { kind: 'transport_retryable', error: transportError(true, true) }, timing)).toEqual({
      patch: { attempts: 1, nextAttemptAt: NOW + 1_000 },
      release: true,
      log: 'retry',
    });
  });

  it(row('held_rfce'), () => {
    expect(transition(doc(), { kind: 'held_rfce' }, timing)).toEqual({ patch: { transmission: 'sent' }, release: false, then: 'verdict' });
  });

  it(row('held_ecf'), () => {
    expect(transition(doc(), { kind: 'held_ecf', trackId: 'T-H' }, timing)).toEqual({
      patch: { trackId: 'T-H', transmission: 'sent', status: 'in_process_authority', errors: null, attempts: 0 },
      release: false,
      then: 'poll',
    });
  });

  it(row('not_held'), () => {
    expect(transition(doc(), { kind: 'not_held' }, timing)).toEqual({ patch: { sendAttempts: 2 }, release: false, then: 'send' });
  });

  it(row('no_track_id'), () => {
    expect(transition(doc({ trackId: null }), { kind: 'no_track_id' }, timing)).toEqual({
      patch: { transmission: 'sending' },
      release: false,
      then: 'reconcile',
    });
  });

  it(row('accepted'), () => {
    expect(transition(doc(), { kind: 'accepted', result: result() }, timing)).toEqual({
      patch: {
        status: 'accepted_authority',
        authorityState: 'Aceptado',
        trackId: 'T-NEW',
        transmission: 'sent',
        errors: null,
        sequenceReusable: null,
        attempts: 3,
        nextAttemptAt: null,
      },
      release: true,
    });
    // Aceptado Condicional keeps its messages; a verdict without a track id keeps the one held.
    const conditional = result({
      codigo: 4,
      estado: 'Aceptado Condicional',
      trackId: null,
      mensajes: [
        { codigo: '1', valor: ' Observación ' },
        { codigo: '2', valor: ' ' },
      ],
    });
    const t = transition(doc(), { kind: 'accepted', result: conditional }, timing);
    expect(t.patch.errors).toEqual(['Observación']);
    expect(t.patch.trackId).toBe('T-OLD');
    expect(t.patch.authorityState).toBe('Aceptado Condicional');
  });

  it(row('rejected'), () => {
    const r = result({ codigo: 2, estado: 'Rechazado', secuenciaUtilizada: false, mensajes: [{ codigo: '1', valor: 'Firma inválida' }] });
    expect(transition(doc(), { kind: 'rejected', result: r }, timing)).toEqual({
      patch: {
        status: 'rejected_authority',
        authorityState: 'Rechazado',
        trackId: 'T-NEW',
        transmission: 'sent',
        errors: ['Firma inválida'],
        sequenceReusable: true,
        attempts: 3,
        nextAttemptAt: null,
      },
      release: true,
    });
    const bare = transition(doc(), { kind: 'rejected', result: result({ codigo: 2, estado: 'Rechazado', secuenciaUtilizada: null }) }, timing).patch;
    expect(bare.errors).toEqual(['La DGII rechazó el comprobante sin indicar el motivo.']);
    expect(bare.sequenceReusable).toBeNull();
    expect(
      transition(doc(), { kind: 'rejected', result: result({ codigo: 2, estado: 'Rechazado', secuenciaUtilizada: true }) }, timing).patch.sequenceReusable,
    ).toBe(false);
  });

  it(row('in_process'), () => {
    expect(transition(doc({ notFoundPolls: 2 }), { kind: 'in_process', result: result({ codigo: 3, estado: 'En Proceso', trackId: null }) }, timing)).toEqual({
      patch: {
        status: 'in_process_authority',
        authorityState: 'En Proceso',
        notFoundPolls: 0,
        trackId: 'T-OLD',
        errors: null,
        attempts: 3,
        nextAttemptAt: NOW + 500 * 2 ** 3,
      },
      release: true,
    });
  });

  it(row('not_found'), () => {
    const r = result({ codigo: 0, estado: 'No encontrado' });
    // Up to notFoundRetries answers: wait a little and ask again.
    expect(transition(doc({ notFoundPolls: 2 }), { kind: 'not_found', result: r }, timing)).toEqual({
      patch: { authorityState: 'No encontrado', notFoundPolls: 3, attempts: 3, nextAttemptAt: NOW + 300 },
      release: true,
    });
    // One more: back to `sending`, ask the authority what it holds for the e-NCF.
    expect(transition(doc({ notFoundPolls: 3 }), { kind: 'not_found', result: r }, timing)).toEqual({
      patch: { transmission: 'sending', authorityState: 'No encontrado', notFoundPolls: 0 },
      release: false,
      then: 'reconcile',
    });
  });

  it(row('system_error'), () => {
    expect(transition(doc(), { kind: 'system_error', error: new InternalFailure('La firma no se verificó') }, timing)).toEqual({
      patch: { status: 'system_error', errors: ['La firma no se verificó'], attempts: 3, nextAttemptAt: NOW + 4_000 },
      release: true,
      log: 'failure',
    });
  });

  it('has a test for every row of the table', () => {
    expect([...covered].sort()).toEqual(Object.keys(TRANSITIONS).sort());
  });
});

describe('worker outcome classification', () => {
  it('maps verdict codes to rows', () => {
    expect(verdictOutcome(result({ codigo: 1 })).kind).toBe('accepted');
    expect(verdictOutcome(result({ codigo: 4 })).kind).toBe('accepted');
    expect(verdictOutcome(result({ codigo: 2 })).kind).toBe('rejected');
    expect(verdictOutcome(result({ codigo: 3 })).kind).toBe('in_process');
    expect(verdictOutcome(result({ codigo: 0 })).kind).toBe('not_found');
    expect(notFoundResult({ trackId: 'T', encf: 'E310000000001' })).toMatchObject({
      codigo: 0,
      estado: 'No encontrado',
      trackId: 'T',
      encf: 'E310000000001',
      mensajes: [],
    });
  });

  it('classifies a failed send', () => {
    const rejected = new AuthorityError('no', {
      code: 'rejected',
      status: 400,
      trackId: 'T-R',
      mensajes: [
        { codigo: null, valor: ' Mal ' },
        { codigo: null, valor: '' },
      ],
    });
    expect(sendFailure(rejected)).toEqual({ kind: 'reception_rejected', trackId: 'T-R', status: 400, texts: ['Mal'] });
    expect(sendFailure(new AuthorityError('no', { code: 'unauthorized', status: 401 })).kind).toBe('authority_refused');
    expect(sendFailure(transportError(true, false)).kind).toBe('transport_refused');
    expect(sendFailure(transportError(true, true)).kind).toBe('transport_retryable');
    expect(sendFailure(transportError(false, true)).kind).toBe('system_error');
    expect(sendFailure(new Error('bug')).kind).toBe('system_error');
  });

  it('classifies a failed query', () => {
    expect(queryFailure(transportError(true, true)).kind).toBe('transport_retryable');
    expect(queryFailure(transportError(true, false)).kind).toBe('transport_retryable');
    expect(queryFailure(transportError(false, false)).kind).toBe('system_error');
    expect(queryFailure(new AuthorityError('no', { code: 'rejected', status: 400 })).kind).toBe('system_error');
  });

  it('picks the latest track id the authority holds', () => {
    const at = (iso: string) => new Date(iso);
    expect(latestHeld([])).toBeNull();
    expect(
      latestHeld([
        { trackId: 'A', estado: 'No encontrado', fechaRecepcion: null },
        { trackId: null, estado: 'Aceptado', fechaRecepcion: null },
      ]),
    ).toBeNull();
    const held = latestHeld([
      { trackId: 'A', estado: 'Aceptado', fechaRecepcion: at('2025-01-01T10:00:00Z') },
      { trackId: 'B', estado: 'Rechazado', fechaRecepcion: at('2025-01-02T10:00:00Z') },
      { trackId: 'C', estado: 'No encontrado', fechaRecepcion: at('2025-01-03T10:00:00Z') },
    ]);
    expect(held?.latest.trackId).toBe('B');
    expect(held?.count).toBe(2);
  });

  it('writes Spanish reasons for system errors', () => {
    expect(reasonOf(transportError(true, true))).toBe('No se obtuvo respuesta definitiva de la DGII (network). Se reintentará automáticamente.');
    expect(reasonOf(new Error('x'.repeat(600)))).toBe(`Error interno del servicio: ${'x'.repeat(500)}. Se reintentará automáticamente.`);
    const offload = Object.assign(new Error('t'), { name: 'OffloadError', code: 'timeout' });
    expect(reasonOf(offload)).toMatch(/excedió el tiempo permitido/);
  });
});

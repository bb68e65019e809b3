/**
 * Voiding of unused e-NCF ranges (ANECF), independent of HTTP.
 *
 * Order of a voiding, and why:
 * 1. The request rules (≤ 10 types, ≤ 10,000 ranges per type, inverted and overlapping ranges) and the
 *    checks against the issuer's data (ranges inside its authorized sequences, no issued e-CF inside, no
 *    overlap with a pending attempt) all fail as `invalid` before anything is recorded or sent.
 * 2. The ANECF is built and signed before the attempt is recorded, so a local failure leaves nothing behind.
 * 3. The attempt is recorded with `accepted` null (storage withholds its consecutives from then on), then
 *    sent. The authority answers in the same call: accepted → settled true (pointers jump past the ranges);
 *    rejected → settled false (the numbers are available again).
 * 4. If the outcome is unknown (dropped connection, timeout, the authority unreachable) the attempt stays
 *    null and its numbers withheld. Sending the same ranges again reuses that attempt (same `lote`) and
 *    resends it; its answer settles it. A resend refused only because the ranges are "already voided"
 *    means the first send went through: it is settled as accepted.
 *
 * Attempts of one issuer are serialized per `createVoiding` instance (one per process), so two concurrent
 * requests cannot record overlapping pending attempts.
 */
import { randomBytes } from 'node:crypto';
import {
  buildAnecfXml,
  checkAnecfRanges,
  composeEncf,
  dgiiFileName,
  formatDateTimeDO,
  isAuthorityError,
  isTransportError,
  MAX_ANECF_RANGES,
  MAX_ANECF_TYPES,
  type EcfType,
  type SchemaValidator,
} from '../../index.js';
import { mergeRanges } from '../../../shared/server-kit/ranges.js';
import type { AuthorityIdentity, AuthorityTransport, VoidingReceipt } from '../../dgii/index.js';
import { signXml } from '../../sign/index.js';
import type { Issuer, Storage, VoidBatch } from '../storage/types.js';
import { authorityMessages } from './messages.js';
import { invalidRequest } from './errors.js';
import type { IdentityOf, NowFn, UseCaseLogger } from './ports.js';

/** Distinct e-CF types per request (`Anulacion` maxOccurs in the ANECF XSD). */
export const MAX_VOID_TYPES = MAX_ANECF_TYPES;
/** Ranges per type (`Secuencias` maxOccurs in the ANECF XSD). */
export const MAX_VOID_RANGES_PER_TYPE = MAX_ANECF_RANGES;
/** Attempts listed by the history. */
export const VOID_HISTORY_LIMIT = 200;
/** Issued e-NCF named in one refusal (the rest are summarised). */
const ISSUED_SHOWN = 20;

export const VOID_MESSAGES = {
  invalid: 'La solicitud de anulación no es válida: no se transmitió a la autoridad tributaria y no se anuló ningún e-NCF.',
  accepted: (lote: string, n: number) => `Anulación aceptada por la autoridad tributaria (lote ${lote}): ${n} e-NCF anulados; no se asignarán nunca.`,
  rejected: (lote: string) => `La autoridad tributaria rechazó la anulación (lote ${lote}): la secuencia queda intacta y sus e-NCF siguen disponibles.`,
  unknown: (lote: string) =>
    `No se conoce el resultado de la anulación (lote ${lote}): la comunicación con la autoridad tributaria falló. ` +
    'Los e-NCF de los rangos quedan retenidos (no se asignan) hasta resolverlo: reintente la misma solicitud con los mismos rangos; ' +
    'si la autoridad la acepta quedan anulados y, si la rechaza, vuelven a estar disponibles.',
  alreadyVoided: 'La autoridad informa que los rangos ya estaban anulados: el envío anterior de este lote fue aceptado.',
} as const;

// "El rango … ya fue anulado", "ya han sido anulados", "ya se encuentra anulado": the answer to a resend of
// an attempt whose first send was accepted.
const ALREADY_VOIDED = /\bya\s+(?:fue|fueron|ha\s+sido|han\s+sido|est[aá]n?|se\s+encuentran?)\s+anulad/i;

/** A range as requested: consecutives, and its position in the request (for error paths `rangos.N`). */
export interface RequestedRange {
  tipo: EcfType;
  from: number;
  to: number;
  index: number;
}

type Range = { tipo: EcfType; from: number; to: number };

const label = (r: Range) => `${composeEncf(r.tipo, r.from)}–${composeEncf(r.tipo, r.to)}`;
/** Consecutives in a range. */
export const rangeCount = (r: Range) => r.to - r.from + 1;

/** The request-only rules: at most 10 types and 10,000 ranges per type, no inverted or overlapping ranges. */
export function requestProblems(ranges: readonly RequestedRange[]): Record<string, string[]> | null {
  const detailed: Record<string, string[]> = {};
  const push = (k: string, m: string) => (detailed[k] ??= []).push(m);
  const byType = new Map<EcfType, RequestedRange[]>();
  for (const r of ranges) {
    const list = byType.get(r.tipo);
    if (list) list.push(r);
    else byType.set(r.tipo, [r]);
  }
  if (byType.size > MAX_VOID_TYPES)
    push('rangos', `Admite como máximo ${MAX_VOID_TYPES} tipos de e-CF distintos por solicitud (se recibieron ${byType.size}).`);
  for (const [tipo, list] of byType) {
    // The SDK's ANECF rules (bounds were checked by the schema); the messages name the request's positions.
    for (const f of checkAnecfRanges(list.map((r) => ({ desde: r.from, hasta: r.to }))).findings) {
      if (f.kind === 'too_many_ranges') {
        push(
          'rangos',
          `Admite como máximo ${MAX_VOID_RANGES_PER_TYPE.toLocaleString('en-US')} rangos por tipo; el tipo ${tipo} trae ${list.length.toLocaleString('en-US')}.`,
        );
      } else if (f.kind === 'inverted') {
        const r = list[f.range]!;
        push(`rangos.${r.index}`, `Rango invertido: desde (${r.from}) es mayor que hasta (${r.to}).`);
      } else if (f.kind === 'overlap') {
        const r = list[f.range]!;
        const reach = list[f.with]!;
        push(`rangos.${r.index}`, `El rango ${label(r)} se solapa con el rango ${label(reach)} (rangos.${reach.index}) del mismo tipo.`);
      }
    }
  }
  return Object.keys(detailed).length ? detailed : null;
}

/**
 * A lookup of the pending attempt (if any) with a range overlapping a given one: per type, the pending
 * ranges sorted by start with a running maximum of their ends, searched by bisection (requests and
 * attempts may hold 100,000 ranges each).
 */
function pendingIndex(pending: VoidBatch[]): (r: Range) => VoidBatch | null {
  const byType = new Map<EcfType, { from: number; to: number; batch: VoidBatch; reach: number }[]>();
  for (const b of pending) {
    for (const x of b.ranges) {
      const list = byType.get(x.tipo);
      const item = { from: x.from, to: x.to, batch: b, reach: 0 };
      if (list) list.push(item);
      else byType.set(x.tipo, [item]);
    }
  }
  for (const list of byType.values()) {
    list.sort((a, b) => a.from - b.from);
    let reach = 0;
    for (const item of list) item.reach = reach = Math.max(reach, item.to);
  }
  return (r) => {
    const list = byType.get(r.tipo);
    if (!list) return null;
    // Last item starting at or before r.to; walk back while some earlier range still reaches r.from.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.from <= r.to) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0 && list[i]!.reach >= r.from; i--) {
      if (list[i]!.to >= r.from) return list[i]!.batch;
    }
    return null;
  };
}

/** Order-insensitive identity of a set of ranges. */
function rangesKey(ranges: Range[]): string {
  return ranges
    .map((r) => `${r.tipo}:${r.from}-${r.to}`)
    .sort()
    .join(',');
}

export interface VoidingDeps {
  storage: Pick<Storage, 'listSequences' | 'findIssuedInRanges' | 'listVoidBatches' | 'createVoidBatch' | 'settleVoidBatch'>;
  transport: Pick<AuthorityTransport, 'voidRanges'>;
  schemas: SchemaValidator;
  clock: NowFn;
  logger: UseCaseLogger;
  identity: IdentityOf;
  /** A new attempt id (default: `ANU` + Dominican date and time + 6 random hex digits). */
  newLote?: () => string;
}

/**
 * What became of a voiding that reached the authority (or tried to):
 * - `accepted` / `rejected`: settled; `batch.accepted` true / false.
 * - `unknown`: the outcome is not known (`batch.accepted` null, numbers withheld); `retryable` when the
 *   authority was unreachable or the connection dropped (as opposed to an unreadable answer).
 */
export type VoidingOutcome =
  | { kind: 'accepted'; batch: VoidBatch }
  | { kind: 'rejected'; batch: VoidBatch }
  | { kind: 'unknown'; batch: VoidBatch; retryable: boolean };

export interface Voiding {
  /** Voids `requested` for `issuer`; throws `UseCaseError('invalid')` (nothing recorded, nothing sent) for a refused request. */
  voidRanges(issuer: Issuer, requested: readonly RequestedRange[]): Promise<VoidingOutcome>;
  /** The latest attempts of the issuer, newest first. */
  history(issuer: Issuer): Promise<VoidBatch[]>;
}

export function createVoiding(deps: VoidingDeps): Voiding {
  const { storage, transport, schemas, clock, logger } = deps;
  const locks = new Map<number, Promise<void>>();

  /** Runs `fn` after every earlier voiding of the same issuer through this instance. */
  async function serialized<T>(issuerId: number, fn: () => Promise<T>): Promise<T> {
    const previous = locks.get(issuerId) ?? Promise.resolve();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const mine = previous.then(() => gate);
    locks.set(issuerId, mine);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (locks.get(issuerId) === mine) locks.delete(issuerId);
    }
  }

  const newLote =
    deps.newLote ??
    (() => {
      const [d, t] = formatDateTimeDO(clock()).split(' ');
      const [dd, mm, yyyy] = d!.split('-');
      return `ANU${yyyy}${mm}${dd}${t!.replace(/:/g, '')}${randomBytes(3).toString('hex').toUpperCase()}`;
    });

  /** Refusals from the issuer's data: sequences, issued e-CF, pending attempts. Returns a pending attempt to resend. */
  async function check(issuer: Issuer, ranges: readonly RequestedRange[]): Promise<VoidBatch | null> {
    const detailed: Record<string, string[]> = {};
    const push = (k: string, m: string) => (detailed[k] ??= []).push(m);

    const sequences = await storage.listSequences(issuer.id);
    const authorized = new Map<EcfType, { from: number; to: number }[]>();
    for (const tipo of new Set(ranges.map((r) => r.tipo))) authorized.set(tipo, mergeRanges(sequences.filter((s) => s.tipo === tipo)));
    for (const r of ranges) {
      if (!authorized.get(r.tipo)!.some((s) => s.from <= r.from && r.to <= s.to)) {
        push(`rangos.${r.index}`, `El rango ${label(r)} no está dentro de una secuencia autorizada del emisor para el tipo ${r.tipo}.`);
      }
    }

    const issued = await storage.findIssuedInRanges(
      issuer.id,
      ranges.map(({ tipo, from, to }) => ({ tipo, from, to })),
      ISSUED_SHOWN + 1,
    );
    for (const encf of issued.slice(0, ISSUED_SHOWN)) {
      const tipo = encf.slice(1, 3);
      const n = Number(encf.slice(3));
      const r = ranges.find((x) => x.tipo === tipo && x.from <= n && n <= x.to);
      push(
        r ? `rangos.${r.index}` : 'rangos',
        `El e-NCF ${encf} ya fue emitido: un comprobante emitido no se anula por rango. ` +
          'Revértalo con una nota de crédito electrónica (tipo 34) que lo referencie.',
      );
    }
    if (issued.length > ISSUED_SHOWN) push('rangos', `Los rangos contienen más e-NCF emitidos; se muestran los primeros ${ISSUED_SHOWN}.`);

    const pending = (await storage.listVoidBatches(issuer.id, VOID_HISTORY_LIMIT)).filter((b) => b.accepted === null);
    const key = rangesKey([...ranges]);
    const same = pending.find((b) => rangesKey(b.ranges) === key) ?? null;
    if (!same && pending.length > 0) {
      const overlapping = pendingIndex(pending);
      for (const r of ranges) {
        const b = overlapping(r);
        if (!b) continue;
        const shown = b.ranges.slice(0, 5).map(label).join(', ') + (b.ranges.length > 5 ? ` y ${b.ranges.length - 5} más` : '');
        push(
          `rangos.${r.index}`,
          `El rango ${label(r)} se superpone con el lote ${b.lote}, cuya anulación quedó pendiente (resultado desconocido). ` +
            `Para resolverlo, reintente exactamente los rangos de ese lote: ${shown}.`,
        );
      }
    }
    if (Object.keys(detailed).length) throw invalidRequest(VOID_MESSAGES.invalid, detailed);
    return same;
  }

  /** The signed ANECF of `ranges` (grouped by type, in ascending order, as the XSD lines). */
  async function signedAnecf(issuer: Issuer, who: AuthorityIdentity, ranges: Range[]): Promise<string> {
    const byType = new Map<EcfType, Range[]>();
    for (const r of [...ranges].sort((a, b) => a.tipo.localeCompare(b.tipo) || a.from - b.from)) {
      const list = byType.get(r.tipo);
      if (list) list.push(r);
      else byType.set(r.tipo, [r]);
    }
    const xml = buildAnecfXml({
      rnc_emisor: issuer.rnc,
      fecha_hora_anulacion_encf: formatDateTimeDO(clock()),
      anulaciones: [...byType].map(([tipo, list]) => ({ tipo_ecf: tipo, rangos: list.map((r) => ({ desde: r.from, hasta: r.to })) })),
    });
    const signed = await signXml(xml, who.signer);
    const xsd = schemas.validate(signed, 'ANECF');
    if (!xsd.valid) {
      logger.error({ issuer: issuer.rnc, violations: xsd.violations.slice(0, 5) }, 'built ANECF does not validate against the XSD');
      throw new Error('built ANECF does not validate against the XSD');
    }
    return signed;
  }

  async function voidRanges(issuer: Issuer, requested: readonly RequestedRange[]): Promise<VoidingOutcome> {
    const problems = requestProblems(requested);
    if (problems) throw invalidRequest(VOID_MESSAGES.invalid, problems);

    return serialized(issuer.id, async () => {
      const pending = await check(issuer, requested);
      const who = await deps.identity(issuer);
      const ranges: Range[] = pending ? pending.ranges : requested.map(({ tipo, from, to }) => ({ tipo, from, to }));
      const signed = await signedAnecf(issuer, who, ranges);
      // Recorded before sending: from here on its consecutives are withheld until the attempt is settled.
      const batch = pending ?? (await storage.createVoidBatch(issuer.id, newLote(), ranges));
      const first = ranges[0]!;
      // DGII documents no file name for the ANECF: RNC + first e-NCF voided, like the other uploads.
      const file = { fileName: dgiiFileName(issuer.rnc, composeEncf(first.tipo, first.from)), xml: signed };
      logger.info({ issuer: issuer.rnc, lote: batch.lote, ranges: ranges.length, resend: pending !== null }, 'sending range voiding');

      let receipt: VoidingReceipt;
      try {
        receipt = await transport.voidRanges(who, file);
      } catch (e) {
        if (isAuthorityError(e)) {
          // A definitive refusal (HTTP 4xx): the voiding was not applied.
          const mensajes = authorityMessages(e.mensajes);
          const settled = await storage.settleVoidBatch(batch.id, false, mensajes.length ? mensajes : [e.message]);
          logger.info({ issuer: issuer.rnc, lote: batch.lote }, 'range voiding refused by the authority');
          return { kind: 'rejected', batch: settled };
        }
        if (!isTransportError(e)) throw e;
        logger.warn(
          { issuer: issuer.rnc, lote: batch.lote, err: { code: e.code, message: e.message, outcomeUnknown: e.outcomeUnknown } },
          'range voiding outcome unknown',
        );
        return { kind: 'unknown', batch: { ...batch, accepted: null }, retryable: e.retryable === true };
      }

      let accepted = receipt.accepted;
      const messages = [...receipt.mensajes];
      if (!accepted && pending && messages.length > 0 && messages.every((m) => ALREADY_VOIDED.test(m))) {
        accepted = true;
        messages.push(VOID_MESSAGES.alreadyVoided);
      }
      const settled = await storage.settleVoidBatch(batch.id, accepted, messages);
      logger.info({ issuer: issuer.rnc, lote: batch.lote, accepted }, 'range voiding settled');
      return accepted ? { kind: 'accepted', batch: settled } : { kind: 'rejected', batch: settled };
    });
  }

  return {
    voidRanges,
    history: (issuer) => storage.listVoidBatches(issuer.id, VOID_HISTORY_LIMIT),
  };
}

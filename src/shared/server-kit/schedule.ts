/**
 * When the worker looks at a document again: growing intervals for result polls (the authority answers
 * "En Proceso" for a moment, ~200 ms on average, then much longer when it is loaded) and exponential backoff
 * with jitter for failures (so a fleet of workers that failed together does not retry together).
 */

/** Result polling: `initialMs · factor^n`, capped at `maxMs`. */
export interface PollSchedule {
  /** First poll after a transmission (default 500 ms). */
  initialMs?: number;
  /** Growth per poll (default 2). */
  factor?: number;
  /** Longest interval (default 5 minutes). */
  maxMs?: number;
}

/** Retries after failures: `baseMs · 2^n` capped at `capMs`, minus up to `jitter` of it at random. */
export interface RetrySchedule {
  /** First retry delay (default 1 s). */
  baseMs?: number;
  /** Longest delay (default 5 minutes; certificate problems wait at this pace for an upload). */
  capMs?: number;
  /** Fraction of the delay taken off at random, 0…1 (default 0.5: the delay lies in [50 %, 100 %]). */
  jitter?: number;
}

export const DEFAULT_POLL: Required<PollSchedule> = { initialMs: 500, factor: 2, maxMs: 300_000 };

/**
 * Longest wait between polls of a transmission the authority answered "No encontrado" for (30 s). Those polls
 * grow with the count of such answers in a row (not with the document's earlier polls), so the few of them
 * before the worker asks the track ids take seconds, never the 5-minute regular maximum.
 */
export const NOT_FOUND_MAX_MS = 30_000;

/** Delay before the next poll after `count` "No encontrado" answers in a row (1 = the first). */
export function notFoundDelay(count: number, schedule: PollSchedule = {}, maxMs: number = NOT_FOUND_MAX_MS): number {
  return Math.min(maxMs, pollDelay(count, schedule));
}
export const DEFAULT_RETRY: Required<RetrySchedule> = { baseMs: 1_000, capMs: 300_000, jitter: 0.5 };

/** Delay before poll number `n` (0 = the first poll after the transmission). */
export function pollDelay(n: number, schedule: PollSchedule = {}): number {
  const s = { ...DEFAULT_POLL, ...schedule };
  return Math.round(Math.min(s.maxMs, s.initialMs * s.factor ** Math.max(0, n)));
}

/** Delay before retry number `n` (0 = the first retry), with jitter from `random` (0 ≤ r < 1). */
export function retryDelay(n: number, schedule: RetrySchedule = {}, random: () => number = Math.random): number {
  const s = { ...DEFAULT_RETRY, ...schedule };
  const full = Math.min(s.capMs, s.baseMs * 2 ** Math.min(Math.max(0, n), 40));
  const jitter = Math.min(1, Math.max(0, s.jitter));
  return Math.max(1, Math.round(full * (1 - jitter * random())));
}

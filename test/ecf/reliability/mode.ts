/**
 * Reliability suites run in two sizes: a bounded reduced form inside `npm test` (CI) and the full form with
 * `npm run test:reliability` (`ECF_RELIABILITY=full`). Every suite reads its sizes from here.
 */
export const FULL = process.env.ECF_RELIABILITY === 'full';

/** `reduced` in CI, `full` with ECF_RELIABILITY=full. */
export function scale<T>(reduced: T, full: T): T {
  return FULL ? full : reduced;
}

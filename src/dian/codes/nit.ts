/** The check digit (DV) of a Colombian NIT: DIAN's modulo-11 with prime weights. */

const WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71] as const;

/**
 * The DV of a NIT given as its digits without the check digit (up to 15): the digits, right to left, times
 * 3, 7, 13, 17, 19, 23, …, 71, summed, modulo 11; a remainder of 0 or 1 is the DV, any other `r` gives `11 − r`.
 * `800197268` (DIAN) → `4`. Returns null for text that is not 1–15 digits.
 */
export function nitCheckDigit(nit: string): string | null {
  if (!/^\d{1,15}$/.test(nit)) return null;
  let sum = 0;
  for (let i = 0; i < nit.length; i++) sum += Number(nit[nit.length - 1 - i]) * WEIGHTS[i]!;
  const r = sum % 11;
  return String(r > 1 ? 11 - r : r);
}

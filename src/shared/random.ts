/**
 * A seeded pseudo-random generator for the simulators' fault injection (one per product): reproducible noise
 * from a 32-bit seed. Not for anything secret.
 *
 * Pure: no I/O.
 */

/** mulberry32: small, fast, good enough for test noise, and reproducible from a 32-bit seed; values in [0, 1). */
export function seededRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

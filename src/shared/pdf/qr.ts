/**
 * QR symbols for printed documents: byte mode at a chosen error-correction level and minimum version (the
 * product's print model says which, and why). The text is never shortened: a longer one takes the smallest larger version.
 */
import { encode } from 'uqr';

export type QrErrorCorrection = 'L' | 'M' | 'Q' | 'H';

export interface QrMatrix {
  version: number;
  /** Modules per side (no quiet zone). */
  size: number;
  errorCorrection: QrErrorCorrection;
  /** `dark[row][col]`. */
  dark: boolean[][];
}

/** Encodes `text` (byte mode) at `errorCorrection`, version ≥ `minVersion`. */
export function qrMatrix(text: string, errorCorrection: QrErrorCorrection = 'L', minVersion = 8): QrMatrix {
  const r = encode(text, { ecc: errorCorrection, minVersion, maxVersion: 40, boostEcc: false, border: 0 });
  return { version: r.version, size: r.size, errorCorrection, dark: r.data };
}

/**
 * Dark modules as horizontal runs `[row, col, length]` (one rectangle per run instead of per module: about
 * a third of the drawing operators).
 */
export function darkRuns(m: QrMatrix): Array<[number, number, number]> {
  const runs: Array<[number, number, number]> = [];
  for (let r = 0; r < m.size; r++) {
    let c = 0;
    while (c < m.size) {
      if (!m.dark[r]![c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < m.size && m.dark[r]![c]) c++;
      runs.push([r, start, c - start]);
    }
  }
  return runs;
}

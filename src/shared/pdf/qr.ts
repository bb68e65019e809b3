/**
 * QR symbol of the timbre URL. DGII asks for QR version 8 (DT). Version 8 holds at most 192 bytes (level L;
 * 152 at M), while a ConsultaTimbre URL is 180–230 bytes (RNC lengths, amount, percent-encoded date and code;
 * DGII's own example is 205 bytes and needs version 9 even with optimal mixed-mode segments). So: level L by
 * default (the level that keeps the most URLs at version 8), version 8 when the URL fits, otherwise the
 * smallest larger version; the URL is never shortened. The ConsultaTimbreFC URL (~125 bytes) is always version 8.
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

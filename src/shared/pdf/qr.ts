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

/**
 * Encodes `text` (byte mode) at `errorCorrection`, version ≥ `minVersion`, with the mask ISO/IEC 18004 §7.8.3's
 * penalty rules choose: the same symbol as uqr's own choice (`bestMask`), found about 3× faster.
 */
export function qrMatrix(text: string, errorCorrection: QrErrorCorrection = 'L', minVersion = 8): QrMatrix {
  const options = { ecc: errorCorrection, minVersion, maxVersion: 40, boostEcc: false, border: 0 } as const;
  const first = encode(text, { ...options, maskPattern: 0 });
  const mask = bestMask(first.data, first.types as number[][], errorCorrection);
  const r = mask === 0 ? first : encode(text, { ...options, maskPattern: mask });
  return { version: r.version, size: r.size, errorCorrection, dark: r.data };
}

const MASKS: ReadonlyArray<(x: number, y: number) => boolean> = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];
/** The error-correction level's two format bits. */
const FORMAT_ECC: Record<QrErrorCorrection, number> = { L: 1, M: 0, Q: 3, H: 2 };

/** Writes the two copies of the format information (level and mask, BCH-protected) into `m`. */
function drawFormat(m: Uint8Array, size: number, ecc: QrErrorCorrection, mask: number): void {
  const data = (FORMAT_ECC[ecc] << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const bits = ((data << 10) | rem) ^ 0x5412;
  const bit = (i: number) => (bits >>> i) & 1;
  const set = (x: number, y: number, v: number) => {
    m[y * size + x] = v;
  };
  for (let i = 0; i <= 5; i++) set(8, i, bit(i));
  set(8, 7, bit(6));
  set(8, 8, bit(7));
  set(7, 8, bit(8));
  for (let i = 9; i < 15; i++) set(14 - i, 8, bit(i));
  for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(i));
  for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(i));
  set(8, size - 8, 1);
}

/**
 * The mask of lowest penalty (the first on a tie), as uqr (Nayuki's encoder) would choose it, from the symbol
 * encoded with mask 0 and its module types (0 = data): each mask is XORed onto a flat byte matrix and scored there,
 * instead of the encoder's eight passes over arrays of booleans.
 */
export function bestMask(masked0: boolean[][], types: number[][], ecc: QrErrorCorrection): number {
  const size = masked0.length;
  const base = new Uint8Array(size * size);
  const isData = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const data = types[y]![x] === 0;
      isData[y * size + x] = data ? 1 : 0;
      base[y * size + x] = (masked0[y]![x] ? 1 : 0) ^ (data && MASKS[0]!(x, y) ? 1 : 0);
    }
  }
  const m = new Uint8Array(size * size);
  let best = 0;
  let min = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 8; k++) {
    const fn = MASKS[k]!;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const i = y * size + x;
        m[i] = base[i]! ^ (isData[i] && fn(x, y) ? 1 : 0);
      }
    }
    drawFormat(m, size, ecc, k);
    const p = penalty(m, size);
    if (p < min) {
      min = p;
      best = k;
    }
  }
  return best;
}

const N1 = 3;
const N2 = 3;
const N3 = 40;
const N4 = 10;

/** ISO/IEC 18004's penalty score of a masked symbol, computed as Nayuki's `getPenaltyScore`. */
function penalty(m: Uint8Array, size: number): number {
  let result = 0;
  for (let a = 0; a < size; a++) result += linePenalty(m, a * size, 1, size) + linePenalty(m, a, size, size);
  for (let y = 0; y < size - 1; y++) {
    for (let x = 0; x < size - 1; x++) {
      const i = y * size + x;
      const c = m[i];
      if (c === m[i + 1] && c === m[i + size] && c === m[i + size + 1]) result += N2;
    }
  }
  let dark = 0;
  for (let i = 0; i < m.length; i++) dark += m[i]!;
  const total = size * size;
  return result + (Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1) * N4;
}

/**
 * Runs of five or more (N1) and finder-like patterns (N3) along one row (`step` 1) or column (`step` `size`): the
 * last seven run lengths are kept in h0…h6 (h0 the newest), as Nayuki's run history.
 */
function linePenalty(m: Uint8Array, start: number, step: number, size: number): number {
  let result = 0;
  let h0 = 0;
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let h4 = 0;
  let h5 = 0;
  let h6 = 0;
  let color = 0;
  let run = 0;
  for (let b = 0, i = start; b <= size; b++, i += step) {
    // b === size: the line's end, a light run as wide as the quiet zone (Nayuki's finderPenaltyTerminateAndCount).
    const end = b === size;
    const v = end ? 0 : m[i]!;
    if (!end && v === color) {
      run++;
      if (run === 5) result += N1;
      else if (run > 5) result++;
      continue;
    }
    const pushes = end ? (color ? 2 : 1) : 1;
    for (let p = 0; p < pushes; p++) {
      let length = end && p === pushes - 1 ? (color && pushes === 2 ? 0 : run) + size : run;
      if (h0 === 0) length += size;
      h6 = h5;
      h5 = h4;
      h4 = h3;
      h3 = h2;
      h2 = h1;
      h1 = h0;
      h0 = length;
    }
    if (end || !color) {
      const n = h1;
      const core = n > 0 && h2 === n && h3 === n * 3 && h4 === n && h5 === n;
      if (core) result += ((h0 >= n * 4 && h6 >= n ? 1 : 0) + (h6 >= n * 4 && h0 >= n ? 1 : 0)) * N3;
    }
    color = v;
    run = 1;
  }
  return result;
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

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
  const history = new Int32Array(7);
  const push = (run: number) => {
    const v = history[0] === 0 ? run + size : run;
    for (let i = 6; i > 0; i--) history[i] = history[i - 1]!;
    history[0] = v;
  };
  const patterns = () => {
    const n = history[1]!;
    const core = n > 0 && history[2] === n && history[3] === n * 3 && history[4] === n && history[5] === n;
    return (core && history[0]! >= n * 4 && history[6]! >= n ? 1 : 0) + (core && history[6]! >= n * 4 && history[0]! >= n ? 1 : 0);
  };
  for (let pass = 0; pass < 2; pass++) {
    for (let a = 0; a < size; a++) {
      let color = 0;
      let run = 0;
      history.fill(0);
      for (let b = 0; b < size; b++) {
        const v = pass === 0 ? m[a * size + b]! : m[b * size + a]!;
        if (v === color) {
          run++;
          if (run === 5) result += N1;
          else if (run > 5) result++;
        } else {
          push(run);
          if (!color) result += patterns() * N3;
          color = v;
          run = 1;
        }
      }
      if (color) {
        push(run);
        run = 0;
      }
      push(run + size);
      result += patterns() * N3;
    }
  }
  for (let y = 0; y < size - 1; y++) {
    for (let x = 0; x < size - 1; x++) {
      const c = m[y * size + x];
      if (c === m[y * size + x + 1] && c === m[(y + 1) * size + x] && c === m[(y + 1) * size + x + 1]) result += N2;
    }
  }
  let dark = 0;
  for (let i = 0; i < m.length; i++) dark += m[i]!;
  const total = size * size;
  return result + (Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1) * N4;
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

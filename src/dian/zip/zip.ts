/**
 * The zip DIAN receives (dian-protocol.md §6.3): a plain archive of the signed XML(s), sent base64 in `contentFile`.
 * Pure and deterministic: the same entries and date give the same bytes on every run, machine and time zone.
 *
 * - Every entry is deflated (raw DEFLATE: `options.deflate`, default fflate's `deflateSync` level 6, pure JS) with a
 *   fixed DOS timestamp: 00:00:00 of `options.date` (`yyyy-MM-dd`, e.g. the document's issue date), default
 *   1980-01-01 (the DOS epoch). On Node, `node:zlib`'s `deflateRawSync` is about 3× faster on a signed invoice; the
 *   service and the CLI pass it (the bytes then are zlib's, as deterministic).
 * - No extra fields, no comments, no data descriptors, attributes 0 ("made by" MS-DOS, version 2.0); the UTF-8
 *   flag (bit 11) only when a name is not ASCII. Entries are written in the order given.
 * - The container is written here rather than by `fflate.zipSync`, which reads the timestamp with the local-time
 *   getters of `Date` (its bytes would depend on the process's time zone).
 *
 * Bad input (no entry, an empty, duplicate or path-like name, a date outside 1980–2107, more than 65 535 entries or
 * 4 GiB) is a value, never a throw.
 */
import { deflateSync } from 'fflate';

/** One file of the archive. Text is written as UTF-8, byte for byte; bytes as given. */
export interface DianZipEntry {
  name: string;
  data: string | Uint8Array;
}

/** Raw DEFLATE (RFC 1951, no zlib or gzip header) of one entry's bytes. */
export type DianDeflate = (data: Uint8Array) => Uint8Array;

export interface DianZipOptions {
  /** The entries' timestamp date, `yyyy-MM-dd` (time 00:00:00); default `1980-01-01`. */
  date?: string;
  /** The deflater; default fflate's `deflateSync` at level 6 (pure JS, any runtime). */
  deflate?: DianDeflate;
}

const fflateDeflate: DianDeflate = (data) => deflateSync(data, { level: 6 });

export type DianZipResult = { ok: true; value: Uint8Array } | { ok: false; message: string };

let crcTable: Int32Array | null = null;

/** CRC-32 (IEEE 802.3), as ZIP uses it. */
export function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let crc = -1;
  for (let i = 0; i < data.length; i++) crc = crcTable[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The DOS date word of `yyyy-MM-dd`, or null when not a real date in 1980–2107. */
function dosDate(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1980 || y > 2107 || mo < 1 || mo > 12 || d < 1) return null;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1]!;
  if (d > days) return null;
  return ((y - 1980) << 9) | (mo << 5) | d;
}

const MAX_U32 = 0xffff_ffff;

/** A deterministic zip of the entries (errors as values). */
export function dianZip(entries: readonly DianZipEntry[], options: DianZipOptions = {}): DianZipResult {
  if (entries.length === 0) return { ok: false, message: 'El zip necesita al menos un archivo.' };
  if (entries.length > 0xffff) return { ok: false, message: `El zip admite hasta 65535 archivos; se recibieron ${entries.length}.` };
  const date = dosDate(options.date ?? '1980-01-01');
  if (date === null) {
    return { ok: false, message: `La fecha de los archivos del zip debe ser yyyy-MM-dd entre 1980 y 2107; se recibió "${String(options.date)}".` };
  }
  const encoder = new TextEncoder();
  const seen = new Set<string>();
  const prepared: { name: Uint8Array; flags: number; crc: number; size: number; packed: Uint8Array }[] = [];
  let total = 22;
  for (const entry of entries) {
    const name = entry.name;
    if (typeof name !== 'string' || name === '' || name.includes('\\') || name.startsWith('/') || name.split('/').includes('..')) {
      return { ok: false, message: `Nombre de archivo no válido en el zip: "${String(name)}".` };
    }
    if (seen.has(name)) return { ok: false, message: `El nombre "${name}" está repetido en el zip.` };
    seen.add(name);
    const nameBytes = encoder.encode(name);
    if (nameBytes.length > 0xffff) return { ok: false, message: 'Un nombre de archivo del zip es demasiado largo.' };
    const data = typeof entry.data === 'string' ? encoder.encode(entry.data) : entry.data;
    if (!(data instanceof Uint8Array)) return { ok: false, message: `El contenido de "${name}" debe ser texto o bytes.` };
    if (data.length > MAX_U32) return { ok: false, message: `"${name}" supera los 4 GiB que admite el zip sin ZIP64.` };
    let packed: Uint8Array;
    try {
      packed = (options.deflate ?? fflateDeflate)(data);
    } catch (e) {
      return { ok: false, message: `No se pudo comprimir "${name}": ${e instanceof Error ? e.message : String(e)}.` };
    }
    if (!(packed instanceof Uint8Array)) return { ok: false, message: `El compresor no devolvió bytes para "${name}".` };
    const flags = /^[\x00-\x7f]*$/.test(name) ? 0 : 0x0800;
    prepared.push({ name: nameBytes, flags, crc: crc32(data), size: data.length, packed });
    total += 30 + 46 + 2 * nameBytes.length + packed.length;
  }
  if (total > MAX_U32) return { ok: false, message: 'El zip superaría los 4 GiB que admite sin ZIP64.' };

  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let p = 0;
  const u16 = (v: number) => {
    view.setUint16(p, v, true);
    p += 2;
  };
  const u32 = (v: number) => {
    view.setUint32(p, v >>> 0, true);
    p += 4;
  };
  /** The fields local and central headers share, from "version needed" to the extra length. */
  const common = (e: (typeof prepared)[number]) => {
    u16(20); // version needed: 2.0 (deflate)
    u16(e.flags);
    u16(8); // deflate
    u16(0); // time 00:00:00
    u16(date);
    u32(e.crc);
    u32(e.packed.length);
    u32(e.size);
    u16(e.name.length);
    u16(0); // extra field length
  };
  const offsets: number[] = [];
  for (const e of prepared) {
    offsets.push(p);
    u32(0x04034b50);
    common(e);
    out.set(e.name, p);
    p += e.name.length;
    out.set(e.packed, p);
    p += e.packed.length;
  }
  const cdOffset = p;
  prepared.forEach((e, i) => {
    u32(0x02014b50);
    u16(20); // made by: MS-DOS, 2.0
    common(e);
    u16(0); // comment length
    u16(0); // disk number
    u16(0); // internal attributes
    u32(0); // external attributes
    u32(offsets[i]!);
    out.set(e.name, p);
    p += e.name.length;
  });
  const cdSize = p - cdOffset;
  u32(0x06054b50);
  u16(0);
  u16(0);
  u16(prepared.length);
  u16(prepared.length);
  u32(cdSize);
  u32(cdOffset);
  u16(0); // comment length
  return { ok: true, value: out };
}

/**
 * Minimal ZIP reader (no dependency): central directory, methods 0 (stored) and 8 (deflate, via node:zlib).
 * Enough for the XSD archives authorities distribute; ZIP64, encryption and multi-disk archives are refused.
 */
import * as zlib from 'node:zlib';
import { SchemaError } from '../errors/index.js';

export interface ZipEntry {
  /** Path inside the archive, `/`-separated. */
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc32: number;
  isDirectory: boolean;
  /** Decompresses and CRC-checks the entry. */
  read(): Buffer;
}

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
/** Refuse entries larger than this when decompressed (the largest XSD is ~125 KB). */
const MAX_ENTRY_SIZE = 32 * 1024 * 1024;

function bad(why: string): never {
  throw new SchemaError(`Not a readable ZIP archive: ${why}`, { code: 'xsd_zip_invalid' });
}

let table: Int32Array | null = null;
/** CRC-32 (IEEE) in JavaScript, for runtimes without zlib.crc32 (Node < 20.15). */
export function crc32Js(data: Uint8Array): number {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let crc = -1;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

const nativeCrc32 = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
/** CRC-32 (IEEE); zlib.crc32 when the runtime has it. */
export function crc32(data: Uint8Array): number {
  return typeof nativeCrc32 === 'function' ? nativeCrc32(data) >>> 0 : crc32Js(data);
}

export function readZip(zip: Buffer): ZipEntry[] {
  if (zip.length < 22) bad('file too short');
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) bad('end of central directory not found');
  const disk = zip.readUInt16LE(eocd + 4);
  const count = zip.readUInt16LE(eocd + 10);
  const cdSize = zip.readUInt32LE(eocd + 12);
  const cdOffset = zip.readUInt32LE(eocd + 16);
  if (disk !== 0) bad('multi-disk archives are not supported');
  if (count === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff) bad('ZIP64 archives are not supported');
  if (cdOffset + cdSize > zip.length) bad('central directory out of range');

  const entries: ZipEntry[] = [];
  let p = cdOffset;
  for (let k = 0; k < count; k++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== CEN_SIG) bad(`bad central directory entry #${k + 1}`);
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const compressedSize = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const localOffset = zip.readUInt32LE(p + 42);
    const rawName = zip.subarray(p + 46, p + 46 + nameLen);
    const name = (flags & 0x800 ? rawName.toString('utf8') : rawName.toString('latin1')).replace(/\\/g, '/');
    p += 46 + nameLen + extraLen + commentLen;
    entries.push({
      name,
      method,
      compressedSize,
      size,
      crc32: crc,
      isDirectory: name.endsWith('/'),
      read() {
        if (flags & 1) bad(`${name} is encrypted`);
        if (size > MAX_ENTRY_SIZE) bad(`${name} is too large (${size} bytes)`);
        if (localOffset + 30 > zip.length || zip.readUInt32LE(localOffset) !== LOC_SIG) bad(`bad local header for ${name}`);
        const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
        if (start + compressedSize > zip.length) bad(`${name} is truncated`);
        const raw = zip.subarray(start, start + compressedSize);
        let data: Buffer;
        if (method === 0) data = Buffer.from(raw);
        else if (method === 8) {
          try {
            data = zlib.inflateRawSync(raw, { maxOutputLength: MAX_ENTRY_SIZE });
          } catch (e) {
            bad(`${name}: ${(e as Error).message}`);
          }
        } else bad(`${name} uses compression method ${method} (only stored and deflate are supported)`);
        if (data.length !== size) bad(`${name}: size ${data.length} differs from the directory (${size})`);
        if (crc32(data) !== crc) bad(`${name}: CRC mismatch`);
        return data;
      },
    });
  }
  return entries;
}

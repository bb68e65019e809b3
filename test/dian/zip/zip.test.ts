/** The DIAN zip: read back by the kernel's reader and by the system's `unzip`, deterministic, byte for byte. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { deflateRawSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dianDocumentZip, dianZip, type DianZipEntry } from '../../../src/dian/index.js';
import { crc32 } from '../../../src/dian/zip/zip.js';
import { crc32Js, readZip } from '../../../src/shared/xsd/zip.js';

const sample = readFileSync(resolve(import.meta.dirname, '../fixtures/toolbox/consumidor-final.xml'));
/** Text with two- and three-byte UTF-8 characters and a character outside the BMP. */
const accented = '<?xml version="1.0" encoding="UTF-8"?><Invoice><cbc:Note>Señor José Müller — café, ñandú, 𝄞 €</cbc:Note></Invoice>';

const zipOf = (entries: DianZipEntry[], date?: string): Buffer => {
  const r = dianZip(entries, date === undefined ? {} : { date });
  if (!r.ok) throw new Error(r.message);
  return Buffer.from(r.value);
};

const hasUnzip = spawnSync('unzip', ['-v'], { encoding: 'utf8' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'dian-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dianZip', () => {
  it('round-trips one or more entries through the kernel reader, deflated, CRCs checked', () => {
    const zip = zipOf([
      { name: 'fv08001972680002600000001.xml', data: sample },
      { name: 'b.xml', data: accented },
    ]);
    const entries = readZip(zip);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['fv08001972680002600000001.xml', 8, sample.length],
      ['b.xml', 8, Buffer.byteLength(accented)],
    ]);
    expect(entries[0]!.compressedSize).toBeLessThan(sample.length);
    expect(entries[0]!.read().equals(sample)).toBe(true);
    expect(entries[1]!.read().toString('utf8')).toBe(accented);
  });

  it('keeps non-ASCII XML byte for byte, from text or from bytes', () => {
    const bytes = new TextEncoder().encode(accented);
    const fromText = zipOf([{ name: 'a.xml', data: accented }]);
    const fromBytes = zipOf([{ name: 'a.xml', data: bytes }]);
    expect(fromText.equals(fromBytes)).toBe(true);
    expect(new Uint8Array(readZip(fromText)[0]!.read())).toEqual(bytes);
  });

  it("takes another deflater (node:zlib's raw deflate): read back by the kernel reader and by unzip, deterministic", () => {
    const zlib = (d: Uint8Array) => deflateRawSync(d);
    const r = dianZip([{ name: 'a.xml', data: sample }], { date: '2026-03-15', deflate: zlib });
    if (!r.ok) throw new Error(r.message);
    const zip = Buffer.from(r.value);
    expect(zip.equals(zipOf([{ name: 'a.xml', data: sample }], '2026-03-15'))).toBe(false);
    expect(readZip(zip)[0]!.read().equals(sample)).toBe(true);
    const again = dianZip([{ name: 'a.xml', data: sample }], { date: '2026-03-15', deflate: zlib });
    expect(again.ok && Buffer.from(again.value).equals(zip)).toBe(true);
    if (hasUnzip) {
      const file = join(dir, 'zlib.zip');
      writeFileSync(file, zip);
      expect(spawnSync('unzip', ['-p', file, 'a.xml']).stdout.equals(sample)).toBe(true);
    }
  });

  it('a deflater that throws or returns no bytes is a refusal, not a throw', () => {
    const throwing = () => {
      throw new Error('sin memoria');
    };
    expect(dianZip([{ name: 'a.xml', data: 'x' }], { deflate: throwing })).toEqual({ ok: false, message: 'No se pudo comprimir "a.xml": sin memoria.' });
    expect(dianZip([{ name: 'a.xml', data: 'x' }], { deflate: () => 'x' as unknown as Uint8Array })).toEqual({
      ok: false,
      message: 'El compresor no devolvió bytes para "a.xml".',
    });
  });

  it('is deterministic: the same input gives the same bytes, twice', () => {
    const a = zipOf([{ name: 'a.xml', data: sample }], '2026-03-15');
    const b = zipOf([{ name: 'a.xml', data: new Uint8Array(sample) }], '2026-03-15');
    expect(a.equals(b)).toBe(true);
    expect(zipOf([{ name: 'a.xml', data: sample }], '2026-03-16').equals(a)).toBe(false);
  });

  it('writes a fixed DOS timestamp (default 1980-01-01 00:00), no extra field, no comment, no data descriptor', () => {
    const name = 'a.xml';
    const zip = zipOf([{ name, data: sample }]);
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    expect(zip.readUInt16LE(6)).toBe(0); // flags: no data descriptor, ASCII name
    expect(zip.readUInt16LE(10)).toBe(0); // time 00:00:00
    expect(zip.readUInt16LE(12)).toBe((0 << 9) | (1 << 5) | 1); // 1980-01-01
    expect(zip.readUInt32LE(14)).toBe(crc32Js(sample));
    expect(zip.readUInt16LE(28)).toBe(0); // extra length
    const dated = zipOf([{ name, data: sample }], '2026-03-15');
    expect(dated.readUInt16LE(12)).toBe(((2026 - 1980) << 9) | (3 << 5) | 15);
    // End of central directory: the last 22 bytes, comment length 0.
    expect(zip.readUInt32LE(zip.length - 22)).toBe(0x06054b50);
    expect(zip.readUInt16LE(zip.length - 2)).toBe(0);
    // Central directory entry: extra and comment lengths 0.
    const cd = zip.readUInt32LE(zip.length - 6);
    expect(zip.readUInt32LE(cd)).toBe(0x02014b50);
    expect([zip.readUInt16LE(cd + 30), zip.readUInt16LE(cd + 32)]).toEqual([0, 0]);
  });

  it('computes the CRC-32 of ZIP', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(sample)).toBe(crc32Js(sample));
  });

  it('sets the UTF-8 flag for a non-ASCII name, which the kernel reader returns unchanged', () => {
    const zip = zipOf([{ name: 'año.xml', data: 'x' }]);
    expect(zip.readUInt16LE(6)).toBe(0x0800);
    expect(readZip(zip)[0]!.name).toBe('año.xml');
  });

  it('refuses bad input as values', () => {
    const refusal = (entries: DianZipEntry[], date?: string) => {
      const r = dianZip(entries, date === undefined ? {} : { date });
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.message;
    };
    expect(refusal([])).toMatch(/al menos un archivo/);
    expect(
      refusal([
        { name: 'a.xml', data: 'x' },
        { name: 'a.xml', data: 'y' },
      ]),
    ).toMatch(/repetido/);
    for (const name of ['', '/a.xml', '../a.xml', 'a\\b.xml']) expect(refusal([{ name, data: 'x' }])).toMatch(/no válido/);
    for (const date of ['1979-12-31', '2108-01-01', '2026-02-29', '2026-13-01', '26-03-15'])
      expect(refusal([{ name: 'a', data: 'x' }], date)).toMatch(/1980 y 2107/);
    expect(dianZip([{ name: 'a', data: 'x' }], { date: '2024-02-29' }).ok).toBe(true);
    expect(refusal([{ name: 'a', data: 42 as never }])).toMatch(/texto o bytes/);
  });

  it.runIf(hasUnzip)('lists and extracts with the system unzip', () => {
    const file = join(dir, 'z08001972680002600000001.zip');
    writeFileSync(
      file,
      zipOf(
        [
          { name: 'fv08001972680002600000001.xml', data: sample },
          { name: 'b.xml', data: accented },
        ],
        '2026-03-15',
      ),
    );
    const test = spawnSync('unzip', ['-t', file], { encoding: 'utf8' });
    expect(test.status).toBe(0);
    expect(test.stdout).toContain('No errors detected');
    // The date's layout depends on unzip's build; both forms are the same timestamp.
    const list = spawnSync('unzip', ['-l', file], { encoding: 'utf8' });
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${sample.length}\\s+(2026-03-15|03-15-2026) 00:00\\s+fv08001972680002600000001\\.xml`));
    expect(list.stdout).toContain('b.xml');
    const out = spawnSync('unzip', ['-p', file, 'fv08001972680002600000001.xml']);
    expect(out.status).toBe(0);
    expect(Buffer.compare(out.stdout, sample)).toBe(0);
    const b = spawnSync('unzip', ['-p', file, 'b.xml']);
    expect(b.stdout.toString('utf8')).toBe(accented);
  });
});

describe('dianDocumentZip', () => {
  it('zips one document for SendBillSync under its DIAN names', () => {
    const r = dianDocumentZip({ nit: '800197268', provider: '000', year: 26, counter: 1, xml: sample, date: '2026-03-15' });
    if (!r.ok) throw new Error(r.message);
    expect(r.value.names).toEqual({ xml: 'fv08001972680002600000001.xml', zip: 'z08001972680002600000001.zip' });
    const entries = readZip(Buffer.from(r.value.zip));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.name).toBe('fv08001972680002600000001.xml');
    expect(entries[0]!.read().equals(sample)).toBe(true);
    expect(Buffer.from(r.value.zip).equals(zipOf([{ name: 'fv08001972680002600000001.xml', data: sample }], '2026-03-15'))).toBe(true);
  });

  it('passes the deflater on', () => {
    const input = { nit: '800197268', provider: '000', year: 26, counter: 1, xml: sample, date: '2026-03-15' };
    const r = dianDocumentZip({ ...input, deflate: (d) => deflateRawSync(d) });
    const direct = dianZip([{ name: 'fv08001972680002600000001.xml', data: sample }], { date: '2026-03-15', deflate: (d) => deflateRawSync(d) });
    expect(r.ok && direct.ok && Buffer.from(r.value.zip).equals(Buffer.from(direct.value))).toBe(true);
  });

  it('passes the names and zip refusals through as values', () => {
    expect(dianDocumentZip({ nit: 'x', provider: '000', year: 26, counter: 1, xml: '' })).toMatchObject({ ok: false, field: 'nit' });
    expect(dianDocumentZip({ nit: '1', provider: '000', year: 26, counter: 1, xml: '', date: '1970-01-01' })).toMatchObject({ ok: false });
  });
});

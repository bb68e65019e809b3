/**
 * PDF rendering (printed representation) time: a 10-line type 31 and a 1,000-line type 32, from the signed XML
 * (parse + security code + QR URL + layout + pdf-lib) and from the already-parsed document; plus one 10,000-line
 * type 32 (the RFCE maximum). Run: `npx tsx bench/pdf.ts`.
 */
import { PDFDocument } from 'pdf-lib';
import { securityCode } from '../src/derive/security-code.js';
import { renderPdf } from '../src/pdf/index.js';
import { parseEcfXml } from '../src/xml/ecf.js';
import { manyLines, signed } from '../test/pdf/fixtures.js';
import { measureAsync, printTable, round, writeResults } from './lib.js';

const env = { environment: 'ecf' as const };
const xml31 = await signed('31', manyLines('31', 10, 125.5));
const xml32 = await signed('32', manyLines('32', 1000, 10));
const xml32max = await signed('32', manyLines('32', 10000, 10));
const parsed32 = { ...parseEcfXml(xml32), securityCode: securityCode(xml32) };

const pages = async (xml: string) => {
  const pdf = await renderPdf(xml, env);
  return { bytes: pdf.length, pages: (await PDFDocument.load(pdf)).getPageCount() };
};

const rows = [
  await measureAsync('31, 10 lines (signed XML in)', () => renderPdf(xml31, env), { minMs: 2000, warmup: 5 }),
  await measureAsync('32, 1,000 lines (signed XML in)', () => renderPdf(xml32, env), { minMs: 4000, warmup: 2 }),
  await measureAsync('32, 1,000 lines (parsed document in)', () => renderPdf(parsed32, env), { minMs: 4000, warmup: 2 }),
  await measureAsync('32, 10,000 lines (signed XML in)', () => renderPdf(xml32max, env), { minMs: 1, warmup: 1 }),
];
const sizes = { '31x10': await pages(xml31), '32x1000': await pages(xml32), '32x10000': await pages(xml32max) };
printTable('PDF rendering (renderPdf), one core', rows);
for (const [k, v] of Object.entries(sizes)) console.log(`${k}: ${v.pages} page(s), ${round(v.bytes / 1024, 1)} KiB`);
writeResults('pdf.json', { results: rows, output: sizes });

/**
 * PDF rendering (printed representation) time: a 10-line type 31 and a 1,000-line type 32, from the signed XML
 * (parse + security code + QR URL + layout + pdf-lib) and from the already-parsed document; plus one 10,000-line
 * type 32 (the RFCE maximum). Each case runs in its own process, so its peak RSS is its own.
 * Run: `npx tsx bench/pdf.ts` (BENCH_QUICK=1: short windows).
 */
import { PDFDocument } from 'pdf-lib';
import { securityCode } from '../src/ecf/derive/security-code.js';
import { renderPdf } from '../src/ecf/pdf/index.js';
import { parseEcfXml } from '../src/ecf/xml/ecf.js';
import { manyLines, signed } from '../test/ecf/pdf/fixtures.js';
import { CHILD_CASE, measureAsync, printTable, reportCase, round, rssMb, runInChild, writeResults, type Measurement } from './lib.js';

const env = { environment: 'ecf' as const };

interface PdfCase {
  key: string;
  name: string;
  tipo: '31' | '32';
  lines: number;
  price: number;
  parsed?: boolean;
  minMs: number;
  warmup: number;
}
const CASES: PdfCase[] = [
  { key: '31x10', name: '31, 10 lines (signed XML in)', tipo: '31', lines: 10, price: 125.5, minMs: 2000, warmup: 5 },
  { key: '32x1000', name: '32, 1,000 lines (signed XML in)', tipo: '32', lines: 1000, price: 10, minMs: 4000, warmup: 2 },
  { key: '32x1000-parsed', name: '32, 1,000 lines (parsed document in)', tipo: '32', lines: 1000, price: 10, parsed: true, minMs: 4000, warmup: 2 },
  { key: '32x10000', name: '32, 10,000 lines (signed XML in)', tipo: '32', lines: 10000, price: 10, minMs: 1, warmup: 1 },
];

type CaseResult = Measurement & { pages: number; pdf_bytes: number };

if (CHILD_CASE) {
  const c = CASES.find((x) => x.key === CHILD_CASE)!;
  const xml = await signed(c.tipo, manyLines(c.tipo, c.lines, c.price));
  const input = c.parsed ? { ...parseEcfXml(xml), securityCode: securityCode(xml) } : xml;
  const pdf = await renderPdf(input, env);
  const pages = (await PDFDocument.load(pdf)).getPageCount();
  const before = rssMb();
  const m = await measureAsync(c.name, () => renderPdf(input, env), { minMs: c.minMs, warmup: c.warmup });
  // The case's own process: its kernel peak RSS replaces the sampled one.
  const { peak_rss_mb: _sampled, rss_before_mb: _b, memory_scope: _s, ...timing } = m;
  reportCase({ ...timing, pages, pdf_bytes: pdf.length }, before);
  process.exit(0);
}

const rows = CASES.map((c) => runInChild<CaseResult>(import.meta.url, c.key));
printTable('PDF rendering (renderPdf), one core, each case in its own process', rows);
for (const [i, c] of CASES.entries()) console.log(`${c.key}: ${rows[i]!.pages} page(s), ${round(rows[i]!.pdf_bytes / 1024, 1)} KiB`);
writeResults('pdf.json', {
  results: rows,
  output: Object.fromEntries(CASES.map((c, i) => [c.key, { bytes: rows[i]!.pdf_bytes, pages: rows[i]!.pages }])),
});

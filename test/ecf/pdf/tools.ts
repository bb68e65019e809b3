/**
 * Independent readers of the PDFs under test: poppler-utils (pdftotext, pdftoppm, pdfinfo) and jsQR. A missing
 * tool makes the test fail with the package to install; nothing is skipped.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

const POPPLER = ['pdftotext', 'pdftoppm', 'pdfinfo'] as const;
type Tool = (typeof POPPLER)[number];

/** Throws a clear error when a poppler tool is missing. */
export function requireTool(tool: Tool): void {
  const r = spawnSync(tool, ['-v'], { encoding: 'utf8' });
  if (r.error) {
    throw new Error(`${tool} is not installed: the PDF tests need Debian's poppler-utils (apt-get install poppler-utils).`);
  }
}

function withPdf<T>(pdf: Uint8Array, fn: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'ecf-kit-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return fn(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function run(tool: Tool, args: string[]): string {
  requireTool(tool);
  const r = spawnSync(tool, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** Text of the PDF (or of pages `first`–`last`), in reading order (`-layout` keeps columns on one line). */
export function pdfText(pdf: Uint8Array, opts: { first?: number; last?: number; layout?: boolean } = {}): string {
  return withPdf(pdf, (file) =>
    run('pdftotext', [
      ...(opts.layout === false ? [] : ['-layout']),
      ...(opts.first ? ['-f', String(opts.first)] : []),
      ...(opts.last ? ['-l', String(opts.last)] : []),
      file,
      '-',
    ]),
  );
}

/** Text of each page. */
export function pageTexts(pdf: Uint8Array): string[] {
  return pdfText(pdf).split('\f').slice(0, pageCount(pdf));
}

export function pageCount(pdf: Uint8Array): number {
  const info = withPdf(pdf, (file) => run('pdfinfo', [file]));
  const m = /^Pages:\s+(\d+)/m.exec(info);
  if (!m) throw new Error(`pdfinfo gave no page count:\n${info}`);
  return Number(m[1]);
}

/** `pdfinfo` fields (Title, Author, CreationDate, …). */
export function pdfInfo(pdf: Uint8Array): Record<string, string> {
  const info = withPdf(pdf, (file) => run('pdfinfo', ['-isodates', file]));
  return Object.fromEntries(
    info
      .split('\n')
      .filter((l) => l.includes(':'))
      .map((l) => {
        const i = l.indexOf(':');
        return [l.slice(0, i).trim(), l.slice(i + 1).trim()];
      }),
  );
}

export interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Words of one page with their bounding boxes (points, origin top-left), from `pdftotext -bbox`. */
export function pageWords(pdf: Uint8Array, page: number): Word[] {
  const html = withPdf(pdf, (file) => run('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-']));
  const words: Word[] = [];
  const re = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    words.push({ xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]), text: decodeEntities(m[5]!) });
  }
  return words;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/** Rasterises one page to PNG bytes (`pdftoppm -r dpi -png`). */
export function rasterize(pdf: Uint8Array, page: number, dpi = 150): Buffer {
  return withPdf(pdf, (file, dir) => {
    run('pdftoppm', ['-r', String(dpi), '-png', '-f', String(page), '-l', String(page), file, join(dir, 'page')]);
    const png = readdirSync(dir).find((f) => f.startsWith('page') && f.endsWith('.png'));
    if (!png) throw new Error('pdftoppm wrote no PNG');
    return readFileSync(join(dir, png));
  });
}

/** Decodes the QR code found on `page` (rasterised at `dpi`), or null. */
export function decodeQr(pdf: Uint8Array, page: number, dpi = 150): { data: string; version: number } | null {
  const png = PNG.sync.read(rasterize(pdf, page, dpi));
  const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  return code ? { data: code.data, version: code.version } : null;
}

/** Normalises pdftotext output for `toContain` checks: runs of spaces → one space. */
export const squash = (s: string): string => s.replace(/[ \t]+/g, ' ');

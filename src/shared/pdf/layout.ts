/**
 * Page layout (product-neutral, over the section model of `sections.ts`): a top-to-bottom flow that places
 * blocks, breaks pages, repeats table headers and carries the running line total between pages (by default
 * "Van" at the foot of a page, "Vienen" at the head of the next). Drawing is
 * deferred (each page collects operations) so that "Página x de y" can be written once the page count is known.
 *
 * Coordinates in this module are measured from the top of the page; `toPdfY` converts for pdf-lib.
 */
import {
  concatTransformationMatrix,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingColor,
  type PDFOperator,
  type PDFPage,
} from 'pdf-lib';
import { add, ZERO, type Dec } from '../money/decimal.js';
import { formatDec } from './numbers.js';
import { darkRuns, type QrMatrix } from './qr.js';
import type { Column, PairsSection, Run, TableRow, TableSection } from './sections.js';
import { LEADING, type Fonts, type Rgb, type TextKit, type TextStyle } from './text.js';

export const MM = 72 / 25.4;

export const INK: Rgb = [0.1, 0.1, 0.12];
export const MUTED: Rgb = [0.36, 0.37, 0.41];
export const RULE: Rgb = [0.74, 0.75, 0.78];
export const SHADE: Rgb = [0.935, 0.94, 0.95];
export const ACCENT: Rgb = [0.11, 0.24, 0.4];

export const ROLE_STYLE: Readonly<Record<NonNullable<Run['role']>, TextStyle>> = {
  normal: { font: 'regular', size: 8, color: INK },
  strong: { font: 'bold', size: 8, color: INK },
  small: { font: 'regular', size: 7, color: INK },
  muted: { font: 'regular', size: 7, color: MUTED },
  title: { font: 'bold', size: 11.5, color: INK },
  heading: { font: 'bold', size: 9, color: INK },
};

export const color = (c: Rgb = INK) => rgb(c[0], c[1], c[2]);

/**
 * Draws a QR symbol's dark modules with its top-left corner at (`x`, `top` from the page's top), `module` points
 * per module: one filled path of a rectangle per horizontal run, in module units under one transformation (small
 * integers to write; no seams between modules).
 */
export function drawQr(c: DrawCtx, qr: QrMatrix, x: number, top: number, module: number, ink: Rgb = INK): void {
  const ops: PDFOperator[] = [pushGraphicsState(), concatTransformationMatrix(module, 0, 0, -module, x, c.page.getHeight() - top), setFillingColor(color(ink))];
  for (const [r, col, len] of darkRuns(qr)) ops.push(rectangle(col, r, len, 1));
  ops.push(fill(), popGraphicsState());
  c.page.pushOperators(...ops);
}

/** One piece of text on a line, `dx` from the left of its box. */
export interface Seg {
  text: string;
  style: TextStyle;
  dx: number;
}

export interface Line {
  segs: Seg[];
  /** Line height (points). */
  h: number;
}

export interface DrawCtx {
  page: PDFPage;
  fonts: Fonts;
  /** 0-based page index and page count (known only when drawing). */
  index: number;
  count: number;
}

export type Op = (c: DrawCtx) => void;

export interface Geometry {
  width: number;
  height: number;
  marginX: number;
  marginTop: number;
  /** Distance from the bottom edge below which the flow never places content. */
  marginBottom: number;
}

export const lineHeight = (s: TextStyle): number => s.size * LEADING;

/** Draws laid-out lines with their top at `top`. */
export function drawLines(c: DrawCtx, lines: readonly Line[], x: number, top: number): void {
  const pageH = c.page.getHeight();
  let y = top;
  for (const line of lines) {
    for (const seg of line.segs) {
      if (!seg.text) continue;
      const baseline = y + (line.h - seg.style.size * LEADING) / 2 + seg.style.size * 0.93;
      c.page.drawText(seg.text, { x: x + seg.dx, y: pageH - baseline, size: seg.style.size, font: c.fonts[seg.style.font], color: color(seg.style.color) });
    }
    y += line.h;
  }
}

export const linesHeight = (lines: readonly Line[]): number => lines.reduce((h, l) => h + l.h, 0);

/**
 * Lays runs out in a box `width` wide. Right/centre-aligned single-line values (amounts) shrink to fit before
 * they would wrap; everything else wraps.
 */
export function layoutRuns(kit: TextKit, runs: readonly Run[], width: number, align: Column['align'] = 'left'): Line[] {
  const out: Line[] = [];
  for (const run of runs) {
    const base = ROLE_STYLE[run.role ?? 'normal'];
    let style = base;
    let texts: string[];
    if (align !== 'left' && !run.text.includes('\n')) {
      const size = kit.fitSize(run.text, base, width, 5);
      if (size !== null) {
        style = size === base.size ? base : { ...base, size };
        texts = [kit.clean(run.text, base.font)];
      } else texts = kit.wrap(run.text, base, width);
    } else texts = kit.wrap(run.text, base, width);
    const h = lineHeight(base);
    for (const t of texts) {
      const w = kit.width(t, style);
      const dx = align === 'right' ? width - w : align === 'center' ? (width - w) / 2 : 0;
      out.push({ segs: [{ text: t, style, dx }], h });
    }
  }
  return out;
}

/** `Label: value` laid out in `width`: bold label, value wrapped beside it (or below when the label is long). */
export function layoutPair(kit: TextKit, labelText: string, value: string, width: number, size = 8): Line[] {
  const ls: TextStyle = { font: 'bold', size, color: INK };
  const vs: TextStyle = { font: 'regular', size, color: INK };
  const lbl = kit.clean(`${labelText}: `, 'bold');
  const lw = kit.width(lbl, ls);
  const h = lineHeight(vs);
  if (lw > width * 0.55) {
    return [
      ...kit.wrap(lbl.trimEnd(), ls, width).map((t) => ({ segs: [{ text: t, style: ls, dx: 0 }], h })),
      ...kit.wrap(value, vs, width).map((t) => ({ segs: [{ text: t, style: vs, dx: 0 }], h })),
    ];
  }
  const values = kit.wrap(value, vs, width - lw);
  return values.map((t, i) => ({
    segs:
      i === 0
        ? [
            { text: lbl, style: ls, dx: 0 },
            { text: t, style: vs, dx: lw },
          ]
        : [{ text: t, style: vs, dx: lw }],
    h,
  }));
}

export function rect(c: DrawCtx, x: number, top: number, w: number, h: number, fill?: Rgb, border?: Rgb, borderWidth = 0.6): void {
  c.page.drawRectangle({
    x,
    y: c.page.getHeight() - top - h,
    width: w,
    height: h,
    ...(fill ? { color: color(fill) } : {}),
    ...(border ? { borderColor: color(border), borderWidth } : { borderWidth: 0 }),
  });
}

export function hline(c: DrawCtx, x1: number, x2: number, top: number, col: Rgb = RULE, thickness = 0.5): void {
  const y = c.page.getHeight() - top;
  c.page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness, color: color(col) });
}

/** The vertical flow of a document: pages of deferred operations. */
export class Flow {
  readonly pages: Op[][] = [];
  y = 0;

  constructor(
    readonly geo: Geometry,
    readonly kit: TextKit,
    /** Draws the compact header of a continuation page (at the top margin). */
    private readonly continuationHeader: (flow: Flow) => void,
    /** Height of that header, known before any page is laid out. */
    private readonly continuationHeight: number,
  ) {}

  get left(): number {
    return this.geo.marginX;
  }
  get right(): number {
    return this.geo.width - this.geo.marginX;
  }
  get contentWidth(): number {
    return this.right - this.left;
  }
  get bottom(): number {
    return this.geo.height - this.geo.marginBottom;
  }
  /** Free height on an empty continuation page. */
  get pageCapacity(): number {
    return this.bottom - this.geo.marginTop - this.continuationHeight;
  }

  newPage(): void {
    this.pages.push([]);
    this.y = this.geo.marginTop;
    if (this.pages.length > 1) {
      this.continuationHeader(this);
      this.y += this.continuationHeight;
    }
  }

  op(fn: Op): void {
    this.pages[this.pages.length - 1]!.push(fn);
  }

  fits(h: number): boolean {
    return this.y + h <= this.bottom + 0.01;
  }

  ensure(h: number): void {
    if (!this.fits(h)) this.newPage();
  }

  gap(h: number): void {
    this.y = Math.min(this.y + h, this.bottom);
  }
}

const CELL_PAD_X = 3;
const CELL_PAD_Y = 2.4;
const HEADER_STYLE: TextStyle = { font: 'bold', size: 7.2, color: INK };

interface LaidRow {
  cells: Line[][];
  h: number;
  source: TableRow;
}

function resolveWidths(columns: readonly Column[], total: number): number[] {
  const fixed = columns.reduce((s, c) => s + (c.flex ? 0 : c.width), 0);
  const flexCount = columns.filter((c) => c.flex).length;
  const flex = flexCount ? Math.max(40, (total - fixed) / flexCount) : 0;
  const widths = columns.map((c) => (c.flex ? flex : c.width));
  const sum = widths.reduce((a, b) => a + b, 0);
  return sum > total ? widths.map((w) => (w * total) / sum) : widths;
}

function layRow(kit: TextKit, cells: readonly Run[][], columns: readonly Column[], widths: readonly number[], source: TableRow): LaidRow {
  const laid = cells.map((runs, i) => layoutRuns(kit, runs, widths[i]! - 2 * CELL_PAD_X, columns[i]!.align));
  const h = Math.max(...laid.map(linesHeight), lineHeight(ROLE_STYLE.normal)) + 2 * CELL_PAD_Y;
  return { cells: laid, h, source };
}

/** Splits a row taller than `maxH` into fragments (line by line in every cell). */
function splitRow(row: LaidRow, maxH: number): LaidRow[] {
  if (row.h <= maxH) return [row];
  const out: LaidRow[] = [];
  const rest = row.cells.map((ls) => [...ls]);
  while (rest.some((ls) => ls.length)) {
    const taken: Line[][] = rest.map((ls) => {
      const t: Line[] = [];
      let h = 0;
      while (ls.length && (t.length === 0 || h + ls[0]!.h <= maxH - 2 * CELL_PAD_Y)) {
        h += ls[0]!.h;
        t.push(ls.shift()!);
      }
      return t;
    });
    out.push({ cells: taken, h: Math.max(...taken.map(linesHeight)) + 2 * CELL_PAD_Y, source: row.source });
  }
  return out;
}

function drawRow(c: DrawCtx, row: LaidRow, x0: number, top: number, widths: readonly number[], fill?: Rgb, ruleColor: Rgb = RULE): void {
  const total = widths.reduce((a, b) => a + b, 0);
  if (fill) rect(c, x0, top, total, row.h, fill);
  let x = x0;
  row.cells.forEach((lines, i) => {
    drawLines(c, lines, x + CELL_PAD_X, top + CELL_PAD_Y);
    x += widths[i]!;
  });
  hline(c, x0, x0 + total, top + row.h, ruleColor, 0.4);
}

export interface TableOptions {
  /**
   * Carry the running total of `row.carry` between pages: label in `labelColumn`, amount in `amountColumn`.
   * `out` / `in` label the carried row at the foot of a page and at the head of the next (default "Van" /
   * "Vienen"); `format` writes the amount (default `formatDec`).
   */
  carry?: { labelColumn: number; amountColumn: number; out?: string; in?: string; format?: (amount: Dec) => string };
  title?: string;
}

/** Section title: accent-coloured heading with a rule. */
export function titleLines(kit: TextKit, title: string, width: number): Line[] {
  const st: TextStyle = { font: 'bold', size: 8.5, color: ACCENT };
  return kit.wrap(title, st, width).map((t) => ({ segs: [{ text: t, style: st, dx: 0 }], h: lineHeight(st) + 2 }));
}

function placeTitle(flow: Flow, lines: Line[]): void {
  const top = flow.y;
  const h = linesHeight(lines);
  const { left, right } = flow;
  flow.op((c) => {
    drawLines(c, lines, left, top);
    hline(c, left, right, top + h, ACCENT, 0.7);
  });
  flow.y += h + 1.5;
}

/** Flows a table: header repeated on every page it spans; optional carried total between pages. */
export function flowTable(flow: Flow, table: TableSection, opts: TableOptions = {}): void {
  const { kit } = flow;
  const widths = resolveWidths(table.columns, flow.contentWidth);
  const header = layRow(
    kit,
    table.columns.map((c) => [{ text: c.header }]),
    table.columns,
    widths,
    { cells: [] },
  );
  // Header cells use the header style.
  header.cells = table.columns.map((c, i) => {
    const w = widths[i]! - 2 * CELL_PAD_X;
    return kit.wrap(c.header, HEADER_STYLE, w).map((t) => ({
      segs: [
        {
          text: t,
          style: HEADER_STYLE,
          dx: c.align === 'right' ? w - kit.width(t, HEADER_STYLE) : c.align === 'center' ? (w - kit.width(t, HEADER_STYLE)) / 2 : 0,
        },
      ],
      h: lineHeight(HEADER_STYLE),
    }));
  });
  header.h = Math.max(...header.cells.map(linesHeight)) + 2 * CELL_PAD_Y;
  const rows = table.rows.map((r) => layRow(kit, r.cells, table.columns, widths, r));
  const title = opts.title ? titleLines(kit, opts.title, flow.contentWidth) : [];
  const titleH = title.length ? linesHeight(title) + 1.5 : 0;
  const carry = opts.carry;
  const carryRow = (labelText: string, amount: Dec): LaidRow => {
    const cells: Run[][] = table.columns.map(() => []);
    cells[carry!.labelColumn] = [{ text: labelText, role: 'strong' }];
    cells[carry!.amountColumn] = [{ text: (carry!.format ?? formatDec)(amount), role: 'strong' }];
    return layRow(kit, cells, table.columns, widths, { cells: [] });
  };
  const carriedOut = carry?.out ?? 'Van';
  const carriedIn = carry?.in ?? 'Vienen';
  const carryH = carry ? carryRow(carriedOut, ZERO).h : 0;
  const x0 = flow.left;

  const placeHeader = () => {
    const top = flow.y;
    flow.op((c) => drawRow(c, header, x0, top, widths, SHADE, INK));
    flow.y += header.h;
  };
  const placeRow = (row: LaidRow, fill?: Rgb) => {
    const top = flow.y;
    flow.op((c) => drawRow(c, row, x0, top, widths, fill));
    flow.y += row.h;
  };

  const first = rows[0];
  flow.ensure(titleH + header.h + (first ? Math.min(first.h, flow.pageCapacity / 2) : 0) + (carry && rows.length > 1 ? carryH : 0));
  if (title.length) placeTitle(flow, title);
  placeHeader();

  let running: Dec = ZERO;
  let rowsOnPage = 0;
  const maxFragment = flow.pageCapacity - header.h - 2 * carryH - 2;
  rows.forEach((row, i) => {
    const fragments = splitRow(row, maxFragment);
    fragments.forEach((frag, k) => {
      const lastOverall = i === rows.length - 1 && k === fragments.length - 1;
      const reserve = carry && !lastOverall ? carryH : 0;
      const forced = k === 0 && row.source.breakBefore === true && rowsOnPage > 0;
      if (forced || !flow.fits(frag.h + reserve)) {
        if (carry) placeRow(carryRow(carriedOut, running), SHADE);
        flow.newPage();
        placeHeader();
        rowsOnPage = 0;
        if (carry) placeRow(carryRow(carriedIn, running), SHADE);
      }
      placeRow(frag, row.source.summary ? SHADE : undefined);
      rowsOnPage++;
      // The amount is printed on the first fragment: it counts from that page on.
      if (k === 0 && row.source.carry !== undefined) running = add(running, row.source.carry);
    });
  });
}

/** Flows a titled grid of `Label: value` pairs in two columns. */
export function flowPairs(flow: Flow, section: PairsSection, columns = 2): void {
  const { kit } = flow;
  const gutter = 14;
  const colW = (flow.contentWidth - gutter * (columns - 1)) / columns;
  const title = titleLines(kit, section.title, flow.contentWidth);
  const cells = section.pairs.map((p) => layoutPair(kit, p.label, p.value, colW));
  const gridRows: Line[][][] = [];
  for (let i = 0; i < cells.length; i += columns) gridRows.push(cells.slice(i, i + columns));
  const firstH = gridRows[0] ? Math.max(...gridRows[0].map(linesHeight)) : 0;
  flow.ensure(linesHeight(title) + 1.5 + firstH + 2);
  placeTitle(flow, title);
  flow.y += 1.5;
  for (const row of gridRows) {
    const h = Math.max(...row.map(linesHeight));
    if (!flow.fits(h)) flow.newPage();
    const top = flow.y;
    const left = flow.left;
    flow.op((c) =>
      row.forEach((lines, i) => {
        drawLines(c, lines, left + i * (colW + gutter), top);
      }),
    );
    flow.y += h + 1;
  }
}

/**
 * The product-neutral section model of a printed document: what the layout and the generic renderer
 * (`layout.ts`, `document.ts`) know how to place. Each product's print model builds these
 * values from its own fields, catalogs and labels; nothing here knows any product.
 */
import type { Dec } from '../money/decimal.js';

/** A run of text with a role; the layout maps roles to fonts, sizes and colours. */
export interface Run {
  text: string;
  role?: 'normal' | 'strong' | 'small' | 'muted' | 'title' | 'heading';
}

export interface Pair {
  label: string;
  value: string;
}

export interface Column {
  header: string;
  /** Width in points; the one column with `flex` takes the remaining width. */
  width: number;
  flex?: boolean;
  align: 'left' | 'right' | 'center';
}

export interface TableRow {
  cells: Run[][];
  /** Amount added to the running total carried between pages (item rows only). */
  carry?: Dec;
  /** Shaded summary row (e.g. a declared page subtotal). */
  summary?: boolean;
  /** Start a new page before this row (declared pagination). */
  breakBefore?: boolean;
}

export interface TableSection {
  kind: 'table';
  title: string;
  columns: Column[];
  rows: TableRow[];
}

export interface PairsSection {
  kind: 'pairs';
  title: string;
  pairs: Pair[];
}

export type Section = TableSection | PairsSection;

/** One row of the totals box. */
export interface TotalLine {
  label: string;
  value: string;
  strong?: boolean;
}

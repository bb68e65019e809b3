/**
 * Text measurement, character sanitising and line wrapping for the PDF renderer.
 *
 * The default fonts are the standard Helvetica pair (WinAnsi encoding: covers Spanish accents, ñ, ¿ ¡, €),
 * so a character outside the font's set would make pdf-lib throw: it is replaced by its unaccented base letter
 * when one exists (NFD) and by `?` otherwise. Wrapping breaks on spaces and hyphens and splits words longer
 * than the width, so no text ever runs past its box.
 */
import type { PDFFont } from 'pdf-lib';

export type FontKey = 'regular' | 'bold';
export type Rgb = readonly [number, number, number];

export interface TextStyle {
  font: FontKey;
  size: number;
  color?: Rgb;
}

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Line height as a multiple of the font size. */
export const LEADING = 1.22;

export class TextKit {
  private readonly charsets: Record<FontKey, Set<number>>;
  private readonly widthCache = new Map<string, number>();

  constructor(readonly fonts: Fonts) {
    this.charsets = {
      regular: new Set(fonts.regular.getCharacterSet()),
      bold: new Set(fonts.bold.getCharacterSet()),
    };
  }

  /** Text the font can encode: NFC, control characters as spaces, unknown characters by base letter or `?`. */
  clean(text: string, font: FontKey): string {
    const set = this.charsets[font];
    let out = '';
    for (const ch of text.normalize('NFC')) {
      const cp = ch.codePointAt(0)!;
      if (cp === 0x0a) {
        out += '\n';
        continue;
      }
      if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
        out += ' ';
        continue;
      }
      if (set.has(cp)) {
        out += ch;
        continue;
      }
      if (cp === 0xa0) {
        out += ' ';
        continue;
      }
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base && [...base].every((c) => set.has(c.codePointAt(0)!)) ? base : '?';
    }
    return out;
  }

  width(text: string, style: TextStyle): number {
    const key = `${style.font}\u0000${text}`;
    let w = this.widthCache.get(key);
    if (w === undefined) {
      w = this.fonts[style.font].widthOfTextAtSize(text, 1);
      if (this.widthCache.size < 50_000) this.widthCache.set(key, w);
    }
    return w * style.size;
  }

  /**
   * Wraps `text` into lines no wider than `maxWidth` (explicit newlines kept). Words wider than the width
   * are split by characters.
   */
  wrap(text: string, style: TextStyle, maxWidth: number): string[] {
    const clean = this.clean(text, style.font);
    const lines: string[] = [];
    for (const paragraph of clean.split('\n')) {
      const words = paragraph.split(/(?<=[\s-])/).filter((w) => w.length > 0);
      let line = '';
      for (const word of words) {
        const candidate = line + word;
        if (this.width(candidate.trimEnd(), style) <= maxWidth) {
          line = candidate;
          continue;
        }
        if (line.trim()) lines.push(line.trimEnd());
        line = '';
        // The word alone may be too wide: split it by characters.
        let rest = word;
        while (this.width(rest.trimEnd(), style) > maxWidth) {
          let n = 1;
          while (n < rest.length && this.width(rest.slice(0, n + 1), style) <= maxWidth) n++;
          lines.push(rest.slice(0, n));
          rest = rest.slice(n);
        }
        line = rest;
      }
      if (line.trim() || lines.length === 0) lines.push(line.trimEnd());
    }
    return lines;
  }

  /** The largest size ≤ style.size (down to `minSize`) at which `text` fits on one line, or null. */
  fitSize(text: string, style: TextStyle, maxWidth: number, minSize = 5): number | null {
    const w1 = this.width(this.clean(text, style.font), { ...style, size: 1 });
    if (w1 * style.size <= maxWidth) return style.size;
    const s = Math.floor((maxWidth / w1) * 10) / 10;
    return s >= minSize ? s : null;
  }
}

/**
 * Translates an XSD 1.0 regular expression into an anchored JavaScript one (flag `u`).
 *
 * XSD patterns are implicitly anchored and have their own escapes: `\d` is any Unicode decimal digit,
 * `\w` is every character except punctuation, separators and "other" (so `_` and `-` are NOT word
 * characters), `\s` is only space, tab, CR and LF, `.` is anything but CR/LF, and `^` / `$` outside a
 * character class are ordinary characters. libxml2 follows these rules, so our checks must as well.
 */
export function xsdPatternToJs(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[++i];
      if (n === undefined) throw new Error(`dangling escape in ${pattern}`);
      const cls = ESCAPES[n];
      if (cls) {
        if (inClass && cls.inner === '') throw new Error(`unsupported escape \\${n} inside a class in ${pattern}`);
        out += inClass ? cls.inner : cls.outer;
      } else if (n === 'i' || n === 'c' || n === 'I' || n === 'C') throw new Error(`unsupported escape \\${n} in ${pattern}`);
      // JavaScript's u flag only allows escaping syntax characters (and `-` inside a class); XSD allows
      // escaping `-` anywhere, so other escaped characters are written literally.
      else out += JS_SYNTAX.includes(n) || (inClass && n === '-') ? '\\' + n : n;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c === '$' || c === '/' ? '\\' + c : c;
      continue;
    }
    switch (c) {
      case '[':
        inClass = true;
        out += c;
        if (pattern[i + 1] === '^') {
          out += '^';
          i++;
        }
        break;
      case '.':
        out += '[^\\n\\r]';
        break;
      case '^':
      case '$':
        out += '\\' + c;
        break;
      case '(':
        // .NET-style non-capturing groups appear in some DGII files; XSD has no such syntax but the
        // loader rewrites `(?:` to `(`, so do the same here.
        if (pattern.startsWith('(?:', i)) {
          out += '(?:';
          i += 2;
        } else out += '(?:';
        break;
      default:
        out += c;
    }
  }
  return `^(?:${out})$`;
}

const JS_SYNTAX = '^$\\.*+?()[]{}|/';

const ESCAPES: Record<string, { outer: string; inner: string }> = {
  d: { outer: '\\p{Nd}', inner: '\\p{Nd}' },
  D: { outer: '\\P{Nd}', inner: '\\P{Nd}' },
  w: { outer: '[^\\p{P}\\p{Z}\\p{C}]', inner: '\\p{L}\\p{M}\\p{N}\\p{S}' },
  W: { outer: '[\\p{P}\\p{Z}\\p{C}]', inner: '\\p{P}\\p{Z}\\p{C}' },
  s: { outer: '[ \\t\\n\\r]', inner: ' \\t\\n\\r' },
  S: { outer: '[^ \\t\\n\\r]', inner: '' },
};

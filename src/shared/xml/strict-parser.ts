/**
 * The one strict DOMParser policy of the kit: every place that turns XML text into an @xmldom/xmldom
 * document goes through {@link parseXmlStrictly}, and maps its outcome to its own error.
 *
 * The policy: xmldom's errors and fatal errors make the text not well-formed; so do its warnings (they
 * report syntax errors xmldom repaired), except the one about U+FFFD in content, which is legitimate —
 * unless the caller asks to tolerate every warning. Line ends follow XML 1.0 (CRLF and CR become LF,
 * nothing else; see ./xml10.ts) unless the caller asks for xmldom's own normalisation. The parser never
 * expands DTD-declared entities nor fetches external ones; refusing a DOCTYPE is the caller's decision
 * (`doc.doctype`, or a pre-scan).
 *
 * Pure: no I/O, no clock. Nothing here is specific to a product or an authority.
 */
import { DOMParser, type Document } from '@xmldom/xmldom';
import { xml10LineEndings } from './xml10.js';

/** xmldom warns about U+FFFD in content, which is legitimate; its other warnings are repaired syntax errors. */
const BENIGN_WARNING = /replacement character/;

/** Options of {@link parseXmlStrictly}; the defaults are the strict policy. */
export interface StrictParseOptions {
  /** `'refuse'` (default): every warning but the U+FFFD one is a problem. `'ignore'`: warnings are not problems. */
  warnings?: 'refuse' | 'ignore';
  /** `'xml10'` (default): XML 1.0 line-end handling. `'xmldom'`: xmldom's default (also U+0085, U+2028, U+2029). */
  lineEndings?: 'xml10' | 'xmldom';
}

/** Outcome of {@link parseXmlStrictly}: never throws, the caller decides what a problem means. */
export interface StrictParseResult {
  /** The document, when the parser returned one (it may still have problems). */
  doc: Document | undefined;
  /** Messages of the parser's errors (and refused warnings), in order. */
  problems: string[];
  /** What the parser threw (xmldom throws `ParseError` after a fatal error), when it threw. */
  thrown?: unknown;
}

/** Parses `xml` with the strict policy; collects problems instead of throwing. */
export function parseXmlStrictly(xml: string, options: StrictParseOptions = {}): StrictParseResult {
  const refuseWarnings = options.warnings !== 'ignore';
  const problems: string[] = [];
  const parser = new DOMParser({
    ...(options.lineEndings === 'xmldom' ? {} : { normalizeLineEndings: xml10LineEndings }),
    onError: (level, message) => {
      if (level !== 'warning' || (refuseWarnings && !BENIGN_WARNING.test(message))) problems.push(message);
    },
  });
  try {
    return { doc: parser.parseFromString(xml, 'text/xml'), problems };
  } catch (thrown) {
    return { doc: undefined, problems, thrown };
  }
}

/** The first problem of a parse, or the message of what the parser threw, or `fallback`. */
export function firstProblem(result: StrictParseResult, fallback: string): string {
  if (result.problems.length > 0) return result.problems[0]!;
  if (result.thrown !== undefined) return result.thrown instanceof Error ? result.thrown.message : String(result.thrown);
  return fallback;
}

/**
 * XML 1.0 line-end handling. @xmldom/xmldom 0.9 (and the 0.8 copy inside xml-crypto) also turns U+0085,
 * U+2028 and U+2029 into a line feed, which XML 1.1 does and XML 1.0 does not; tax documents are XML 1.0, so a
 * value holding one of them would change on parsing (and a signature over it would fail to verify).
 */

/** `normalizeLineEndings` option for xmldom's DOMParser: XML 1.0 rules (CRLF and CR become LF, nothing else). */
export const xml10LineEndings = (s: string): string => s.replace(/\r\n?/g, '\n');

/**
 * Writes U+0085, U+2028 and U+2029 as character references, which parsers never normalise, for handing
 * XML to a parser we cannot configure (xml-crypto's). Same infoset, so the same canonical form and digest.
 */
export function protectXml11LineEnds(xml: string): string {
  return /[\u0085\u2028\u2029]/.test(xml) ? xml.replace(/[\u0085\u2028\u2029]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`) : xml;
}

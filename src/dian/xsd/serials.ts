/**
 * libxml2 refuses an `xs:integer` of more than 24 digits (protocol §15), and the signature schemas type
 * `ds:X509SerialNumber` (XAdES `IssuerSerial`) as `xs:integer`, while real certificates carry serials of 38–49
 * decimal digits. Before libxml2 sees a document, in memory, each `X509SerialNumber` made only of (optionally
 * signed) decimal digits and longer than 24 digits gets its leading digits replaced by zeros (libxml2 skips leading
 * zeros when it counts): still an integer, same length, so line and column numbers of violations do not move.
 * Anything else in that element is left as written, for the schema to judge.
 */

/** Most digits libxml2 accepts in an `xs:integer`. */
export const LIBXML_INTEGER_DIGITS = 24;

const SERIAL = /(<(?:[\w.-]+:)?X509SerialNumber(?:\s[^>]*)?>)(\s*[+-]?)(\d+)(\s*<\/(?:[\w.-]+:)?X509SerialNumber>)/g;

/** `xml` with long `X509SerialNumber` integers zero-padded in place; `count` is how many were changed. */
export function relaxLongSerials(xml: string): { text: string; count: number } {
  let count = 0;
  if (!xml.includes('X509SerialNumber')) return { text: xml, count };
  const text = xml.replace(SERIAL, (all, open: string, sign: string, digits: string, close: string) => {
    if (digits.length <= LIBXML_INTEGER_DIGITS) return all;
    count++;
    return `${open}${sign}${'0'.repeat(digits.length - 1)}${digits.at(-1)}${close}`;
  });
  return { text, count };
}

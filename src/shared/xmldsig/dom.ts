/**
 * General path helpers: parse with @xmldom/xmldom, drop whitespace-only text nodes
 * (profiles that sign with `preserveWhitespace = false`), serialise.
 */
import { XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { SigningError } from '../errors/signing-error.js';
import { DSIG_NS } from './signature-profile.js';
import { firstProblem, parseXmlStrictly } from '../xml/strict-parser.js';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const PROCESSING_INSTRUCTION_NODE = 7;
const WHITESPACE_ONLY = /^[ \t\r\n]*$/;

/**
 * Parses XML strictly: any xmldom error (not only fatal ones) makes it not well-formed.
 * Documents with a DOCTYPE are refused (entity expansion is not part of the profile).
 */
export function parseForSigning(xml: string): Document {
  const parsed = parseXmlStrictly(xml);
  if (parsed.thrown !== undefined) throw notWellFormed(firstProblem(parsed, ''), parsed.thrown);
  const doc = parsed.doc!;
  if (parsed.problems.length > 0 || !doc.documentElement) throw notWellFormed(parsed.problems[0] ?? 'no document element');
  if (doc.doctype) {
    throw new SigningError('Documents with a DOCTYPE cannot be signed: remove the <!DOCTYPE …> declaration.', {
      code: 'unsupported_xml',
    });
  }
  return doc;
}

/** Throws `already_signed` when the document holds an XMLDSig `Signature`. */
export function assertUnsigned(doc: Document): void {
  if (doc.getElementsByTagNameNS(DSIG_NS, 'Signature').length > 0) {
    throw new SigningError('The document is already signed (it contains a ds:Signature). Sign the unsigned XML: a signed document must not be altered.', {
      code: 'already_signed',
    });
  }
}

/**
 * Removes whitespace-only text nodes (indentation, line breaks), except under
 * `xml:space="preserve"`, and refuses processing instructions inside the document element.
 */
export function dropWhitespace(doc: Document): void {
  for (let child = doc.firstChild; child; ) {
    const next = child.nextSibling;
    if (child.nodeType === TEXT_NODE) doc.removeChild(child);
    child = next;
  }
  dropInElement(doc.documentElement!, false);
}

function dropInElement(element: Element, preserve: boolean): void {
  for (let child: Node | null = element.firstChild; child; ) {
    const next: Node | null = child.nextSibling;
    if (child.nodeType === TEXT_NODE) {
      if (!preserve && WHITESPACE_ONLY.test((child as unknown as { data: string }).data)) element.removeChild(child);
    } else if (child.nodeType === ELEMENT_NODE) {
      const el = child as Element;
      const space = el.getAttribute('xml:space');
      dropInElement(el, space === 'preserve' ? true : space === 'default' ? false : preserve);
    } else if (child.nodeType === PROCESSING_INSTRUCTION_NODE) {
      throw new SigningError('Processing instructions (<?…?>) inside the document element are not supported by the signing profile: remove them.', {
        code: 'unsupported_xml',
      });
    }
    child = next;
  }
}

/**
 * Serialises like xml-crypto does: xmldom's serialiser, with carriage returns written as `&#xD;`
 * (a raw one would be read back as a line feed).
 */
export function serialize(node: Node): string {
  return new XMLSerializer().serializeToString(node).replace(/\r/g, '&#xD;');
}

/** Parses, checks and normalises for signing; returns the document as it will be signed. */
export function normalizeForSigning(xml: string): string {
  const doc = parseForSigning(xml);
  assertUnsigned(doc);
  dropWhitespace(doc);
  return serialize(doc);
}

function notWellFormed(detail: string, cause?: unknown): SigningError {
  return new SigningError(`The XML is not well-formed and cannot be signed: ${detail}`, {
    code: 'not_well_formed',
    cause,
  });
}

/**
 * DIAN's signing fast path: inclusive C14N 1.0 computed at string level for the documents the kit writes (and
 * for the Signature's own parts), instead of through a DOM. `signDianXml` takes it when `scanDian` accepts the
 * input and falls back to the DOM path (src/shared/xmldsig) otherwise; both write the same bytes (tested on every
 * example).
 *
 * The subset: an optional XML declaration, then the document element; namespace declarations only on the
 * document element (none empty); elements with declared prefixes; attributes without prefix, none named `Id`,
 * values without tab, line break, `<` or references other than the five predefined entities; text and CDATA
 * sections without control characters, character references only to XML characters; no comments, processing
 * instructions or DOCTYPE; only whitespace around the document element; no `ds:Signature` yet. For it, C14N is: drop the
 * declaration and the whitespace outside the root; the root's namespace declarations sorted (default first, then
 * by prefix) before its attributes sorted by name; `<a/>` as `<a></a>`; attribute values re-escaped (`&amp;`
 * `&lt;` `&quot;`); in text `>` as `&gt;`, `&quot;` / `&apos;` and character references as the characters (CR as
 * `&#xD;`), line ends as `\n`; a CDATA
 * section as its characters with `&`, `<`, `>` escaped (the AttachedDocument carries whole documents in them). A
 * subtree (KeyInfo, SignedProperties) carries every namespace in scope on its top element.
 */
import { createHash } from 'node:crypto';
import type { Signer } from '../../shared/ports.js';
import { DIGEST_HASH, DSIG_NS, renderSignature, renderSignedInfo, type SignatureProfile } from '../../shared/xmldsig/signature-profile.js';
import { checkedCertificate, checkedChain, signatureValue } from '../../shared/xmldsig/xmldsig-sign.js';
import { EXT_NS, XADES_NS } from './profile.js';

/** A document in the subset: its canonical form, the root's namespaces and where the signature goes. */
export interface ScannedDian {
  canonical: string;
  /** Prefix ('' for the default namespace) → URI, as the document element declares them. */
  namespaces: Map<string, string>;
  /** The last `ext:ExtensionContent` when it holds no element: the offsets `signDianXml` splices at. */
  place: { tag: string; insert: number; end: number; selfClosed: boolean } | null;
}

const DECLARATION = /^<\?xml\s+version\s*=\s*(["'])1\.0\1(?:\s+encoding\s*=\s*(["'])(?:UTF|utf)-8\2)?(?:\s+standalone\s*=\s*(["'])(?:yes|no)\3)?\s*\?>/;
const NAME = /[A-Za-z_][A-Za-z0-9_.-]*(?::[A-Za-z_][A-Za-z0-9_.-]*)?/y;
const SPACE = /[ \t\r\n]*/y;
const BAD_CHARS = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|]]>/;
/** Text or attribute values with none of these are their own canonical form. */
const TEXT_WORK = /[&>\r\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|]]>/;
const ATTR_WORK = /[&"\t\n\r<\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|]]>/;
const TEXT_TOKEN = /&(?:(amp|lt|gt|quot|apos);|#([0-9]{1,7});|#x([0-9a-fA-F]{1,6});)?|>|\r\n?/g;
const ATTR_TOKEN = /&(?:(amp|lt|gt|quot|apos);)?|"/g;
const TEXT_ENTITY: Record<string, string> = { amp: '&amp;', lt: '&lt;', gt: '&gt;', quot: '"', apos: "'" };
const ATTR_ENTITY: Record<string, string> = { amp: '&amp;', lt: '&lt;', gt: '>', quot: '&quot;', apos: "'" };

class Bail extends Error {}

/** C14N of text content, or a bail-out when it is outside the subset. */
function canonicalText(text: string): string {
  if (!TEXT_WORK.test(text)) return text;
  if (BAD_CHARS.test(text)) throw new Bail();
  return text.replace(TEXT_TOKEN, (m, entity: string | undefined, decimal: string | undefined, hex: string | undefined) => {
    if (m === '>') return '&gt;';
    if (m[0] === '\r') return '\n';
    if (entity !== undefined) return TEXT_ENTITY[entity]!;
    if (decimal === undefined && hex === undefined) throw new Bail();
    return canonicalCharacter(decimal === undefined ? Number.parseInt(hex!, 16) : Number(decimal));
  });
}

/** A character reference's character as C14N writes it in text (`&`, `<`, `>` and CR escaped); not a Char: bail. */
function canonicalCharacter(cp: number): string {
  const legal = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
  if (!legal) throw new Bail();
  if (cp === 0xd) return '&#xD;';
  if (cp === 0x26) return '&amp;';
  if (cp === 0x3c) return '&lt;';
  if (cp === 0x3e) return '&gt;';
  return String.fromCodePoint(cp);
}

const CDATA_TOKEN = /[&<>]|\r\n?/g;
const CDATA_ESCAPE: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** C14N of a CDATA section's content: the characters as text (`&`, `<`, `>` escaped; line ends as `\n`). */
function canonicalCdata(content: string): string {
  if (BAD_CHARS.test(content)) throw new Bail();
  return content.replace(CDATA_TOKEN, (m) => CDATA_ESCAPE[m] ?? '\n');
}

function canonicalAttribute(value: string): string {
  if (!ATTR_WORK.test(value)) return value;
  if (BAD_CHARS.test(value) || /[\t\n\r<]/.test(value)) throw new Bail();
  return value.replace(ATTR_TOKEN, (m, entity: string | undefined) => {
    if (m === '"') return '&quot;';
    if (entity === undefined) throw new Bail();
    return ATTR_ENTITY[entity]!;
  });
}

/** ` xmlns="…" xmlns:a="…" …` in C14N order. */
function renderNamespaces(namespaces: Map<string, string>): string {
  return [...namespaces.keys()]
    .sort()
    .map((p) => ` ${p === '' ? 'xmlns' : `xmlns:${p}`}="${canonicalAttribute(namespaces.get(p)!)}"`)
    .join('');
}

interface Open {
  name: string;
  ns: string | undefined;
  local: string;
  hasChild: boolean;
}

/**
 * Canonicalises `xml` (a document, or with `inherited` an element whose ancestors declare those namespaces), or
 * returns null when it is outside the subset.
 */
function scan(xml: string, inherited: Map<string, string> | null): ScannedDian | null {
  try {
    return scanOrBail(xml, inherited);
  } catch (e) {
    if (e instanceof Bail) return null;
    throw e;
  }
}

function scanOrBail(xml: string, inherited: Map<string, string> | null): ScannedDian {
  let pos = 0;
  if (inherited === null && xml.startsWith('<?')) {
    const m = DECLARATION.exec(xml);
    if (!m) throw new Bail();
    pos = m[0].length;
  }
  const namespaces = new Map(inherited ?? []);
  const stack: Open[] = [];
  let out = '';
  let place: ScannedDian['place'] = null;
  let rootDone = false;
  while (pos < xml.length) {
    const lt = xml.indexOf('<', pos);
    const textEnd = lt < 0 ? xml.length : lt;
    if (textEnd > pos) {
      const text = xml.slice(pos, textEnd);
      if (stack.length === 0) {
        if (!/^[ \t\r\n]+$/.test(text)) throw new Bail();
      } else out += canonicalText(text);
    }
    if (lt < 0) break;
    if (rootDone) throw new Bail();
    pos = lt + 1;
    const c = xml[pos];
    if (c === '!' && stack.length > 0 && xml.startsWith('[CDATA[', pos + 1)) {
      // A CDATA section (the AttachedDocument carries whole documents in them): its characters, escaped as text.
      const start = pos + 8;
      const end = xml.indexOf(']]>', start);
      if (end < 0) throw new Bail();
      out += canonicalCdata(xml.slice(start, end));
      pos = end + 3;
      continue;
    }
    if (c === '!' || c === '?') throw new Bail();
    if (c === '/') {
      // An end tag: the open element's name, optional whitespace, `>`.
      const open = stack.pop();
      if (!open || !xml.startsWith(open.name, pos + 1)) throw new Bail();
      let gt = pos + 1 + open.name.length;
      while (xml[gt] === ' ' || xml[gt] === '\t' || xml[gt] === '\n' || xml[gt] === '\r') gt++;
      if (xml[gt] !== '>') throw new Bail();
      if (open.local === 'ExtensionContent' && isExtensionContent(open, stack)) {
        place = open.hasChild ? null : { tag: open.name, insert: lt, end: lt, selfClosed: false };
      }
      out += `</${open.name}>`;
      pos = gt + 1;
      if (stack.length === 0) rootDone = true;
      continue;
    }
    NAME.lastIndex = pos;
    const m = NAME.exec(xml);
    if (!m) throw new Bail();
    const name = m[0];
    pos = NAME.lastIndex;
    const attrs: [string, string][] = [];
    let selfClosed = false;
    // Most elements have no attribute: `<name>` goes straight through.
    if (xml[pos] === '>') {
      pos += 1;
    } else {
      for (;;) {
        SPACE.lastIndex = pos;
        const ws = SPACE.exec(xml)![0];
        pos = SPACE.lastIndex;
        if (xml.startsWith('/>', pos)) {
          selfClosed = true;
          pos += 2;
          break;
        }
        if (xml[pos] === '>') {
          pos += 1;
          break;
        }
        if (ws === '') throw new Bail();
        NAME.lastIndex = pos;
        const a = NAME.exec(xml);
        if (!a) throw new Bail();
        SPACE.lastIndex = NAME.lastIndex;
        SPACE.exec(xml);
        if (xml[SPACE.lastIndex] !== '=') throw new Bail();
        SPACE.lastIndex += 1;
        SPACE.exec(xml);
        const quote = xml[SPACE.lastIndex];
        if (quote !== '"' && quote !== "'") throw new Bail();
        const close = xml.indexOf(quote, SPACE.lastIndex + 1);
        if (close < 0) throw new Bail();
        const value = xml.slice(SPACE.lastIndex + 1, close);
        pos = close + 1;
        const attr = a[0];
        if (attr === 'xmlns' || attr.startsWith('xmlns:')) {
          // Declarations on the document element only (the subset), none empty, none repeated.
          if (stack.length > 0 || inherited !== null || value === '') throw new Bail();
          const prefix = attr === 'xmlns' ? '' : attr.slice(6);
          if (namespaces.has(prefix) || /[&<]/.test(value)) throw new Bail();
          namespaces.set(prefix, value);
        } else {
          if (attr.includes(':') || (attr === 'Id' && inherited === null) || attrs.some(([n]) => n === attr)) throw new Bail();
          attrs.push([attr, canonicalAttribute(value)]);
        }
      }
    }
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const ns = namespaces.get(prefix);
    if (colon >= 0 && ns === undefined) throw new Bail();
    const local = colon < 0 ? name : name.slice(colon + 1);
    if (local === 'Signature' && ns === DSIG_NS) throw new Bail();
    const parent = stack.at(-1);
    if (parent) parent.hasChild = true;
    else if (rootDone) throw new Bail();
    const top = stack.length === 0;
    if (attrs.length > 1) attrs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    out += `<${name}${top ? renderNamespaces(namespaces) : ''}`;
    for (const [n, v] of attrs) out += ` ${n}="${v}"`;
    out += '>';
    const open: Open = { name, ns, local, hasChild: false };
    if (selfClosed) {
      if (isExtensionContent(open, stack)) place = { tag: name, insert: pos - 2, end: pos, selfClosed: true };
      out += `</${name}>`;
      if (top) rootDone = true;
    } else stack.push(open);
  }
  if (stack.length > 0 || !rootDone) throw new Bail();
  return { canonical: out, namespaces, place };
}

/** Whether `el` (its ancestors on `stack`) is an `ext:ExtensionContent` of the document's `ext:UBLExtensions`. */
function isExtensionContent(el: Open, stack: Open[]): boolean {
  if (el.local !== 'ExtensionContent' || el.ns !== EXT_NS || stack.length !== 3) return false;
  const [, extensions, extension] = stack as [Open, Open, Open];
  return extensions.local === 'UBLExtensions' && extensions.ns === EXT_NS && extension.local === 'UBLExtension' && extension.ns === EXT_NS;
}

/**
 * The canonical form and signature place of a DIAN document in the subset, or null (take the DOM path, which also
 * says what is wrong). The place is the last `ext:ExtensionContent`, when it holds no element.
 */
export function scanDian(xml: string): ScannedDian | null {
  const scanned = scan(xml, null);
  if (!scanned?.place) return null;
  // The signature's parts are canonicalised with ds and xades bound to their namespaces.
  const { namespaces } = scanned;
  if ((namespaces.get('ds') ?? DSIG_NS) !== DSIG_NS || (namespaces.get('xades') ?? XADES_NS) !== XADES_NS) return null;
  return scanned;
}

/** The element `<tag …>…</tag>` (first occurrence) inside `text`, or '' when absent. */
function elementText(text: string, tag: string): string {
  const start = text.indexOf(`<${tag} `);
  const end = start < 0 ? -1 : text.indexOf(`</${tag}>`, start);
  return end < 0 ? '' : text.slice(start, end + tag.length + 3);
}

/** C14N of one rendered element with the namespaces in scope, or null when it is outside the subset. */
function canonicalElement(text: string, inScope: Map<string, string>): string | null {
  return text === '' ? null : (scan(text, inScope)?.canonical ?? null);
}

/**
 * Signs a scanned document with the DIAN `profile` (its three references: document, KeyInfo, SignedProperties)
 * and returns the Signature text to splice in, as the DOM path writes it; null, before the signer is called, when
 * a part of the signature (e.g. an issuer name with control characters) is outside the subset.
 */
export async function signScanned(scanned: ScannedDian, profile: SignatureProfile, signer: Signer): Promise<string | null> {
  const certificate = checkedCertificate(signer);
  const chain = checkedChain(signer);
  const objects =
    profile.objects?.({ certificate, chain, dsPrefix: 'ds', ...(profile.signatureId === undefined ? {} : { signatureId: profile.signatureId }) }) ?? [];
  const hash = DIGEST_HASH[profile.digestAlgorithm];
  const digest = (text: string) => createHash(hash).update(text, 'utf8').digest('base64');
  const atSignature = new Map(scanned.namespaces);
  atSignature.set('ds', DSIG_NS);
  const inQualifying = new Map(atSignature).set('xades', XADES_NS);
  const template = renderSignature(profile, { digests: profile.references.map(() => ''), signatureValue: '', certificate, objects });
  const digests: string[] = [];
  for (const reference of profile.references) {
    const canonical =
      reference.target === 'document'
        ? scanned.canonical
        : reference.target.id === profile.keyInfo.id
          ? canonicalElement(elementText(template, 'ds:KeyInfo'), atSignature)
          : canonicalElement(elementText(template, 'xades:SignedProperties'), inQualifying);
    if (canonical === null) return null;
    digests.push(digest(canonical));
  }
  const signedInfo = canonicalElement(renderSignedInfo(profile, digests, false), atSignature);
  if (signedInfo === null) return null;
  const value = await signatureValue(signer, signedInfo);
  return renderSignature(profile, { digests, signatureValue: value, certificate, objects });
}

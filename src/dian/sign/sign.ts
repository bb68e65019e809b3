/**
 * Signing a DIAN document with XAdES-EPES (protocol §4): the generic XMLDSig core signs a parsed copy with
 * the DIAN profile (./profile.ts), then the `ds:Signature` text is put into the original text at the place
 * of the last empty `ext:ExtensionContent`, so every byte outside the signature stays as it was.
 */
import { randomUUID, X509Certificate } from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import { isEcfError } from '../../shared/errors/ecf-error.js';
import type { Signer } from '../../shared/ports.js';
import { assertUnsigned, parseForSigning, serialize } from '../../shared/xmldsig/dom.js';
import { signDocument } from '../../shared/xmldsig/xmldsig-sign.js';
import { scanDian, signScanned } from './fast.js';
import { dianSignatureIds, dianSignatureProfile, signaturePlace, type DianDigest, type DianSignerRole } from './profile.js';

/** Options of {@link signDianXml}. */
export interface SignDianOptions {
  /** The signing time source (`xades:SigningTime`, written in Bogotá time, `-05:00`). */
  clock: () => Date;
  /** Source of the Ids' base (default `randomUUID`); a fixed source with a fixed clock gives identical bytes. */
  newId?: () => string;
  /** Digest algorithm of references, certificate and policy hash (default `sha256`). */
  digest?: DianDigest;
  /** `xades:ClaimedRole` (default `supplier`). */
  role?: DianSignerRole;
}

/** The last signer certificate found readable (each signature would otherwise parse it again). */
let lastReadable: string | undefined;

/** Why a document was not signed. */
export type SignDianFailure = 'not_well_formed' | 'already_signed' | 'no_signature_place' | 'unsupported_xml' | 'signer_failed' | 'invalid_clock';

/** The signed document, or why not (Spanish message). */
export type SignDianResult = { ok: true; xml: string; signatureId: string } | { ok: false; code: SignDianFailure; message: string };

/**
 * Signs a DIAN UBL document (as `buildDianXml` writes it: its last `ext:ExtensionContent` is empty) with
 * DIAN's XAdES-EPES profile. The result is the input text with the `ds:Signature` inserted, nothing else changed.
 *
 * @example
 * const r = await signDianXml(built.xml, signer, { clock: () => new Date() });
 * if (r.ok) r.xml //=> '…<ext:ExtensionContent><ds:Signature xmlns:ds="…" Id="xmldsig-…">…</ds:Signature></ext:ExtensionContent>…'
 */
export function signDianXml(xml: string, signer: Signer, options: SignDianOptions): Promise<SignDianResult> {
  return signDian(xml, signer, options, true);
}

/** {@link signDianXml} with the string-level fast path (./fast.ts) allowed or not (tests compare the two). */
export async function signDian(xml: string, signer: Signer, options: SignDianOptions, fastPath: boolean): Promise<SignDianResult> {
  if (typeof options?.clock !== 'function') {
    return { ok: false, code: 'invalid_clock', message: 'Falta options.clock (una función que devuelva la fecha y hora de la firma).' };
  }
  const now = options.clock();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    return { ok: false, code: 'invalid_clock', message: `El reloj devolvió una fecha inválida (${String(now)}); no se puede escribir SigningTime.` };
  }
  try {
    if (signer.certificate !== lastReadable) {
      new X509Certificate(Buffer.from(signer.certificate, 'base64'));
      lastReadable = signer.certificate;
    }
  } catch (e) {
    return {
      ok: false,
      code: 'signer_failed',
      message: `El certificado del firmante no se puede leer como X.509 DER en base64 (${e instanceof Error ? e.message : String(e)}).`,
    };
  }
  const ids = dianSignatureIds((options.newId ?? randomUUID)());
  const profile = dianSignatureProfile(ids, options.digest ?? 'sha256', { signingTime: bogotaTime(now), role: options.role ?? 'supplier' });
  try {
    // Fast path: the kit's own documents, canonicalised at string level (./fast.ts); anything else takes the DOM.
    const scanned = fastPath ? scanDian(xml) : null;
    const fast = scanned?.place ? await signScanned(scanned, profile, signer) : null;
    if (scanned?.place && fast !== null) {
      const at = scanned.place;
      const signed = at.selfClosed
        ? `${xml.slice(0, at.insert)}>${fast}</${at.tag}>${xml.slice(at.end)}`
        : `${xml.slice(0, at.insert)}${fast}${xml.slice(at.insert)}`;
      return { ok: true, xml: signed, signatureId: ids.signature };
    }
    const doc = parseForSigning(xml);
    assertUnsigned(doc);
    const place = signaturePlace(doc);
    if (!place) {
      return {
        ok: false,
        code: 'no_signature_place',
        message: 'El documento no tiene un ext:ExtensionContent vacío como último elemento de ext:UBLExtensions, donde va la firma.',
      };
    }
    const at = emptyElementSpan(xml, place);
    if (!at) {
      return {
        ok: false,
        code: 'unsupported_xml',
        message: 'No se pudo ubicar el último ext:ExtensionContent en el texto del documento (solo puede contener espacios).',
      };
    }
    const signature = await signDocument(doc, profile, signer);
    const text = serialize(signature);
    const signed = at.selfClosed
      ? `${xml.slice(0, at.insert)}>${text}</${place.tagName}>${xml.slice(at.end)}`
      : `${xml.slice(0, at.insert)}${text}${xml.slice(at.insert)}`;
    return { ok: true, xml: signed, signatureId: ids.signature };
  } catch (e) {
    if (isEcfError(e)) return { ok: false, code: e.code as SignDianFailure, message: e.message };
    throw e;
  }
}

/** `YYYY-MM-DDTHH:mm:ss-05:00`: the instant in Bogotá time (UTC-5, no daylight saving). */
export function bogotaTime(instant: Date): string {
  return `${new Date(instant.getTime() - 5 * 3_600_000).toISOString().slice(0, 19)}-05:00`;
}

/**
 * Where the element `el` (found by the parser's locator, holding no element) is in `xml`: for
 * `<p:E …/>` the offset of the `/>` (`insert`) and its end; for `<p:E …>…</p:E>` the offset of the end tag.
 */
function emptyElementSpan(xml: string, el: Element): { insert: number; end: number; selfClosed: boolean } | null {
  const line = (el as unknown as { lineNumber?: number }).lineNumber;
  const column = (el as unknown as { columnNumber?: number }).columnNumber;
  if (!line || !column) return null;
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = nextLineStart(xml, offset);
    if (nl < 0) return null;
    offset = nl;
  }
  const start = offset + column - 1;
  const open = `<${el.tagName}`;
  if (!xml.startsWith(open, start) || !/[\s/>]/.test(xml[start + open.length] ?? '')) return null;
  let quote = '';
  let i = start + open.length;
  for (; i < xml.length; i++) {
    const c = xml[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') break;
  }
  if (i >= xml.length) return null;
  if (xml[i - 1] === '/') return { insert: i - 1, end: i + 1, selfClosed: true };
  const close = xml.indexOf(`</${el.tagName}`, i + 1);
  if (close < 0 || xml.slice(i + 1, close).includes('<')) return null;
  return { insert: close, end: close, selfClosed: false };
}

/** Offset after the next line end (`\n`, `\r\n` or `\r`) from `from`, or -1. */
function nextLineStart(xml: string, from: number): number {
  for (let i = from; i < xml.length; i++) {
    if (xml[i] === '\n') return i + 1;
    if (xml[i] === '\r') return xml[i + 1] === '\n' ? i + 2 : i + 1;
  }
  return -1;
}

/**
 * The `unsigned` validation option (schemas.ts, DianSchemaValidateOptions): an empty `ext:UBLExtensions` as the
 * root's first child gets, in memory, one placeholder `ext:UBLExtension`; a `ext:UBLExtensions` whose last
 * `ext:ExtensionContent` is empty (the place the signature goes, as the DIAN builder leaves it) gets a placeholder
 * element in it. Either way an unsigned document validates as the signed one will.
 */
import { declaredNamespace, startTagEnd, xmlRoot } from '../../shared/xsd/root.js';
import { UBL_EXTENSIONS_NAMESPACE } from './schemas.js';

/** Namespace of the placeholder's content element: declared by no schema, so the lax wildcard accepts it. */
export const UNSIGNED_PLACEHOLDER_NAMESPACE = 'urn:ecf-kit:unsigned-placeholder';

/**
 * Returns `xml` with the placeholder inserted when the root's first child is an empty `UBLExtensions` of the UBL
 * extension namespace (`<ext:UBLExtensions/>` or with blanks only inside); otherwise `xml` unchanged.
 * The insertion adds no line break, so line numbers stay those of the document given.
 */
export function fillEmptyUblExtensions(xml: string): { text: string; filled: boolean } {
  const unchanged = { text: xml, filled: false };
  const root = xmlRoot(xml);
  if (!root || root.empty) return unchanged;
  let i = root.end;
  for (;;) {
    while (i < xml.length && /\s/.test(xml[i]!)) i++;
    if (!xml.startsWith('<!--', i)) break;
    const e = xml.indexOf('-->', i + 4);
    if (e < 0) return unchanged;
    i = e + 3;
  }
  const m = /^<(?:([\w.-]+):)?UBLExtensions(?=[\s/>])/.exec(xml.slice(i, i + 200));
  if (!m) return unchanged;
  const end = startTagEnd(xml, i);
  if (end < 0) return unchanged;
  const prefix = m[1] ?? '';
  const tag = xml.slice(i, end);
  const ns = declaredNamespace(tag, prefix) ?? declaredNamespace(xml.slice(root.start, root.end), prefix);
  if (ns !== UBL_EXTENSIONS_NAMESPACE) return unchanged;
  const p = prefix ? `${prefix}:` : '';
  const mark = `<u:Unsigned xmlns:u="${UNSIGNED_PLACEHOLDER_NAMESPACE}"/>`;
  const filler = `<${p}UBLExtension><${p}ExtensionContent>${mark}</${p}ExtensionContent></${p}UBLExtension>`;
  if (xml.charCodeAt(end - 2) === 47) {
    // <ext:UBLExtensions/> → <ext:UBLExtensions>filler</ext:UBLExtensions>
    return { text: `${xml.slice(0, end - 2)}>${filler}</${p}UBLExtensions>${xml.slice(end)}`, filled: true };
  }
  const close = `</${p}UBLExtensions>`;
  const c = xml.indexOf(close, end);
  if (c < 0) return unchanged;
  if (xml.slice(end, c).trim() !== '') {
    // The signature's empty ExtensionContent, the last one before </ext:UBLExtensions>.
    const open = `<${p}ExtensionContent>`;
    const empty = `${open}</${p}ExtensionContent>`;
    const at = xml.lastIndexOf(empty, c);
    const nextOpen = xml.indexOf(open, at + open.length);
    if (at < end || (nextOpen !== -1 && nextOpen < c)) return unchanged;
    const cut = at + open.length;
    return { text: `${xml.slice(0, cut)}${mark}${xml.slice(cut)}`, filled: true };
  }
  return { text: `${xml.slice(0, end)}${filler}${xml.slice(end)}`, filled: true };
}

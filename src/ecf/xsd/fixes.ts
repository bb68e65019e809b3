/**
 * In-memory repairs of the official XSD files, so libxml2 can compile them as served.
 * The files on disk are never modified; every repair is reported.
 */

export type XsdFixKind = 'strip-bom' | 'trim-name' | 'non-capturing-group';

/** One repair applied to one file. */
export interface XsdFix {
  file: string;
  kind: XsdFixKind;
  /** How many places were changed. */
  count: number;
  /** English description, e.g. `name=" IndicadorServicioTodoIncluidoType" → "IndicadorServicioTodoIncluidoType"`. */
  detail: string;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Decodes the file (UTF-8) and applies the known fixes. */
export function fixXsd(file: string, bytes: Uint8Array): { text: string; fixes: XsdFix[] } {
  const fixes: XsdFix[] = [];
  let body = bytes;
  if (bytes.length >= 3 && UTF8_BOM.every((b, i) => bytes[i] === b)) {
    body = bytes.subarray(3);
    fixes.push({ file, kind: 'strip-bom', count: 1, detail: 'removed the leading UTF-8 byte order mark' });
  }
  let text = new TextDecoder('utf-8').decode(body);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a BOM that survived decoding (double BOM)

  // Names with leading/trailing blanks (e-CF-31: name=" IndicadorServicioTodoIncluidoType") cannot be referenced.
  const trimmed: string[] = [];
  text = text.replace(
    /(<xs:(?:simpleType|complexType|element|group|attributeGroup|attribute)\b[^>]*?\bname=)(["'])([^"']*)\2/g,
    (all, head: string, q: string, name: string) => {
      const t = name.trim();
      if (t === name) return all;
      trimmed.push(`name=${q}${name}${q} → ${q}${t}${q}`);
      return `${head}${q}${t}${q}`;
    },
  );
  if (trimmed.length) fixes.push({ file, kind: 'trim-name', count: trimmed.length, detail: trimmed.join('; ') });

  // .NET-only non-capturing groups `(?:…)` in patterns: XSD regex has no such syntax; `(` is equivalent for matching.
  let groups = 0;
  text = text.replace(/(<xs:pattern\b[^>]*?\bvalue=)(["'])([^"']*)\2/g, (all, head: string, q: string, value: string) => {
    if (!value.includes('(?:')) return all;
    groups += value.split('(?:').length - 1;
    return `${head}${q}${value.split('(?:').join('(')}${q}`;
  });
  if (groups) fixes.push({ file, kind: 'non-capturing-group', count: groups, detail: `replaced ${groups} "(?:" with "(" in xs:pattern values` });

  return { text, fixes };
}

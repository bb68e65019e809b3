/**
 * Schemas compiled from memory (libxml.ts) have no base location, so a relative `schemaLocation` in their
 * `import` / `include` / `redefine` would be resolved against the process's working directory. A set whose
 * schemas import each other (`../common/Types.xsd`) is compiled by first anchoring the entry schema's relative
 * locations to the file it was read from: libxml2 then reads the imported files from disk, and resolves their
 * own relative imports against their own location.
 */
import { pathToFileURL } from 'node:url';

/** An absolute URI (`file:`, `http:`, `urn:` …) or an absolute path: left as it is. */
const ABSOLUTE = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|\/)/;

/**
 * Rewrites the relative `schemaLocation`s of the `import`, `include` and `redefine` elements of `xsdText` into
 * absolute `file:` URLs resolved against `path` (the file the text was read from). Returns the new text and the
 * rewritten locations (`relative → absolute`), in document order.
 */
export function anchorSchemaLocations(xsdText: string, path: string): { text: string; anchored: string[] } {
  const base = pathToFileURL(path);
  const anchored: string[] = [];
  const text = xsdText.replace(/<(?:[\w.-]+:)?(?:import|include|redefine)\b[^>]*>/g, (tag) =>
    tag.replace(/(\sschemaLocation\s*=\s*)(["'])([^"']*)\2/, (all, head: string, q: string, loc: string) => {
      if (loc === '' || ABSOLUTE.test(loc)) return all;
      const abs = new URL(loc, base).href;
      anchored.push(`${loc} → ${abs}`);
      return `${head}${q}${abs.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')}${q}`;
    }),
  );
  return { text, anchored };
}

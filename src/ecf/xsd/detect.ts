import type { SchemaId } from '../ports.js';
import { skipDeclaration } from '../../shared/xsd/locate.js';
import { isSchemaId } from './schemas.js';

/** Root element name of an XML text (prefix stripped), skipping the prolog; null if none is found. */
export function rootElementName(xml: string): string | null {
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    i = xml.indexOf('<', i);
    if (i < 0) return null;
    if (xml.startsWith('<?', i)) {
      const e = xml.indexOf('?>', i);
      if (e < 0) return null;
      i = e + 2;
      continue;
    }
    if (xml.startsWith('<!--', i)) {
      const e = xml.indexOf('-->', i);
      if (e < 0) return null;
      i = e + 3;
      continue;
    }
    if (xml.startsWith('<!', i)) {
      i = skipDeclaration(xml, i);
      continue;
    }
    const m = /^<([^\s/>]+)/.exec(xml.slice(i, i + 200));
    if (!m) return null;
    const q = m[1]!;
    return q.slice(q.lastIndexOf(':') + 1);
  }
}

/**
 * Which schema of the set a document is for: from its root element and, for `ECF`, from `Encabezado/IdDoc/TipoeCF`.
 * Returns null when it cannot tell (unknown root, or an ECF without a known TipoeCF).
 */
export function detectSchemaId(xml: string): SchemaId | null {
  const root = rootElementName(xml);
  switch (root) {
    case 'ECF': {
      const m = /<TipoeCF>\s*(\d+)\s*<\/TipoeCF>/.exec(xml);
      const id = m ? `ECF-${m[1]}` : '';
      return isSchemaId(id) ? id : null;
    }
    case 'RFCE':
    case 'ARECF':
    case 'ACECF':
    case 'ANECF':
      return root;
    case 'SemillaModel':
      return 'Semilla';
    default:
      return null;
  }
}

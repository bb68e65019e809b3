import type { SchemaId } from '../ports.js';
import { rootStartTag } from '../../shared/xsd/root.js';
import { isSchemaId } from './schemas.js';

/** Root element name of an XML text (prefix stripped), skipping the prolog; null if none is found. */
export function rootElementName(xml: string): string | null {
  const root = rootStartTag(xml);
  return root ? root.qname.slice(root.qname.lastIndexOf(':') + 1) : null;
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

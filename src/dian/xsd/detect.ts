/** Which document of the DIAN set an XML text is, from its root element's local name and namespace. */
import { xmlRoot } from '../../shared/xsd/root.js';
import { DIAN_SCHEMA_IDS, DIAN_SCHEMA_NAMESPACES, type DianSchemaId } from './schemas.js';

export { xmlRoot, type XmlRoot } from '../../shared/xsd/root.js';

/**
 * Which schema of the set a document is for: its root element's local name must be one of the documents
 * (`Invoice`, …, `NominaIndividualDeAjuste`) and its namespace that document's. Returns null otherwise (unknown
 * root, or a known name in another namespace).
 */
export function detectDianSchemaId(xml: string): DianSchemaId | null {
  const root = xmlRoot(xml);
  if (!root) return null;
  const id = DIAN_SCHEMA_IDS.find((s) => s === root.localName);
  return id && DIAN_SCHEMA_NAMESPACES[id] === root.namespace ? id : null;
}

/**
 * The documents of the DIAN XSD set (UBL 2.1 as DIAN ships it in its toolboxes, plus the payroll schemas): which
 * file validates each, and the root element and namespace that identify it.
 */

/** Names of the documents the DIAN set validates. */
export type DianSchemaId =
  | 'Invoice'
  | 'CreditNote'
  | 'DebitNote'
  | 'ApplicationResponse'
  | 'AttachedDocument'
  | 'NominaIndividual'
  | 'NominaIndividualDeAjuste';

export interface DianSchemaValidateOptions {
  /**
   * Validate a document before it is signed. UBL requires at least one `ext:UBLExtension` inside
   * `ext:UBLExtensions`, and the signature is what fills it: an unsigned document that carries the empty
   * `<ext:UBLExtensions/>` placeholder (as DIAN's payroll templates do) fails the schema as shipped. With this
   * option, an empty `ext:UBLExtensions` that is the root's first child is given, in memory, one placeholder
   * `ext:UBLExtension` whose content is an element of a namespace no schema declares (accepted by the lax
   * wildcard). Nothing else changes; paths and line numbers of violations are those of the document given.
   * Default false: the document is validated exactly as DIAN would receive it.
   */
  unsigned?: boolean;
}

/** Every document of the set, in a stable order. */
export const DIAN_SCHEMA_IDS: readonly DianSchemaId[] = [
  'Invoice',
  'CreditNote',
  'DebitNote',
  'ApplicationResponse',
  'AttachedDocument',
  'NominaIndividual',
  'NominaIndividualDeAjuste',
];

/** The file (relative to the XSD directory) that validates each document. */
export const DIAN_SCHEMA_FILES: Readonly<Record<DianSchemaId, string>> = {
  Invoice: 'maindoc/UBL-Invoice-2.1.xsd',
  CreditNote: 'maindoc/UBL-CreditNote-2.1.xsd',
  DebitNote: 'maindoc/UBL-DebitNote-2.1.xsd',
  ApplicationResponse: 'maindoc/UBL-ApplicationResponse-2.1.xsd',
  AttachedDocument: 'maindoc/UBL-AttachedDocument-2.1.xsd',
  NominaIndividual: 'payroll/NominaIndividualElectronicaXSDV1.0.6.xsd',
  NominaIndividualDeAjuste: 'payroll/NominaIndividualDeAjusteElectronicaXSDV1.0.6.xsd',
};

const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:';

/** Namespace of each document's root element (its local name is the schema id). */
export const DIAN_SCHEMA_NAMESPACES: Readonly<Record<DianSchemaId, string>> = {
  Invoice: `${UBL}Invoice-2`,
  CreditNote: `${UBL}CreditNote-2`,
  DebitNote: `${UBL}DebitNote-2`,
  ApplicationResponse: `${UBL}ApplicationResponse-2`,
  AttachedDocument: `${UBL}AttachedDocument-2`,
  NominaIndividual: 'dian:gov:co:facturaelectronica:NominaIndividual',
  NominaIndividualDeAjuste: 'dian:gov:co:facturaelectronica:NominaIndividualDeAjuste',
};

/** Namespace of `ext:UBLExtensions` (UBL common extension components). */
export const UBL_EXTENSIONS_NAMESPACE = `${UBL}CommonExtensionComponents-2`;

export function isDianSchemaId(s: string): s is DianSchemaId {
  return (DIAN_SCHEMA_IDS as readonly string[]).includes(s);
}

/** Where to get the files, for error messages. */
export const DIAN_XSD_HELP =
  'Get the XSD folders of the DIAN toolboxes ("Caja de herramientas" FE v1.9: XSD/maindoc and XSD/common; ' +
  'Nómina Electrónica v1.0: XSD) and run `ecf dian xsd install <folder|zip> --xsd-dir <dir>` ' +
  '(or set DIAN_XSD_DIR to a folder laid out as maindoc/, common/ and payroll/ with the 22 files).';

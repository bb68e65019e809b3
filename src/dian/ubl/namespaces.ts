/**
 * The XML namespaces of DIAN's UBL documents and the canonical prefix each is known by in {@link UblNode}
 * names, in the generated description and in the XML the builder writes. A file may use any prefixes; the
 * reader maps them to these by namespace URI.
 */

export const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  sts: 'dian:gov:co:facturaelectronica:Structures-2-1',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  xades: 'http://uri.etsi.org/01903/v1.3.2#',
  xades141: 'http://uri.etsi.org/01903/v1.4.1#',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
} as const;

/** Namespace of each UBL document root DIAN uses, by local name. */
export const ROOT_NAMESPACES: Readonly<Record<string, string>> = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  DebitNote: 'urn:oasis:names:specification:ubl:schema:xsd:DebitNote-2',
  ApplicationResponse: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
  AttachedDocument: 'urn:oasis:names:specification:ubl:schema:xsd:AttachedDocument-2',
};

/**
 * The two other `sts` namespaces seen in DIAN's own samples and in public signers (dian-protocol.md §1.4).
 * The reader gives their elements the `sts:` prefix too; the builder writes only {@link NS}.sts.
 */
export const STS_ALTERNATES: readonly string[] = [
  'http://www.dian.gov.co/contratos/facturaelectronica/v1/Structures',
  'urn:dian:gov:co:facturaelectronica:Structures-2-1',
];

/** Canonical prefix by namespace URI (the `sts` alternates included). */
export const PREFIX_OF: ReadonlyMap<string, string> = new Map<string, string>([
  ...Object.entries(NS).map(([p, uri]) => [uri, p] as [string, string]),
  ...STS_ALTERNATES.map((uri) => [uri, 'sts'] as [string, string]),
]);

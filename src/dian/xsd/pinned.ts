import type { PinnedXsdManifest } from '../../shared/xsd/manifest.js';
import { DIAN_XSD_HELP } from './schemas.js';

/**
 * SHA-256 of each file of the DIAN XSD set: the FE v1.9 toolbox (`maindoc/`, `common/`) and the payroll v1.0
 * toolbox (`payroll/`), byte for byte as DIAN ships them (CRLF line ends), taken from the public mirror
 * Kreo-one/dian-toolkit@d37edd5866c7f4d9fcb7d57de9390667e261434b. The keys are paths relative to the XSD
 * directory: the schemas import each other as `../common/…`, so the three folders must stay siblings.
 * `ecf dian xsd install` refuses files whose hash differs unless forced. Update these together with a note in
 * docs/dian.md ("XSD set") when DIAN publishes a new toolbox.
 */
export const DIAN_XSD_SET_DATE = '2026-11-24';
export const DIAN_XSD_SHA256: Readonly<Record<string, string>> = {
  'maindoc/DIAN_UBL_Structures.xsd': 'efcb792f703d06a5815392cd94c868df8203471c41e749b6774f9fbccb325f9c',
  'maindoc/UBL-ApplicationResponse-2.1.xsd': 'b162e4fcd0026ce0dced50fdf3efe40dff8509fadb179525a5a2e95de6b5d67a',
  'maindoc/UBL-AttachedDocument-2.1.xsd': '61008754004e4f1755c94326373de478a00f2e115d52e515e45b0f5f6d9dcb11',
  'maindoc/UBL-CreditNote-2.1.xsd': '9a8ed78339a7b321acf51278dc4faf2f842a0db002010589d782cd0cd2b253c0',
  'maindoc/UBL-DebitNote-2.1.xsd': '87b4d8e31512ab3694d943e0f4b6f148cd170cb8ed3801cb196ef3920ba8a7cd',
  'maindoc/UBL-Invoice-2.1.xsd': '73a771d90790220181b0cb1a037b81b4baeea33c8bf2e3c8e12111090e644c6e',
  'common/CCTS_CCT_SchemaModule-2.1.xsd': 'd5fcf183b62d1e23021f1f62a5b129c9e1ef1fc7c451cf3d2f23e3fe5a8efbfd',
  'common/UBL-CommonAggregateComponents-2.1.xsd': '2fd76c6bead543354c01bc40eab3e8188c25ee96b2a902456522ec6bab8b483e',
  'common/UBL-CommonBasicComponents-2.1.xsd': '0e71e086fbacb274b385fed385e29d7678ff9af6201f2975c3b51c298f51743a',
  'common/UBL-CommonExtensionComponents-2.1.xsd': 'ad8d68885d9e72d73f2ba50f173a408366a1dcbe59b88aced65df95a8dc2a646',
  'common/UBL-CommonSignatureComponents-2.1.xsd': '4b1712f409695448e05288209792eef1980a5833fb13157b4b49d36ccc8a37a0',
  'common/UBL-CoreComponentParameters-2.1.xsd': '884dfb162e341ba7c67fce002c5f04af6082b4901e53777322463dbb81cf69f4',
  'common/UBL-ExtensionContentDataType-2.1.xsd': 'b91487d4b9e9a6c2853998873ed510da16897530479b5af0565a3bcfdf5c97d3',
  'common/UBL-QualifiedDataTypes-2.1.xsd': '1a6182be542088f70d0351bbee1186d6b44ef86fac9a580622928ec989e558a9',
  'common/UBL-SignatureAggregateComponents-2.1.xsd': 'f54c70a5c9f4892d553ad397cbda2affbf861fd56f095c9094e205613a403e83',
  'common/UBL-SignatureBasicComponents-2.1.xsd': '28207e7f2727857318a18ba6890fc158f4ac04eee1697285865111b50e2fad40',
  'common/UBL-UnqualifiedDataTypes-2.1.xsd': 'dd5b4e58a49dad38f1ec72b9e0ac4913dcf51168886bb87e2335fb168736018b',
  'common/UBL-XAdESv132-2.1.xsd': '6cb9e71bef4d0de3baf5d1fa4268898ece0245d60d0ce22e76af92b7602089a3',
  'common/UBL-XAdESv141-2.1.xsd': 'dbeb8eb9cde28083521551e27044200fdfe20280bb666dd052cf0de294ae14d4',
  'common/UBL-xmldsig-core-schema-2.1.xsd': '4da8800539360f2352afaeb7b7bd553c78a437887eaa67e33ee5573dde331094',
  'payroll/NominaIndividualDeAjusteElectronicaXSDV1.0.6.xsd': '829a412d5e8670a98fef1673e1039638a8871d4d3920d76f9b3f71da2d28fda0',
  'payroll/NominaIndividualElectronicaXSDV1.0.6.xsd': 'b1a7f6f321d8a0aa906f192ca2175fb72ba9e4d6d7968dc0d0d9b9cc9fd92f06',
};

/** The 22 files of the set, in a stable order (maindoc, common, payroll). */
export const DIAN_XSD_FILE_NAMES: readonly string[] = [
  'maindoc/DIAN_UBL_Structures.xsd',
  'maindoc/UBL-ApplicationResponse-2.1.xsd',
  'maindoc/UBL-AttachedDocument-2.1.xsd',
  'maindoc/UBL-CreditNote-2.1.xsd',
  'maindoc/UBL-DebitNote-2.1.xsd',
  'maindoc/UBL-Invoice-2.1.xsd',
  'common/CCTS_CCT_SchemaModule-2.1.xsd',
  'common/UBL-CommonAggregateComponents-2.1.xsd',
  'common/UBL-CommonBasicComponents-2.1.xsd',
  'common/UBL-CommonExtensionComponents-2.1.xsd',
  'common/UBL-CommonSignatureComponents-2.1.xsd',
  'common/UBL-CoreComponentParameters-2.1.xsd',
  'common/UBL-ExtensionContentDataType-2.1.xsd',
  'common/UBL-QualifiedDataTypes-2.1.xsd',
  'common/UBL-SignatureAggregateComponents-2.1.xsd',
  'common/UBL-SignatureBasicComponents-2.1.xsd',
  'common/UBL-UnqualifiedDataTypes-2.1.xsd',
  'common/UBL-XAdESv132-2.1.xsd',
  'common/UBL-XAdESv141-2.1.xsd',
  'common/UBL-xmldsig-core-schema-2.1.xsd',
  'payroll/NominaIndividualDeAjusteElectronicaXSDV1.0.6.xsd',
  'payroll/NominaIndividualElectronicaXSDV1.0.6.xsd',
];

/** DIAN's manifest: what the kernel installer and loader (src/shared/xsd/) check the set against. */
export const DIAN_XSD_MANIFEST: PinnedXsdManifest = {
  product: 'DIAN',
  publisher: 'DIAN',
  setDate: DIAN_XSD_SET_DATE,
  files: DIAN_XSD_SHA256,
  fileNames: DIAN_XSD_FILE_NAMES,
  sourceHint: 'give the folder or the .zip holding the XSD folders of the DIAN toolboxes',
  help: DIAN_XSD_HELP,
};

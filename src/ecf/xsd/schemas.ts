import type { SchemaId } from '../ports.js';

/** Every schema of the official DGII set, in a stable order. */
export const SCHEMA_IDS: readonly SchemaId[] = [
  'ECF-31',
  'ECF-32',
  'ECF-33',
  'ECF-34',
  'ECF-41',
  'ECF-43',
  'ECF-44',
  'ECF-45',
  'ECF-46',
  'ECF-47',
  'RFCE',
  'ARECF',
  'ACECF',
  'ANECF',
  'Semilla',
];

/** File name of each schema, exactly as DGII publishes it. */
export const SCHEMA_FILES: Readonly<Record<SchemaId, string>> = {
  'ECF-31': 'e-CF-31-v1.0.xsd',
  'ECF-32': 'e-CF-32-v1.0.xsd',
  'ECF-33': 'e-CF-33-v1.0.xsd',
  'ECF-34': 'e-CF-34-v1.0.xsd',
  'ECF-41': 'e-CF-41-v1.0.xsd',
  'ECF-43': 'e-CF-43-v1.0.xsd',
  'ECF-44': 'e-CF-44-v1.0.xsd',
  'ECF-45': 'e-CF-45-v1.0.xsd',
  'ECF-46': 'e-CF-46-v1.0.xsd',
  'ECF-47': 'e-CF-47-v1.0.xsd',
  RFCE: 'RFCE-32-v1.0.xsd',
  ARECF: 'ARECF-v1.0.xsd',
  ACECF: 'ACECF-v1.0.xsd',
  ANECF: 'ANECF-v1.0.xsd',
  Semilla: 'Semilla-v1.0.xsd',
};

/** The fifteen file names of the set. */
export const XSD_FILE_NAMES: readonly string[] = SCHEMA_IDS.map((id) => SCHEMA_FILES[id]);

/** Root element each schema declares. */
export const SCHEMA_ROOTS: Readonly<Record<SchemaId, string>> = {
  'ECF-31': 'ECF',
  'ECF-32': 'ECF',
  'ECF-33': 'ECF',
  'ECF-34': 'ECF',
  'ECF-41': 'ECF',
  'ECF-43': 'ECF',
  'ECF-44': 'ECF',
  'ECF-45': 'ECF',
  'ECF-46': 'ECF',
  'ECF-47': 'ECF',
  RFCE: 'RFCE',
  ARECF: 'ARECF',
  ACECF: 'ACECF',
  ANECF: 'ANECF',
  Semilla: 'SemillaModel',
};

export function isSchemaId(s: string): s is SchemaId {
  return (SCHEMA_IDS as readonly string[]).includes(s);
}

/** Where to get the files, for error messages. */
export const XSD_HELP =
  'Download the XSD set from DGII ("Documentación sobre e-CF" → "Documentación Técnica (XSD)") and run ' +
  '`ecf xsd install <folder|zip> --xsd-dir <dir>` (or set ECF_XSD_DIR to a folder that holds the 15 files).';

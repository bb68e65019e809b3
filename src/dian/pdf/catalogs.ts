/**
 * Spanish names the printed representation shows for DIAN codes (FE annex code lists, the common entries as
 * DIAN's samples and public integrations use them). A code without a name prints as the code itself.
 */
import type { CurrencyWords } from '../../shared/pdf/words.js';

/** Identification document types (annex 13.2.1). */
export const ID_TYPES: Readonly<Record<string, string>> = {
  '11': 'Registro civil',
  '12': 'Tarjeta de identidad',
  '13': 'Cédula de ciudadanía',
  '21': 'Tarjeta de extranjería',
  '22': 'Cédula de extranjería',
  '31': 'NIT',
  '41': 'Pasaporte',
  '42': 'Documento de identificación extranjero',
  '47': 'PEP',
  '48': 'PPT',
  '50': 'NIT de otro país',
  '91': 'NUIP',
};

/** Tax regimes (`TaxLevelCode/@listName`, `regime_type_code`). */
export const REGIMES: Readonly<Record<string, string>> = {
  '04': 'Régimen simple de tributación',
  '05': 'Régimen ordinario',
  '48': 'Responsable de IVA',
  '49': 'No responsable de IVA',
};

/** Fiscal responsibilities (`TaxLevelCode`). */
export const LIABILITIES: Readonly<Record<string, string>> = {
  'O-13': 'Gran contribuyente',
  'O-15': 'Autorretenedor',
  'O-23': 'Agente de retención IVA',
  'O-47': 'Régimen simple de tributación',
  'R-99-PN': 'No aplica - otros',
  'O-99': 'Otro tipo de obligado',
};

/** Organization types. */
export const ORGANIZATION_TYPES: Readonly<Record<string, string>> = { '1': 'Persona jurídica', '2': 'Persona natural' };

/** Payment forms (`PaymentMeans/ID`). */
export const PAYMENT_FORMS: Readonly<Record<string, string>> = { '1': 'Contado', '2': 'Crédito' };

/** Payment means (`PaymentMeansCode`). */
export const PAYMENT_MEANS: Readonly<Record<string, string>> = {
  '1': 'Instrumento no definido',
  '10': 'Efectivo',
  '20': 'Cheque',
  '41': 'Transferencia bancaria',
  '42': 'Consignación bancaria',
  '45': 'Transferencia crédito bancario',
  '46': 'Transferencia débito interbancario',
  '47': 'Transferencia débito bancaria',
  '48': 'Tarjeta crédito',
  '49': 'Tarjeta débito',
  '71': 'Bonos',
  '72': 'Vales',
  ZZZ: 'Acuerdo mutuo',
};

/** Units of measure (`unitCode`), the common ones. */
export const UNITS: Readonly<Record<string, string>> = {
  '94': 'Unidad',
  EA: 'Unidad',
  NIU: 'Unidad',
  HUR: 'Hora',
  DAY: 'Día',
  MON: 'Mes',
  KGM: 'Kilogramo',
  GRM: 'Gramo',
  LTR: 'Litro',
  MTR: 'Metro',
  MTK: 'Metro cuadrado',
  MTQ: 'Metro cúbico',
  GLL: 'Galón',
  BX: 'Caja',
  PR: 'Par',
  ZZ: 'Mutuamente definido',
};

/** Correction concepts of notes (`DiscrepancyResponse/ResponseCode`), by the note's root. */
export const CORRECTION_CONCEPTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  CreditNote: {
    '1': 'Devolución parcial de los bienes y/o no aceptación parcial del servicio',
    '2': 'Anulación del documento',
    '3': 'Rebaja o descuento parcial o total',
    '4': 'Ajuste de precio',
    '5': 'Descuento comercial por pronto pago',
    '6': 'Descuento comercial por volumen de ventas',
  },
  DebitNote: { '1': 'Intereses', '2': 'Gastos por cobrar', '3': 'Cambio del valor', '4': 'Otros' },
  Invoice: {},
};

/** Operation types (`CustomizationID`), the common ones. */
export const OPERATION_TYPES: Readonly<Record<string, string>> = {
  '10': 'Estándar',
  '09': 'AIU',
  '11': 'Mandatos',
  '12': 'Transporte',
  '20': 'Nota crédito que referencia una factura',
  '22': 'Nota crédito sin referencia a facturas',
  '30': 'Nota débito que referencia una factura',
  '32': 'Nota débito sin referencia a facturas',
};

/** How the party blocks are titled, by who the request's `customer` is (`DianKind.customerRole`). */
export const PARTY_TITLES: Readonly<Record<'customer' | 'supplier', { issuer: string; counterparty: string }>> = {
  customer: { issuer: 'Emisor', counterparty: 'Adquiriente' },
  supplier: { issuer: 'Adquiriente (emisor del documento soporte)', counterparty: 'Vendedor o prestador del servicio' },
};

/** Currency names for the total in words; others print as `<code>`. */
export const CURRENCY_WORDS: Readonly<Record<string, CurrencyWords>> = {
  COP: { singular: 'peso', plural: 'pesos', centSingular: 'centavo', centPlural: 'centavos', suffix: 'M/CTE' },
  USD: { singular: 'dólar estadounidense', plural: 'dólares estadounidenses', centSingular: 'centavo', centPlural: 'centavos' },
  EUR: { singular: 'euro', plural: 'euros', centSingular: 'céntimo', centPlural: 'céntimos' },
};

/** A code with its name: `48 - Tarjeta crédito`, or the code alone when unknown. */
export function named(table: Readonly<Record<string, string>>, code: unknown): string {
  if (code === undefined || code === null || code === '') return '';
  const c = String(code);
  const n = table[c];
  return n ? `${c} - ${n}` : c;
}

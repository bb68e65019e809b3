/**
 * Small DIAN code tables the builder writes names from (FE annex table 13.2.2 "Tributos", as DIAN's samples and
 * public integrations use them) and the Bogotá offset. Names are DIAN's.
 */

/** Tax scheme code → `cac:TaxScheme/cbc:Name`. */
export const TAX_NAMES: Readonly<Record<string, string>> = {
  '01': 'IVA',
  '02': 'IC',
  '03': 'ICA',
  '04': 'INC',
  '05': 'ReteIVA',
  '06': 'ReteRenta',
  '07': 'ReteICA',
  '08': 'IC Porcentual',
  '20': 'FtoHorticultura',
  '21': 'Timbre',
  '22': 'INC Bolsas',
  '23': 'INCarbono',
  '24': 'INCombustibles',
  '25': 'Sobretasa Combustibles',
  '26': 'Sordicom',
  '30': 'IC Datos',
  '32': 'ICL',
  '33': 'INPP',
  '34': 'IBUA',
  '35': 'ICUI',
  '36': 'ADV',
  ZA: 'IVA e INC',
  ZZ: 'No aplica',
};

/** Support-document line `InvoicePeriod/DescriptionCode` → its description. */
export const TRANSMISSION_NAMES: Readonly<Record<string, string>> = { '1': 'Por operación', '2': 'Acumulado semanal' };

/** Colombia's offset from UTC, in minutes (no daylight saving time): issue times are written with `-05:00`. */
export const BOGOTA_OFFSET_MINUTES = -300;
export const BOGOTA_OFFSET = '-05:00';

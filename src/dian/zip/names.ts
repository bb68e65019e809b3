/**
 * DIAN's file names for a document and its zip (dian-protocol.md §6). Pure: the counter and the year come in as
 * parameters (the caller keeps the counter, which restarts every 1 January). Bad input is a value
 * (`{ ok: false, field, message }`, Spanish message), never a throw.
 *
 * - Invoices, notes, POS, events, AttachedDocument (FE annex §6.5.7/6.5.8):
 *   `{prefix}{NIT, 10 digits zero-padded, no DV}{ppp provider code}{aa year}{8-character counter}.xml`,
 *   zip `z{same body}.zip`.
 * - Payroll (payroll annex §3.3–3.5): `nie{NIT10}{aa}{counter}.xml` (`niae…` for the adjustment note), zip
 *   `z{NIT10}{aa}{counter}.zip`: **no provider segment**.
 *
 * The counter is written in hexadecimal by default (`counterFormat: 'hex'`, upper case, `0000000C` is the twelfth):
 * both annexes say hexadecimal and the payroll annex's example is hex (`nie0800197268200000000C.xml`); the FE annex's
 * own example reads as decimal, and DIAN is not known to check either way, so `counterFormat: 'decimal'` is there
 * for issuers who number in decimal. Counters 1–9 are the same in both.
 */

/** The kinds of file DIAN names: the request kinds of the service plus events, AttachedDocument and payroll. */
export type DianFileKind =
  | 'invoice'
  | 'export-invoice'
  | 'contingency-invoice'
  | 'credit-note'
  | 'debit-note'
  | 'support-invoice'
  | 'note-support-invoice'
  | 'pos'
  | 'credit-note-equivalent'
  | 'debit-note-equivalent'
  | 'application-response'
  | 'attached-document'
  | 'payroll'
  | 'payroll-adjustment';

/**
 * The file-name prefix of each kind (dian-protocol.md §6.1, as seen in APIDIAN's seed [C]; payroll §6.2 [V]):
 * invoices 01/02/03/04 `fv`, credit note 91 `nc`, debit note 92 `nd`, support document 05 `dse` and its note 95
 * `nds`, POS 20 `pos` and its notes 94 `ncq` / 93 `ndq`, ApplicationResponse `ar`, AttachedDocument `ad`,
 * payroll 102 `nie` and 103 `niae`.
 */
export const DIAN_FILE_PREFIXES: Readonly<Record<DianFileKind, string>> = {
  invoice: 'fv',
  'export-invoice': 'fv',
  'contingency-invoice': 'fv',
  'credit-note': 'nc',
  'debit-note': 'nd',
  'support-invoice': 'dse',
  'note-support-invoice': 'nds',
  pos: 'pos',
  'credit-note-equivalent': 'ncq',
  'debit-note-equivalent': 'ndq',
  'application-response': 'ar',
  'attached-document': 'ad',
  payroll: 'nie',
  'payroll-adjustment': 'niae',
};

/** How the 8-character counter is written: `hex` (upper case, the annexes' text; default) or `decimal`. */
export type DianCounterFormat = 'decimal' | 'hex';

/** The largest counter of each format (8 characters). */
export const DIAN_COUNTER_MAX: Readonly<Record<DianCounterFormat, number>> = { decimal: 99_999_999, hex: 0xffff_ffff };

export interface DianFileNameInput {
  /** Default `invoice`. */
  kind?: DianFileKind;
  /** The issuer's NIT without the check digit (DV): 1 to 10 digits, zero-padded to 10. */
  nit: string;
  /**
   * The 3-digit provider code (`000` own software, `001` DIAN's free software). Required except for payroll, whose
   * names have no provider segment (given there, it is refused so that a mistake does not pass silently).
   */
  provider?: string;
  /** The year: its last two digits (`26`) or the full year (`2026`). */
  year: number;
  /** The file counter of the year, from 1 (restarts every 1 January; the caller keeps it). */
  counter: number;
  /** Default `hex` (see the module comment). */
  counterFormat?: DianCounterFormat;
}

/** A document's file names. */
export interface DianFileNames {
  /** The XML's name, e.g. `fv08001972680002600000001.xml`. */
  xml: string;
  /** The zip's name (SendBillSync/Async `fileName`), e.g. `z08001972680002600000001.zip`. */
  zip: string;
}

/** The names, or which input is wrong and why (Spanish, for API clients). */
export type DianFileNamesResult =
  | { ok: true; value: DianFileNames }
  | { ok: false; field: 'kind' | 'nit' | 'provider' | 'year' | 'counter' | 'counterFormat'; message: string };

const isPayroll = (kind: DianFileKind): boolean => kind === 'payroll' || kind === 'payroll-adjustment';

/** The XML and zip names of a document (errors as values). */
export function dianFileNames(input: DianFileNameInput): DianFileNamesResult {
  const kind = input.kind ?? 'invoice';
  if (!Object.hasOwn(DIAN_FILE_PREFIXES, kind)) {
    return { ok: false, field: 'kind', message: `Tipo de documento desconocido para el nombre de archivo: "${String(kind)}".` };
  }
  const nit = input.nit;
  if (typeof nit !== 'string' || !/^\d{1,10}$/.test(nit)) {
    const hint = typeof nit === 'string' && /^\d{1,10}-\d$/.test(nit) ? ' Se escribe sin el dígito de verificación (DV).' : '';
    return { ok: false, field: 'nit', message: `El NIT debe tener de 1 a 10 dígitos, sin DV ni separadores; se recibió "${String(nit)}".${hint}` };
  }
  let provider = '';
  if (isPayroll(kind)) {
    if (input.provider !== undefined) {
      return { ok: false, field: 'provider', message: 'Los nombres de archivo de nómina no llevan código de proveedor; no lo envíe.' };
    }
  } else {
    if (typeof input.provider !== 'string' || !/^\d{3}$/.test(input.provider)) {
      return {
        ok: false,
        field: 'provider',
        message: `El código de proveedor debe tener 3 dígitos (000 software propio, 001 software gratuito de la DIAN); se recibió "${String(input.provider)}".`,
      };
    }
    provider = input.provider;
  }
  const year = input.year;
  if (!Number.isInteger(year) || year < 0 || (year > 99 && (year < 1000 || year > 9999))) {
    return { ok: false, field: 'year', message: `El año debe ser de 2 dígitos (26) o de 4 (2026); se recibió ${String(year)}.` };
  }
  const format = input.counterFormat ?? 'hex';
  if (format !== 'hex' && format !== 'decimal') {
    return { ok: false, field: 'counterFormat', message: `El formato del consecutivo debe ser "hex" o "decimal"; se recibió "${String(format)}".` };
  }
  const counter = input.counter;
  const max = DIAN_COUNTER_MAX[format];
  if (!Number.isInteger(counter) || counter < 1 || counter > max) {
    const maxText = format === 'hex' ? `FFFFFFFF (${max})` : String(max);
    return {
      ok: false,
      field: 'counter',
      message: `El consecutivo del archivo debe ser un entero de 1 a ${maxText} (formato ${format}); se recibió ${String(counter)}.`,
    };
  }
  const digits = (format === 'hex' ? counter.toString(16).toUpperCase() : String(counter)).padStart(8, '0');
  const body = `${nit.padStart(10, '0')}${provider}${String(year % 100).padStart(2, '0')}${digits}`;
  return { ok: true, value: { xml: `${DIAN_FILE_PREFIXES[kind]}${body}.xml`, zip: `z${body}.zip` } };
}

/**
 * The QR of a DIAN document: the search URL (`sts:QRCode`, payroll `CodigoQR`) and the text lines printed
 * with it (dian-protocol.md §1 item 6, §3.4, §3.7).
 */
import { sum } from '../../shared/money/decimal.js';
import type { CudsInput, InvoiceCodeFields } from './invoice.js';
import {
  type Amount,
  type DianEnvironment,
  exactAmount,
  hashAmount,
  hashDate,
  hashEnvironment,
  hashText,
  hashTime,
  invalid,
  optionalHashAmount,
  truncatedText,
} from './inputs.js';

const HOSTS: Record<DianEnvironment, string> = { '1': 'catalogo-vpfe.dian.gov.co', '2': 'catalogo-vpfe-hab.dian.gov.co' };
const KEY = /^[0-9a-f]{96}$/;

/**
 * The document search URL DIAN's catalogue answers for a CUFE, CUDE, CUDS or CUNE:
 * `https://catalogo-vpfe.dian.gov.co/document/searchqr?documentkey={key}` in production (`1`),
 * `https://catalogo-vpfe-hab.dian.gov.co/…` in habilitación (`2`).
 *
 * @throws EcfError `invalid_argument` when the key is not 96 lower-case hex characters or the environment is unknown
 */
export function qrUrl(documentKey: string, environment: DianEnvironment): string {
  const fn = 'qrUrl';
  if (typeof documentKey !== 'string' || !KEY.test(documentKey)) {
    throw invalid(fn, `documentKey must be a SHA-384 code in lower-case hex (96 characters), got "${String(documentKey)}".`);
  }
  return `https://${HOSTS[hashEnvironment(environment, fn)]}/document/searchqr?documentkey=${documentKey}`;
}

/** Input of {@link invoiceQrText}: the values the codes hash (INC and ICA summed with every other tax), as in the built XML. */
export interface InvoiceQrTextInput extends Omit<InvoiceCodeFields, 'incTaxAmount' | 'icaTaxAmount'> {
  /** `TaxTotal/TaxAmount` of every tax scheme but IVA; summed exactly, then truncated. */
  otherTaxAmounts?: readonly Amount[];
  /** The CUFE (invoices) or CUDE (notes, POS). */
  documentKey: string;
  /** Label of the key line: `CUFE` (default) or `CUDE`. */
  keyLabel?: 'CUFE' | 'CUDE';
}

/**
 * The text of an invoice's QR: lines `NumFac`, `FecFac`, `HorFac`, `NitFac`, `DocAdq`, `ValFac`, `ValIva`,
 * `ValOtroIm`, `ValTolFac`, `CUFE` as `Name: value`, then the search URL, joined with `\n`. Amounts are
 * written as in the codes (truncated to 2 decimals).
 *
 * @throws EcfError `invalid_argument` for a missing, negative or non-decimal amount, or a malformed field
 */
export function invoiceQrText(input: InvoiceQrTextInput): string {
  const fn = 'invoiceQrText';
  const label = input.keyLabel ?? 'CUFE';
  if (label !== 'CUFE' && label !== 'CUDE') throw invalid(fn, `keyLabel must be "CUFE" or "CUDE", got "${String(label)}".`);
  const other = sum((input.otherTaxAmounts ?? []).map((a, i) => exactAmount(a, fn, `otherTaxAmounts.${i}`)));
  return lines(
    [
      ['NumFac', hashText(input.id, fn, 'id')],
      ['FecFac', hashDate(input.issueDate, fn, 'issueDate')],
      ['HorFac', hashTime(input.issueTime, fn, 'issueTime')],
      ['NitFac', hashText(input.supplierCompanyId, fn, 'supplierCompanyId')],
      ['DocAdq', hashText(input.customerCompanyId, fn, 'customerCompanyId')],
      ['ValFac', hashAmount(input.lineExtensionAmount, fn, 'lineExtensionAmount')],
      ['ValIva', optionalHashAmount(input.ivaTaxAmount, fn, 'ivaTaxAmount')],
      ['ValOtroIm', truncatedText(other)],
      ['ValTolFac', hashAmount(input.payableAmount, fn, 'payableAmount')],
      [label, input.documentKey],
    ],
    qrUrl(input.documentKey, input.environment),
  );
}

/** Input of {@link supportDocumentQrText}: the values the CUDS hashes (no PIN) and the CUDS itself. */
export interface SupportDocumentQrTextInput extends Omit<CudsInput, 'softwarePin'> {
  /** The CUDS. */
  documentKey: string;
}

/**
 * The text of a support document's QR: lines `NumDS`, `FecDS`, `HorDS`, `NumSNO`, `DocABS`, `ValDS`,
 * `ValIva`, `ValTolDS`, `CUDS` as `Name: value`, then the search URL, joined with `\n`. Amounts are
 * truncated to 2 decimals, as in the codes.
 *
 * @throws EcfError `invalid_argument` for a missing, negative or non-decimal amount, or a malformed field
 */
export function supportDocumentQrText(input: SupportDocumentQrTextInput): string {
  const fn = 'supportDocumentQrText';
  return lines(
    [
      ['NumDS', hashText(input.id, fn, 'id')],
      ['FecDS', hashDate(input.issueDate, fn, 'issueDate')],
      ['HorDS', hashTime(input.issueTime, fn, 'issueTime')],
      ['NumSNO', hashText(input.supplierCompanyId, fn, 'supplierCompanyId')],
      ['DocABS', hashText(input.customerCompanyId, fn, 'customerCompanyId')],
      ['ValDS', hashAmount(input.lineExtensionAmount, fn, 'lineExtensionAmount')],
      ['ValIva', optionalHashAmount(input.ivaTaxAmount, fn, 'ivaTaxAmount')],
      ['ValTolDS', hashAmount(input.payableAmount, fn, 'payableAmount')],
      ['CUDS', input.documentKey],
    ],
    qrUrl(input.documentKey, input.environment),
  );
}

function lines(rows: Array<[string, string]>, url: string): string {
  return [...rows.map(([name, value]) => `${name}: ${value}`), url].join('\n');
}

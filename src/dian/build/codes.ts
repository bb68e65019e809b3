/**
 * The codes the builder writes into a document, computed from the built tree (never from the request): the
 * document code of the type's row (CUFE with the range's technical key, CUDE or CUDS with the software PIN), the
 * software security code and the QR URL.
 */
import { isEcfError } from '../../shared/errors/ecf-error.js';
import { cude, cufe, cuds } from '../codes/invoice.js';
import { qrUrl } from '../codes/qr.js';
import { softwareSecurityCode } from '../codes/security-code.js';
import { ROOT_NAMES, type DocumentTypeRow } from '../spec/kinds.js';
import { all, textAt, type UblNode } from '../ubl/tree.js';
import type { DianContext } from './context.js';

export interface DocumentCodes {
  kind: DocumentTypeRow['hash'];
  hash: string;
  preimage: string;
  securityCode: string;
  qrUrl: string;
}

/** Sum of the document-level TaxTotal/TaxAmount of one tax scheme, as written (`undefined` when absent). */
function taxOf(root: UblNode, scheme: string): string | undefined {
  const totals = all(root, 'cac:TaxTotal').filter((t) => textAt(t, 'cac:TaxSubtotal/cac:TaxCategory/cac:TaxScheme/cbc:ID') === scheme);
  if (totals.length === 0) return undefined;
  if (totals.length === 1) return textAt(totals[0], 'cbc:TaxAmount');
  // Several TaxTotal of one scheme: add their written amounts as exact decimal text.
  let cents = 0n;
  for (const t of totals) {
    const m = /^(\d+)(?:\.(\d{1,2}))?/.exec(textAt(t, 'cbc:TaxAmount') ?? '');
    if (!m) return undefined;
    cents += BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
  }
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

export function codesFromTree(root: UblNode, type: DocumentTypeRow, ctx: DianContext): { ok: true; value: DocumentCodes } | { ok: false; message: string } {
  const total = ROOT_NAMES[type.root].total;
  const id = textAt(root, 'cbc:ID') ?? '';
  const fields = {
    id,
    issueDate: textAt(root, 'cbc:IssueDate') ?? '',
    issueTime: textAt(root, 'cbc:IssueTime') ?? '',
    lineExtensionAmount: textAt(root, `${total}/cbc:LineExtensionAmount`) ?? '',
    ivaTaxAmount: taxOf(root, '01'),
    incTaxAmount: taxOf(root, '04'),
    icaTaxAmount: taxOf(root, '03'),
    payableAmount: textAt(root, `${total}/cbc:PayableAmount`) ?? '',
    supplierCompanyId: textAt(root, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID') ?? '',
    customerCompanyId: textAt(root, 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID') ?? '',
    environment: ctx.environment,
  };
  try {
    let code: { hash: string; preimage: string };
    if (type.hash === 'cufe') {
      const technicalKey = ctx.resolution?.technical_key;
      if (!technicalKey) return { ok: false, message: 'Falta la clave técnica de la resolución de numeración (necesaria para el CUFE).' };
      code = cufe({ ...fields, technicalKey });
    } else if (type.hash === 'cude') code = cude({ ...fields, softwarePin: ctx.software.pin });
    else code = cuds({ ...fields, softwarePin: ctx.software.pin });
    const security = softwareSecurityCode({ softwareId: ctx.software.id, softwarePin: ctx.software.pin, number: id });
    return {
      ok: true,
      value: { kind: type.hash, hash: code.hash, preimage: code.preimage, securityCode: security.hash, qrUrl: qrUrl(code.hash, ctx.environment) },
    };
  } catch (e) {
    if (isEcfError(e)) return { ok: false, message: `No se pudo calcular el código del documento: ${e.message}` };
    throw e;
  }
}

/**
 * An invoice, note or support document received by the local DIAN (SendBillSync, and each file of SendBillAsync /
 * SendTestSetAsync): XSD, duplicate, XAdES signature and policy, the software and its PIN, numbering against the
 * ranges handed out by GetNumberingRange, the CUFE/CUDE/CUDS and SoftwareSecurityCode recomputed, the annex rules
 * (src/dian/rules), the scenarios; then the verdict with DIAN's signed ApplicationResponse, stored by key.
 * Every check runs (messages are collected); only an unreadable document stops early.
 */
import { computeDocumentCodes } from '../codes/from-tree.js';
import { DOCUMENT_TYPES } from '../spec/kinds.js';
import { checkDianRules } from '../rules/check.js';
import { verifyDianXml } from '../sign/verify.js';
import { readUbl } from '../ubl/read.js';
import { at, attr, child, textAt, type UblNode } from '../ubl/tree.js';
import { detectDianSchemaId } from '../xsd/detect.js';
import type { DianSchemaId } from '../xsd/schemas.js';
import { addMessages, bogotaDate, type SimCore, type SimMessage, unreadVerdict, verdictOf } from './core.js';
import { rejection } from './rules.js';
import type { DianSimDocument, DianSimRange, DianSimVerdict } from './types.js';

/** The closing line's label of each root (`La Factura electrónica SETP990000001, ha sido autorizada.`). */
const LABELS: Readonly<Record<string, string>> = {
  Invoice: 'La Factura electrónica',
  CreditNote: 'La Nota crédito electrónica',
  DebitNote: 'La Nota débito electrónica',
};

/** The roots SendBill* take. */
const BILL_SCHEMAS: readonly DianSchemaId[] = ['Invoice', 'CreditNote', 'DebitNote'];

const SUPPLIER = 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme';
const CUSTOMER = 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme';

/** The first XSD violations, shortened. */
export function schemaDetail(violations: readonly { message: string; line?: number | null }[]): string {
  return violations
    .slice(0, 3)
    .map((v) => `${v.line ? `línea ${v.line}: ` : ''}${v.message.trim()}`)
    .join('; ');
}

/** The range of a number: the seeded range of the company and software whose prefix starts it (longest first). */
function rangeOf(ranges: readonly DianSimRange[], nit: string, softwareId: string, number: string): DianSimRange | undefined {
  return ranges
    .filter((r) => r.nit === nit && r.softwareId === softwareId && number.startsWith(r.prefix) && /^\d+$/.test(number.slice(r.prefix.length)))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
}

/** Numbering checks of a document in `range` (or its absence). */
function numberingMessages(root: UblNode, range: DianSimRange | undefined, number: string): SimMessage[] {
  if (!range) return [rejection('noRangeForPrefix', root, number)];
  const out: SimMessage[] = [];
  const n = BigInt(number.slice(range.prefix.length));
  if (n < BigInt(range.from)) out.push(rejection('belowRange', root, `${number} < ${range.prefix}${range.from}`));
  if (n > BigInt(range.to)) out.push(rejection('aboveRange', root, `${number} > ${range.prefix}${range.to}`));
  const issueDate = textAt(root, 'cbc:IssueDate') ?? '';
  if (issueDate < range.validFrom) out.push(rejection('beforeRange', root, `${issueDate} < ${range.validFrom}`));
  if (issueDate > range.validTo) out.push(rejection('afterRange', root, `${issueDate} > ${range.validTo}`));
  return out;
}

/** Processes one received document file; stores its verdict (a duplicate's `Regla: 90` answer is not stored). */
export async function processDocument(core: SimCore, fileName: string | null, xml: string): Promise<DianSimVerdict> {
  const state = core.store.state;
  const schema = detectDianSchemaId(xml);
  if (!schema || !BILL_SCHEMAS.includes(schema)) {
    return unreadVerdict([rejection('schema', undefined, 'se esperaba Invoice, CreditNote o DebitNote de UBL 2.1')], fileName);
  }
  // The reader's pre-scan first (no DOCTYPE, DIAN's size and depth bounds): libxml2 never sees what it refuses.
  const read = readUbl(xml);
  const xsd = read.ok ? core.schemas.validate(xml, schema) : { valid: false, violations: [] };
  if (!xsd.valid || !read.ok) {
    const key = read.ok ? (textAt(read.root, 'cbc:UUID') ?? null) : null;
    return unreadVerdict([rejection('schema', undefined, read.ok ? schemaDetail(xsd.violations) : read.message)], fileName, key);
  }
  const root = read.root;
  const number = textAt(root, 'cbc:ID') ?? '';
  // The issuer: the supplier, except on a support document and its note (CUDS), which the acquirer issues.
  const typeCode = textAt(root, 'cbc:InvoiceTypeCode') ?? textAt(root, 'cbc:CreditNoteTypeCode') ?? '';
  const issuerParty = DOCUMENT_TYPES[typeCode]?.hash === 'cuds' ? CUSTOMER : SUPPLIER;
  const nit = textAt(root, `${issuerParty}/cbc:CompanyID`) ?? '';
  const declared = textAt(root, 'cbc:UUID') ?? '';
  if (declared) state.received[declared] = (state.received[declared] ?? 0) + 1;
  const acceptedKey = state.accepted[`${nit}|${number}`];
  if ((declared && state.documents[declared]?.verdict.isValid) || acceptedKey !== undefined) {
    state.stats.documents.duplicates++;
    core.store.changed();
    return unreadVerdict([rejection('duplicate', root)], fileName, declared || acceptedKey || null);
  }

  const messages: SimMessage[] = [];
  const signature = verifyDianXml(xml);
  if (!signature.valid) messages.push(rejection('signature', root, signature.reason ?? signature.code));

  // DianExtensions is not always the first extension (a POS document's come before it).
  const extensions = root.children.find((c) => c.name === 'ext:UBLExtensions')?.children ?? [];
  const softwareId =
    extensions
      .map((e) => textAt(e, 'ext:ExtensionContent/sts:DianExtensions/sts:SoftwareProvider/sts:SoftwareID'))
      .find((v) => v !== undefined && v !== null) ?? '';
  const company = state.companies.find((c) => c.nit === nit && c.softwareId === softwareId);
  if (!company) messages.push(rejection('unknownSoftware', root, `NIT ${nit}, software ${softwareId || '(vacío)'}`));
  const range = root.name === 'Invoice' && company ? rangeOf(state.ranges, nit, softwareId, number) : undefined;
  if (root.name === 'Invoice' && company) messages.push(...numberingMessages(root, range, number));

  let key = declared;
  let scheme = '';
  const codes = computeDocumentCodes(root, { ...(range ? { technicalKey: range.technicalKey } : {}), ...(company ? { pin: company.pin } : {}) });
  if (codes.ok) {
    scheme = codes.scheme;
    if (!declared) key = codes.hash;
    if (!codes.matches) messages.push(rejection('documentKey', root, `declarado ${declared || '(vacío)'}, calculado ${codes.hash}`));
    if (codes.securityCode && !codes.securityCode.matches) messages.push(rejection('securityCode', root));
  } else if (!codes.missingKey) {
    messages.push(rejection('documentKey', root, `${codes.path}: ${codes.message}`));
  }
  if (!key) return unreadVerdict([...messages, rejection('documentKey', root, 'el documento no tiene cbc:UUID')], fileName);

  const today = bogotaDate(core.clock());
  addMessages(
    messages,
    checkDianRules(root, { today }).map((f) => ({ rule: f.rule, kind: f.kind, text: f.detail ? `${f.message} (${f.detail})` : f.message })),
  );
  addMessages(
    messages,
    state.scenarios.filter((s) => s.number === number).map((s) => ({ rule: s.rule, kind: s.kind, text: s.text })),
  );

  const verdict = await verdictOf(core, {
    messages,
    fileName,
    number,
    key,
    scheme: scheme || attr(child(root, 'cbc:UUID'), 'schemeName') || 'CUFE-SHA384',
    environment: textAt(root, 'cbc:ProfileExecutionID') ?? '2',
    sender: at(root, SUPPLIER),
    label: LABELS[root.name] ?? 'El documento',
  });
  const doc: DianSimDocument = {
    key,
    kind: 'document',
    number,
    nit,
    customerNit: textAt(root, `${CUSTOMER}/cbc:CompanyID`) ?? null,
    xml,
    verdict,
    receivedAt: core.clock().toISOString(),
    events: state.documents[key]?.events ?? [],
    notes: state.documents[key]?.notes ?? [],
  };
  state.documents[key] = doc;
  if (verdict.isValid) {
    state.accepted[`${nit}|${number}`] = key;
    state.stats.documents.accepted++;
    const referenced = textAt(root, 'cac:BillingReference/cac:InvoiceDocumentReference/cbc:UUID');
    const target = referenced ? state.documents[referenced] : undefined;
    if (target && !target.notes.includes(key)) target.notes.push(key);
  } else {
    state.stats.documents.rejected++;
  }
  core.store.changed();
  return verdict;
}

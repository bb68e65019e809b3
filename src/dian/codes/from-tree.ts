/**
 * The document codes computed FROM A UBL TREE (dian-protocol.md §1.1, §1.4, §3): which code a document carries
 * (CUFE, CUDE, CUDS or event CUDE), the exact values its formula reads, and the recomputed code compared with
 * the declared `cbc:UUID` and `sts:SoftwareSecurityCode`. The builder and a received file go through these same
 * functions, so a built document and a parsed one cannot disagree about their code.
 *
 * Pure: no I/O. Never throws for a bad document or a missing key: the outcome is a value with a Spanish message
 * naming the element path.
 */
import { type Dec, decimalsOf, parseDec, SCALE, sum, toText } from '../../shared/money/decimal.js';
import { allSteps, at, attr, pathSteps, textAt, textAtSteps, type UblNode } from '../ubl/tree.js';
import { eventCude, type EventCudeInput } from './event.js';
import type { DianEnvironment, HashedCode } from './inputs.js';
import { cudeOf, cudsOf, cufeOf, type CudsInput, type InvoiceCodeFields } from './invoice.js';
import { qrUrl } from './qr.js';
import { softwareSecurityCode } from './security-code.js';

/** Which code a document carries. */
export type DocumentCodeKind = 'cufe' | 'cude' | 'cuds' | 'eventCude';

/** The `cbc:UUID/@schemeName` of each kind (an event's CUDE is written `CUDE-SHA384` too). */
export type DocumentCodeScheme = 'CUFE-SHA384' | 'CUDE-SHA384' | 'CUDS-SHA384';

const SCHEME: Record<DocumentCodeKind, DocumentCodeScheme> = {
  cufe: 'CUFE-SHA384',
  cude: 'CUDE-SHA384',
  cuds: 'CUDS-SHA384',
  eventCude: 'CUDE-SHA384',
};

/** What every kind reads besides its formula's fields. */
interface DocumentCodeCommon {
  /** The root's local name (`Invoice`, `CreditNote`, `DebitNote`, `ApplicationResponse`). */
  root: string;
  /** `cbc:InvoiceTypeCode` / `cbc:CreditNoteTypeCode`; null for DebitNote (UBL has none) and events. */
  typeCode: string | null;
  /** The scheme the kind is written with. */
  scheme: DocumentCodeScheme;
  /** `cbc:UUID/@schemeName` as written; null when absent. */
  declaredScheme: string | null;
  /** `cbc:UUID` as written (trimmed); null when absent. */
  declared: string | null;
  /** `cbc:ProfileExecutionID` (events hash no environment, but their QR URL needs it). */
  environment: DianEnvironment;
  /** `sts:DianExtensions/sts:SoftwareProvider/sts:SoftwareID`; null when absent or empty. */
  softwareId: string | null;
  /** `sts:DianExtensions/sts:SoftwareSecurityCode`; null when absent or empty. */
  declaredSecurityCode: string | null;
}

/** Which code a document carries and the exact values its formula reads (amounts as decimal text, as written). */
export type DocumentCodeInputs =
  | (DocumentCodeCommon & { kind: 'cufe' | 'cude'; fields: InvoiceCodeFields })
  | (DocumentCodeCommon & { kind: 'cuds'; fields: Omit<CudsInput, 'softwarePin'> })
  | (DocumentCodeCommon & { kind: 'eventCude'; fields: Omit<EventCudeInput, 'softwarePin'> });

/** A failure: the Spanish message and the element path it is about. */
export interface DocumentCodeProblem {
  ok: false;
  message: string;
  /** The element path (`/Invoice/cbc:IssueTime`), or `(claves)` when a key is at fault. */
  path: string;
  /** Set when the formula's key was not given. */
  missingKey?: 'technicalKey' | 'pin';
}

/** The outcome of {@link documentCodeInputs}. */
export type DocumentCodeInputsResult = { ok: true; inputs: DocumentCodeInputs } | DocumentCodeProblem;

/** The keys the formulas need; none of them is in the XML. */
export interface DocumentCodeKeys {
  /** ClTec, the numbering range's technical key: required for a CUFE. */
  technicalKey?: string;
  /** The software PIN: required for CUDE, CUDS and event CUDE, and for the security code. */
  pin?: string;
  /** Overrides `sts:SoftwareID` for the security code. */
  softwareId?: string;
}

/** The recomputed security code next to the declared one. */
export interface SecurityCodeCheck {
  hash: string;
  preimage: string;
  /** `sts:SoftwareSecurityCode`; null when absent. */
  declared: string | null;
  matches: boolean;
}

/** The recomputed code of a document, compared with what the document declares. */
export interface DocumentCodes {
  ok: true;
  kind: DocumentCodeKind;
  scheme: DocumentCodeScheme;
  /** The recomputed code, lower-case hex. */
  hash: string;
  /** The exact text hashed (it contains the key or PIN). */
  preimage: string;
  /** `cbc:UUID` as written; null when absent. */
  declared: string | null;
  /** True when the recomputed code equals `cbc:UUID`. */
  matches: boolean;
  /** `cbc:UUID/@schemeName` as written; null when absent. */
  declaredScheme: string | null;
  /** True when `@schemeName` is the scheme of the kind. */
  schemeMatches: boolean;
  /** Present when a PIN and a software id (given, else `sts:SoftwareID`) are known. */
  securityCode?: SecurityCodeCheck;
  /** The search URL of the recomputed code in the document's environment. */
  qrUrl: string;
  /** What was read from the tree. */
  inputs: DocumentCodeInputs;
}

/** The outcome of {@link computeDocumentCodes}. */
export type DocumentCodesResult = DocumentCodes | DocumentCodeProblem;

const DECIMAL = /^\d+(?:\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/** A read failure, carried up by {@link documentCodeInputs}. */
class Missing {
  constructor(
    readonly message: string,
    readonly path: string,
  ) {}
}

/**
 * Which code a document carries, decided by its root and type code:
 * - `ApplicationResponse` → event CUDE;
 * - `Invoice`: `InvoiceTypeCode` 01, 02, 04 → CUFE; 03 (issuer-side contingency), 20 (POS) → CUDE; 05 → CUDS;
 * - `CreditNote`: `CreditNoteTypeCode` 91, 94 → CUDE; 95 → CUDS;
 * - `DebitNote` (UBL gives it no type code; 92 and POS 93 both use CUDE) → CUDE.
 *
 * The type code wins over `cbc:UUID/@schemeName`: the type code is what the document is (DIAN's rules and the
 * numbering range go by it), the scheme name is only a label of the code. A disagreeing label is not a read
 * failure; {@link computeDocumentCodes} reports it as `schemeMatches: false`. Kind and values are read in one
 * pass; the first missing or malformed value is the answer (a Spanish message and its element path).
 *
 * Taxes: the document-level `cac:TaxTotal` (direct children of the root, never line-level ones) whose
 * `TaxSubtotal/TaxCategory/TaxScheme/ID` is 01 (IVA), 04 (INC) or 03 (ICA); absent → `0.00`. DIAN's rules want
 * one TaxTotal per tax (every toolbox sample has at most one per scheme); should a document repeat a scheme,
 * its `TaxAmount`s are summed exactly (the code hashes the tax's document total; the sum is then truncated like
 * any amount). A TaxTotal whose subtotals name different schemes is refused.
 */
export function documentCodeInputs(root: UblNode): DocumentCodeInputsResult {
  try {
    return { ok: true, inputs: read(root) };
  } catch (e) {
    if (e instanceof Missing) return { ok: false, message: e.message, path: e.path };
    throw e;
  }
}

// The readers of `read` (module level: no closures made per document). `r` is the root's path (`/Invoice`).

/** A path below the root as written in messages, and split once into its steps. */
interface TreePath {
  readonly text: string;
  readonly steps: readonly string[];
}
const treePath = (text: string): TreePath => ({ text, steps: pathSteps(text) });

const P = {
  invoiceTypeCode: treePath('cbc:InvoiceTypeCode'),
  creditNoteTypeCode: treePath('cbc:CreditNoteTypeCode'),
  profileExecutionId: treePath('cbc:ProfileExecutionID'),
  id: treePath('cbc:ID'),
  issueDate: treePath('cbc:IssueDate'),
  issueTime: treePath('cbc:IssueTime'),
  sender: treePath('cac:SenderParty/cac:PartyTaxScheme/cbc:CompanyID'),
  receiver: treePath('cac:ReceiverParty/cac:PartyTaxScheme/cbc:CompanyID'),
  responseCode: treePath('cac:DocumentResponse/cac:Response/cbc:ResponseCode'),
  referenceId: treePath('cac:DocumentResponse/cac:DocumentReference/cbc:ID'),
  referenceTypeCode: treePath('cac:DocumentResponse/cac:DocumentReference/cbc:DocumentTypeCode'),
  supplier: treePath('cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID'),
  customer: treePath('cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID'),
  legalLineExtension: treePath('cac:LegalMonetaryTotal/cbc:LineExtensionAmount'),
  legalPayable: treePath('cac:LegalMonetaryTotal/cbc:PayableAmount'),
  requestedLineExtension: treePath('cac:RequestedMonetaryTotal/cbc:LineExtensionAmount'),
  requestedPayable: treePath('cac:RequestedMonetaryTotal/cbc:PayableAmount'),
} as const;

/** The trimmed text at `path`; a Missing naming `what` when absent or empty. */
function need(root: UblNode, r: string, tp: TreePath, what: string): string {
  const path = tp.text;
  const v = textAtSteps(root, tp.steps);
  if (v === undefined || v === '') throw new Missing(`Falta ${what} (${r}/${path}).`, `${r}/${path}`);
  return v;
}

function needDate(root: UblNode, r: string, tp: TreePath): string {
  const path = tp.text;
  const v = need(root, r, tp, 'la fecha de emisión');
  if (!DATE.test(v)) throw new Missing(`La fecha "${v}" no tiene la forma aaaa-MM-dd (${r}/${path}).`, `${r}/${path}`);
  return v;
}

function needTime(root: UblNode, r: string, tp: TreePath): string {
  const path = tp.text;
  const v = need(root, r, tp, 'la hora de emisión');
  if (!TIME.test(v)) throw new Missing(`La hora "${v}" no tiene la forma HH:mm:ss con su desfase, p. ej. 10:53:10-05:00 (${r}/${path}).`, `${r}/${path}`);
  return v;
}

function needAmount(root: UblNode, r: string, tp: TreePath, what: string): string {
  return checkedAmount(need(root, r, tp, what), r, tp.text);
}

const DIAN_EXTENSIONS = pathSteps('ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions');
const TAX_SCHEME_IDS = pathSteps('cac:TaxSubtotal/cac:TaxCategory/cac:TaxScheme/cbc:ID');

function read(root: UblNode): DocumentCodeInputs {
  const r = `/${root.name}`;
  const kind = kindOf(root, r);
  const typeCode = kind.typeCodePath ? need(root, r, kind.typeCodePath, 'el código de tipo de documento') : null;
  const codeKind = typeCode === null ? kind.fixed! : kindOfTypeCode(root.name, typeCode, `${r}/${kind.typeCodePath!.text}`);
  const written = need(root, r, P.profileExecutionId, 'el ambiente');
  if (written !== '1' && written !== '2') {
    throw new Missing(`El ambiente "${written}" no es 1 (producción) ni 2 (habilitación) (${r}/cbc:ProfileExecutionID).`, `${r}/cbc:ProfileExecutionID`);
  }
  const environment: DianEnvironment = written;
  const uuid = at(root, 'cbc:UUID');
  const dian = allSteps(root, DIAN_EXTENSIONS)[0];
  const common: DocumentCodeCommon = {
    root: root.name,
    typeCode,
    scheme: SCHEME[codeKind],
    declaredScheme: attr(uuid, 'schemeName')?.trim() ?? null,
    declared: textAt(uuid, '') || null,
    environment,
    softwareId: textAt(dian, 'sts:SoftwareProvider/sts:SoftwareID') || null,
    declaredSecurityCode: textAt(dian, 'sts:SoftwareSecurityCode') || null,
  };
  const id = need(root, r, P.id, 'el número del documento');
  const issueDate = needDate(root, r, P.issueDate);
  const issueTime = needTime(root, r, P.issueTime);
  // Object literals written out, not spread: a spread followed by more properties is a slow path in V8.

  if (codeKind === 'eventCude') {
    const fields: Omit<EventCudeInput, 'softwarePin'> = {
      id,
      issueDate,
      issueTime,
      senderCompanyId: need(root, r, P.sender, 'el NIT del emisor del evento'),
      receiverCompanyId: need(root, r, P.receiver, 'el NIT del receptor del evento'),
      responseCode: need(root, r, P.responseCode, 'el código del evento'),
      documentReferenceId: need(root, r, P.referenceId, 'el número del documento referenciado'),
      documentReferenceTypeCode: need(root, r, P.referenceTypeCode, 'el tipo del documento referenciado'),
    };
    return withCommon(common, codeKind, fields);
  }

  const debit = root.name === 'DebitNote';
  const taxes = taxAmounts(root, r);
  const lineExtensionAmount = needAmount(root, r, debit ? P.requestedLineExtension : P.legalLineExtension, 'el valor bruto');
  const ivaTaxAmount = taxes.get('01') ?? null;
  const payableAmount = needAmount(root, r, debit ? P.requestedPayable : P.legalPayable, 'el valor a pagar');
  const supplierCompanyId = need(root, r, P.supplier, 'el NIT del emisor');
  const customerCompanyId = need(root, r, P.customer, 'el documento del adquirente');
  if (codeKind === 'cuds') {
    const fields: Omit<CudsInput, 'softwarePin'> = {
      id,
      issueDate,
      issueTime,
      lineExtensionAmount,
      ivaTaxAmount,
      payableAmount,
      supplierCompanyId,
      customerCompanyId,
      environment,
    };
    return withCommon(common, codeKind, fields);
  }
  const fields: InvoiceCodeFields = {
    id,
    issueDate,
    issueTime,
    lineExtensionAmount,
    ivaTaxAmount,
    payableAmount,
    supplierCompanyId,
    customerCompanyId,
    environment,
    incTaxAmount: taxes.get('04') ?? null,
    icaTaxAmount: taxes.get('03') ?? null,
  };
  return withCommon(common, codeKind, fields);
}

/** `{ ...common, kind, fields }`, written out (the keys in the same order). */
function withCommon<I extends DocumentCodeInputs>(common: DocumentCodeCommon, kind: I['kind'], fields: I['fields']): I {
  return {
    root: common.root,
    typeCode: common.typeCode,
    scheme: common.scheme,
    declaredScheme: common.declaredScheme,
    declared: common.declared,
    environment: common.environment,
    softwareId: common.softwareId,
    declaredSecurityCode: common.declaredSecurityCode,
    kind,
    fields,
  } as I;
}

const INVOICE_KIND = { typeCodePath: P.invoiceTypeCode };
const CREDIT_NOTE_KIND = { typeCodePath: P.creditNoteTypeCode };
const DEBIT_NOTE_KIND = { fixed: 'cude' } as const;
const EVENT_KIND = { fixed: 'eventCude' } as const;

function kindOf(root: UblNode, r: string): { typeCodePath?: TreePath; fixed?: DocumentCodeKind } {
  switch (root.name) {
    case 'Invoice':
      return INVOICE_KIND;
    case 'CreditNote':
      return CREDIT_NOTE_KIND;
    case 'DebitNote':
      return DEBIT_NOTE_KIND;
    case 'ApplicationResponse':
      return EVENT_KIND;
    case 'NominaIndividual':
    case 'NominaIndividualDeAjuste':
      throw new Missing(`${root.name} es un documento de nómina: su código es el CUNE, que no se calcula desde un árbol UBL (${r}).`, r);
    default:
      throw new Missing(`${root.name} no lleva CUFE, CUDE ni CUDS: se esperaba Invoice, CreditNote, DebitNote o ApplicationResponse (${r}).`, r);
  }
}

const INVOICE_CODES: Readonly<Record<string, DocumentCodeKind>> = { '01': 'cufe', '02': 'cufe', '04': 'cufe', '03': 'cude', '20': 'cude', '05': 'cuds' };
const CREDIT_NOTE_CODES: Readonly<Record<string, DocumentCodeKind>> = { '91': 'cude', '94': 'cude', '95': 'cuds' };

function kindOfTypeCode(rootName: string, code: string, path: string): DocumentCodeKind {
  const table = rootName === 'Invoice' ? INVOICE_CODES : CREDIT_NOTE_CODES;
  const kind = Object.hasOwn(table, code) ? table[code] : undefined;
  if (!kind) {
    throw new Missing(`El tipo de documento "${code}" no es uno de ${Object.keys(table).join(', ')} para ${rootName} (${path}).`, path);
  }
  return kind;
}

/** `v` when it is non-negative decimal text `parseDec` reads (at most SCALE decimals); a Missing at `${r}/${path}` otherwise. */
function checkedAmount(v: string, r: string, path: string): string {
  if (v.startsWith('-')) throw new Missing(`El valor "${v}" es negativo; los valores de un código son totales no negativos (${r}/${path}).`, `${r}/${path}`);
  // DECIMAL passed, parseDec fails only on more than SCALE decimals.
  if (!DECIMAL.test(v) || decimalsOf(v) > SCALE)
    throw new Missing(`El valor "${v}" no es un número decimal con punto, p. ej. 1500000.00 (${r}/${path}).`, `${r}/${path}`);
  return v;
}

/** Document-level tax amounts by scheme id, as decimal text (one TaxTotal: as written; several: their exact sum). */
function taxAmounts(root: UblNode, r: string): Map<string, string> {
  const found = new Map<string, string[]>();
  let i = 0;
  for (const total of root.children) {
    if (total.name !== 'cac:TaxTotal') continue;
    const path = `${r}/cac:TaxTotal[${++i}]`;
    const schemes = new Set<string>();
    for (const n of allSteps(total, TAX_SCHEME_IDS)) schemes.add((n.text ?? '').trim());
    if (schemes.size === 0) {
      throw new Missing(`Falta el tributo del total de impuestos (${path}/cac:TaxSubtotal/cac:TaxCategory/cac:TaxScheme/cbc:ID).`, `${path}/cac:TaxSubtotal`);
    }
    if (schemes.size > 1) {
      throw new Missing(`El total de impuestos mezcla los tributos ${[...schemes].join(', ')}; debe haber un cac:TaxTotal por tributo (${path}).`, path);
    }
    const scheme = schemes.values().next().value as string;
    if (scheme !== '01' && scheme !== '04' && scheme !== '03') continue;
    const t = textAt(total, 'cbc:TaxAmount');
    if (t === undefined || t === '') throw new Missing(`Falta el valor del impuesto ${scheme} (${path}/cbc:TaxAmount).`, `${path}/cbc:TaxAmount`);
    const list = found.get(scheme);
    const checked = checkedAmount(t, path, 'cbc:TaxAmount');
    if (list) list.push(checked);
    else found.set(scheme, [checked]);
  }
  const out = new Map<string, string>();
  for (const [scheme, list] of found) out.set(scheme, list.length === 1 ? list[0]! : toText(sum(list.map(decOfChecked)), 2, 8));
  return out;
}

/** The exact decimal of a text {@link checkedAmount} accepted. */
function decOfChecked(t: string): Dec {
  return parseDec(t) as Dec;
}

/**
 * The code of a document recomputed from its tree and compared with `cbc:UUID`, plus the software security code
 * when a PIN and a software id are known (the software id defaults to `sts:SoftwareID`). The formula's key must be
 * given: the technical key for a CUFE, the PIN for CUDE, CUDS and event CUDE; a missing key is a problem value.
 */
export function computeDocumentCodes(root: UblNode, keys: DocumentCodeKeys = {}): DocumentCodesResult {
  const read = documentCodeInputs(root);
  if (!read.ok) return read;
  const inputs = read.inputs;
  const technicalKey = keys.technicalKey?.trim() || undefined;
  const pin = keys.pin?.trim() || undefined;
  if (inputs.kind === 'cufe' && !technicalKey) {
    return {
      ok: false,
      message: 'El CUFE se calcula con la clave técnica del rango de numeración (GetNumberingRange); no se indicó.',
      path: '(claves)',
      missingKey: 'technicalKey',
    };
  }
  if (inputs.kind !== 'cufe' && !pin) {
    const name = inputs.kind === 'eventCude' ? 'CUDE del evento' : inputs.kind.toUpperCase();
    return { ok: false, message: `El ${name} se calcula con el PIN del software; no se indicó.`, path: '(claves)', missingKey: 'pin' };
  }
  let code: HashedCode;
  let security: SecurityCodeCheck | undefined;
  const softwareId = keys.softwareId?.trim() || inputs.softwareId;
  try {
    code = hashOf(inputs, technicalKey, pin);
    if (pin && softwareId) {
      const s = softwareSecurityCode({ softwareId, softwarePin: pin, number: inputs.fields.id });
      security = { hash: s.hash, preimage: s.preimage, declared: inputs.declaredSecurityCode, matches: s.hash === inputs.declaredSecurityCode };
    }
  } catch (e) {
    // Every value was checked while reading; what is left is a key with surrounding whitespace inside it.
    return { ok: false, message: `No se pudo calcular el código: ${(e as Error).message}`, path: '(claves)' };
  }
  const url = qrUrl(code.hash, inputs.environment);
  const matches = code.hash === inputs.declared;
  const schemeMatches = inputs.declaredScheme === inputs.scheme;
  // Two literals rather than a conditional spread (a slow path in V8); the keys in the same order.
  if (security) {
    return {
      ok: true,
      kind: inputs.kind,
      scheme: inputs.scheme,
      hash: code.hash,
      preimage: code.preimage,
      declared: inputs.declared,
      matches,
      declaredScheme: inputs.declaredScheme,
      schemeMatches,
      securityCode: security,
      qrUrl: url,
      inputs,
    };
  }
  return {
    ok: true,
    kind: inputs.kind,
    scheme: inputs.scheme,
    hash: code.hash,
    preimage: code.preimage,
    declared: inputs.declared,
    matches,
    declaredScheme: inputs.declaredScheme,
    schemeMatches,
    qrUrl: url,
    inputs,
  };
}

function hashOf(inputs: DocumentCodeInputs, technicalKey: string | undefined, pin: string | undefined): HashedCode {
  switch (inputs.kind) {
    case 'cufe':
      return cufeOf(inputs.fields, technicalKey!);
    case 'cude':
      return cudeOf(inputs.fields, pin!);
    case 'cuds':
      return cudsOf(inputs.fields, pin!);
    case 'eventCude':
      return eventCude({ ...inputs.fields, softwarePin: pin! });
  }
}

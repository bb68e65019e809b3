/**
 * The document codes computed FROM A UBL TREE (dian-protocol.md §1.1, §1.4, §3): which code a document carries
 * (CUFE, CUDE, CUDS or event CUDE), the exact values its formula reads, and the recomputed code compared with
 * the declared `cbc:UUID` and `sts:SoftwareSecurityCode`. The builder and a received file go through these same
 * functions, so a built document and a parsed one cannot disagree about their code.
 *
 * Pure: no I/O. Never throws for a bad document or a missing key: the outcome is a value with a Spanish message
 * naming the element path.
 */
import { type Dec, parseDec, sum, toText } from '../../shared/money/decimal.js';
import { all, at, attr, childrenNamed, textAt, type UblNode } from '../ubl/tree.js';
import { eventCude, type EventCudeInput } from './event.js';
import type { DianEnvironment, HashedCode } from './inputs.js';
import { cude, cufe, cuds, type CudsInput, type InvoiceCodeFields } from './invoice.js';
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

function read(root: UblNode): DocumentCodeInputs {
  const r = `/${root.name}`;
  const text = (path: string, what: string): string => {
    const v = textAt(root, path);
    if (v === undefined || v === '') throw new Missing(`Falta ${what} (${r}/${path}).`, `${r}/${path}`);
    return v;
  };
  const date = (path: string): string => {
    const v = text(path, 'la fecha de emisión');
    if (!DATE.test(v)) throw new Missing(`La fecha "${v}" no tiene la forma aaaa-MM-dd (${r}/${path}).`, `${r}/${path}`);
    return v;
  };
  const time = (path: string): string => {
    const v = text(path, 'la hora de emisión');
    if (!TIME.test(v)) throw new Missing(`La hora "${v}" no tiene la forma HH:mm:ss con su desfase, p. ej. 10:53:10-05:00 (${r}/${path}).`, `${r}/${path}`);
    return v;
  };
  const amount = (path: string, what: string): string => checkedAmount(text(path, what), `${r}/${path}`);

  const kind = kindOf(root, r);
  const typeCode = kind.typeCodePath ? text(kind.typeCodePath, 'el código de tipo de documento') : null;
  const codeKind = typeCode === null ? kind.fixed! : kindOfTypeCode(root.name, typeCode, `${r}/${kind.typeCodePath}`);
  const written = text('cbc:ProfileExecutionID', 'el ambiente');
  if (written !== '1' && written !== '2') {
    throw new Missing(`El ambiente "${written}" no es 1 (producción) ni 2 (habilitación) (${r}/cbc:ProfileExecutionID).`, `${r}/cbc:ProfileExecutionID`);
  }
  const environment: DianEnvironment = written;
  const uuid = at(root, 'cbc:UUID');
  const dian = all(root, 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions')[0];
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
  const head = { id: text('cbc:ID', 'el número del documento'), issueDate: date('cbc:IssueDate'), issueTime: time('cbc:IssueTime') };

  if (codeKind === 'eventCude') {
    const ref = 'cac:DocumentResponse/cac:DocumentReference';
    return {
      ...common,
      kind: codeKind,
      fields: {
        ...head,
        senderCompanyId: text('cac:SenderParty/cac:PartyTaxScheme/cbc:CompanyID', 'el NIT del emisor del evento'),
        receiverCompanyId: text('cac:ReceiverParty/cac:PartyTaxScheme/cbc:CompanyID', 'el NIT del receptor del evento'),
        responseCode: text('cac:DocumentResponse/cac:Response/cbc:ResponseCode', 'el código del evento'),
        documentReferenceId: text(`${ref}/cbc:ID`, 'el número del documento referenciado'),
        documentReferenceTypeCode: text(`${ref}/cbc:DocumentTypeCode`, 'el tipo del documento referenciado'),
      },
    };
  }

  const totals = root.name === 'DebitNote' ? 'cac:RequestedMonetaryTotal' : 'cac:LegalMonetaryTotal';
  const taxes = taxAmounts(root, r);
  const base = {
    ...head,
    lineExtensionAmount: amount(`${totals}/cbc:LineExtensionAmount`, 'el valor bruto'),
    ivaTaxAmount: taxes.get('01') ?? null,
    payableAmount: amount(`${totals}/cbc:PayableAmount`, 'el valor a pagar'),
    supplierCompanyId: text('cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID', 'el NIT del emisor'),
    customerCompanyId: text('cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID', 'el documento del adquirente'),
    environment,
  };
  if (codeKind === 'cuds') return { ...common, kind: codeKind, fields: base };
  return { ...common, kind: codeKind, fields: { ...base, incTaxAmount: taxes.get('04') ?? null, icaTaxAmount: taxes.get('03') ?? null } };
}

function kindOf(root: UblNode, r: string): { typeCodePath?: string; fixed?: DocumentCodeKind } {
  switch (root.name) {
    case 'Invoice':
      return { typeCodePath: 'cbc:InvoiceTypeCode' };
    case 'CreditNote':
      return { typeCodePath: 'cbc:CreditNoteTypeCode' };
    case 'DebitNote':
      return { fixed: 'cude' };
    case 'ApplicationResponse':
      return { fixed: 'eventCude' };
    case 'NominaIndividual':
    case 'NominaIndividualDeAjuste':
      throw new Missing(`${root.name} es un documento de nómina: su código es el CUNE, que no se calcula desde un árbol UBL (${r}).`, r);
    default:
      throw new Missing(`${root.name} no lleva CUFE, CUDE ni CUDS: se esperaba Invoice, CreditNote, DebitNote o ApplicationResponse (${r}).`, r);
  }
}

function kindOfTypeCode(rootName: string, code: string, path: string): DocumentCodeKind {
  const table: Record<string, DocumentCodeKind> =
    rootName === 'Invoice'
      ? { '01': 'cufe', '02': 'cufe', '04': 'cufe', '03': 'cude', '20': 'cude', '05': 'cuds' }
      : { '91': 'cude', '94': 'cude', '95': 'cuds' };
  const kind = table[code];
  if (!kind) {
    throw new Missing(`El tipo de documento "${code}" no es uno de ${Object.keys(table).join(', ')} para ${rootName} (${path}).`, path);
  }
  return kind;
}

function checkedAmount(v: string, path: string): string {
  if (v.startsWith('-')) throw new Missing(`El valor "${v}" es negativo; los valores de un código son totales no negativos (${path}).`, path);
  if (!DECIMAL.test(v) || parseDec(v) === null) throw new Missing(`El valor "${v}" no es un número decimal con punto, p. ej. 1500000.00 (${path}).`, path);
  return v;
}

/** Document-level tax amounts by scheme id, as decimal text (one TaxTotal: as written; several: their exact sum). */
function taxAmounts(root: UblNode, r: string): Map<string, string> {
  const found = new Map<string, string[]>();
  childrenNamed(root, 'cac:TaxTotal').forEach((total, i) => {
    const path = `${r}/cac:TaxTotal[${i + 1}]`;
    const schemes = new Set(all(total, 'cac:TaxSubtotal/cac:TaxCategory/cac:TaxScheme/cbc:ID').map((n) => (n.text ?? '').trim()));
    if (schemes.size === 0) {
      throw new Missing(`Falta el tributo del total de impuestos (${path}/cac:TaxSubtotal/cac:TaxCategory/cac:TaxScheme/cbc:ID).`, `${path}/cac:TaxSubtotal`);
    }
    if (schemes.size > 1) {
      throw new Missing(`El total de impuestos mezcla los tributos ${[...schemes].join(', ')}; debe haber un cac:TaxTotal por tributo (${path}).`, path);
    }
    const scheme = [...schemes][0]!;
    if (scheme !== '01' && scheme !== '04' && scheme !== '03') return;
    const t = textAt(total, 'cbc:TaxAmount');
    if (t === undefined || t === '') throw new Missing(`Falta el valor del impuesto ${scheme} (${path}/cbc:TaxAmount).`, `${path}/cbc:TaxAmount`);
    const list = found.get(scheme) ?? [];
    list.push(checkedAmount(t, `${path}/cbc:TaxAmount`));
    found.set(scheme, list);
  });
  const out = new Map<string, string>();
  for (const [scheme, list] of found) out.set(scheme, list.length === 1 ? list[0]! : toText(sum(list.map((t) => parseDec(t) as Dec)), 2, 8));
  return out;
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
      security = { ...s, declared: inputs.declaredSecurityCode, matches: s.hash === inputs.declaredSecurityCode };
    }
  } catch (e) {
    // Every value was checked while reading; what is left is a key with surrounding whitespace inside it.
    return { ok: false, message: `No se pudo calcular el código: ${(e as Error).message}`, path: '(claves)' };
  }
  return {
    ok: true,
    kind: inputs.kind,
    scheme: inputs.scheme,
    hash: code.hash,
    preimage: code.preimage,
    declared: inputs.declared,
    matches: code.hash === inputs.declared,
    declaredScheme: inputs.declaredScheme,
    schemeMatches: inputs.declaredScheme === inputs.scheme,
    ...(security ? { securityCode: security } : {}),
    qrUrl: qrUrl(code.hash, inputs.environment),
    inputs,
  };
}

function hashOf(inputs: DocumentCodeInputs, technicalKey: string | undefined, pin: string | undefined): HashedCode {
  switch (inputs.kind) {
    case 'cufe':
      return cufe({ ...inputs.fields, technicalKey: technicalKey! });
    case 'cude':
      return cude({ ...inputs.fields, softwarePin: pin! });
    case 'cuds':
      return cuds({ ...inputs.fields, softwarePin: pin! });
    case 'eventCude':
      return eventCude({ ...inputs.fields, softwarePin: pin! });
  }
}

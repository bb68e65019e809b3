/**
 * The AttachedDocument: the container delivered to the buyer (dian-protocol.md §8). It carries the issuer's
 * signed invoice or note, or a signed event (ApplicationResponse 030–034), and, once DIAN has validated it,
 * DIAN's signed ApplicationResponse, both as CDATA so they stay byte for byte what was signed. The parties, the
 * document number, its UUID and its IssueDate are read from the signed document (where, per root element, is
 * the row of {@link ATTACHED_SOURCES}); the container's own values (number, environment, date and time) come in.
 *
 * The result is unsigned: its single `ext:UBLExtension` has an empty `ext:ExtensionContent` (no DianExtensions,
 * §1.3) where `signDianXml` puts the issuer's signature.
 *
 * Pure: no I/O, no clock. Bad input is a value with a Spanish message, never a throw.
 */
import type { DianEnvironment } from '../codes/inputs.js';
import { readUbl } from '../ubl/read.js';
import { at, attr, child, el, textAt, type UblNode } from '../ubl/tree.js';
import { writeUbl } from '../ubl/write.js';

/** `cbc:CustomizationID` of the AttachedDocument (§1.1). */
export const ATTACHED_CUSTOMIZATION_ID = 'Documentos adjuntos';
/** `cbc:ProfileID` of the AttachedDocument (§1.1; DIAN's accepted example has the same). */
export const ATTACHED_PROFILE_ID = 'Factura Electrónica de Venta';
/** `cbc:DocumentType` of the container, as in DIAN's accepted example. */
export const ATTACHED_DOCUMENT_TYPE = 'Contenedor de Factura Electrónica';
/** `cbc:ValidatorID` when DIAN's response names no sender. */
export const DIAN_VALIDATOR_NAME = 'Unidad Especial Dirección de Impuestos y Aduanas Nacionales';

/** Where a row of {@link ATTACHED_SOURCES} reads the container's sender and receiver, and how a message names them. */
export interface AttachedSource {
  sender: string;
  receiver: string;
  senderName: string;
  receiverName: string;
}

const SUPPLIER_CUSTOMER: AttachedSource = {
  sender: 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme',
  receiver: 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme',
  senderName: 'del emisor (AccountingSupplierParty)',
  receiverName: 'del adquiriente (AccountingCustomerParty)',
};

/**
 * Where the container's parties are read in each kind of signed document it can wrap, by root element. An
 * invoice or note names them as supplier and customer; an event (ApplicationResponse 030–034) as its own
 * sender (the buyer, or the issuer for 034) and receiver (the issuer, or DIAN for 034). DIAN's samples show
 * the container of an invoice only; the event's is the same structure around the event (docs/dian.md).
 */
export const ATTACHED_SOURCES: Readonly<Record<string, AttachedSource>> = {
  Invoice: SUPPLIER_CUSTOMER,
  CreditNote: SUPPLIER_CUSTOMER,
  DebitNote: SUPPLIER_CUSTOMER,
  ApplicationResponse: {
    sender: 'cac:SenderParty/cac:PartyTaxScheme',
    receiver: 'cac:ReceiverParty/cac:PartyTaxScheme',
    senderName: 'del remitente del evento (SenderParty)',
    receiverName: 'del receptor del evento (ReceiverParty)',
  },
};

/** What {@link buildAttachedDocument} needs. */
export interface AttachedDocumentInput {
  /** The issuer's signed Invoice, CreditNote or DebitNote, or a signed event (ApplicationResponse), as the exact text that was signed and sent. */
  signedXml: string;
  /** DIAN's signed ApplicationResponse (decoded `XmlBase64Bytes`); absent for a contingency document not yet sent. */
  applicationResponseXml?: string;
  /** `1` production, `2` habilitación: `cbc:ProfileExecutionID`. */
  environment: DianEnvironment;
  /** The container's own number (`cbc:ID`). */
  id: string;
  /** `YYYY-MM-DD` (`cbc:IssueDate`). */
  issueDate: string;
  /** `HH:mm:ss-05:00` (`cbc:IssueTime`). */
  issueTime: string;
  /** Optional `cbc:Note` texts. */
  notes?: readonly string[];
}

export type AttachedDocumentResult = { ok: true; xml: string } | { ok: false; message: string };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Copy of a leaf with its attributes, or undefined when absent. */
function leaf(node: UblNode | undefined): UblNode | undefined {
  if (!node || node.text === undefined) return undefined;
  return { name: node.name, attrs: node.attrs.map(([k, v]) => [k, v] as [string, string]), text: node.text.trim(), children: [] };
}

/** `cac:SenderParty` / `cac:ReceiverParty` from a party's `cac:PartyTaxScheme`, in XSD order. */
function party(name: string, pts: UblNode | undefined): UblNode | undefined {
  if (!pts) return undefined;
  const kids: UblNode[] = [];
  for (const n of ['cbc:RegistrationName', 'cbc:CompanyID', 'cbc:TaxLevelCode']) {
    const l = leaf(child(pts, n));
    if (l) kids.push(l);
  }
  const scheme = child(pts, 'cac:TaxScheme');
  if (!scheme) return undefined;
  const schemeKids: UblNode[] = [];
  for (const n of ['cbc:ID', 'cbc:Name']) {
    const l = leaf(child(scheme, n));
    if (l) schemeKids.push(l);
  }
  kids.push({ ...el('cac:TaxScheme'), children: schemeKids });
  return { ...el(name), children: [{ ...el('cac:PartyTaxScheme'), children: kids }] };
}

/** `cac:Attachment/cac:ExternalReference` carrying `xml` as CDATA. */
function attachment(xml: string): UblNode {
  const description: UblNode = { ...el('cbc:Description', xml), cdata: true };
  const ref: UblNode = { ...el('cac:ExternalReference'), children: [el('cbc:MimeCode', 'text/xml'), el('cbc:EncodingCode', 'UTF-8'), description] };
  return { ...el('cac:Attachment'), children: [ref] };
}

/**
 * The AttachedDocument XML (unsigned) for a signed invoice, note or event and, when given, DIAN's ApplicationResponse.
 *
 * @example
 * const r = buildAttachedDocument({ signedXml, applicationResponseXml, environment: '2', id: 'AD-1', issueDate: '2024-05-10', issueTime: '10:00:00-05:00' });
 * if (r.ok) await signDianXml(r.xml, signer);
 */
export function buildAttachedDocument(input: AttachedDocumentInput): AttachedDocumentResult {
  if (typeof input.signedXml !== 'string' || input.signedXml === '') return { ok: false, message: 'Falta el documento firmado (signedXml).' };
  if (input.environment !== '1' && input.environment !== '2') return { ok: false, message: 'El ambiente debe ser 1 (producción) o 2 (habilitación).' };
  if (typeof input.id !== 'string' || input.id.trim() === '') return { ok: false, message: 'Falta el número del AttachedDocument (id).' };
  if (typeof input.issueDate !== 'string' || !ISO_DATE.test(input.issueDate))
    return { ok: false, message: 'La fecha de emisión debe tener la forma AAAA-MM-DD.' };
  if (typeof input.issueTime !== 'string' || !/^\d{2}:\d{2}:\d{2}/.test(input.issueTime))
    return { ok: false, message: 'La hora de emisión debe tener la forma HH:mm:ss-05:00.' };

  const doc = readUbl(input.signedXml);
  if (!doc.ok) return { ok: false, message: `No se pudo leer el documento firmado: ${doc.message}` };
  const d = doc.root;
  const source = Object.hasOwn(ATTACHED_SOURCES, d.name) ? ATTACHED_SOURCES[d.name] : undefined;
  if (!source) return { ok: false, message: `El documento firmado debe ser Invoice, CreditNote, DebitNote o ApplicationResponse (evento), no ${d.name}.` };
  const number = textAt(d, 'cbc:ID');
  if (!number) return { ok: false, message: 'El documento firmado no tiene cbc:ID.' };
  const uuidNode = child(d, 'cbc:UUID');
  const uuid = textAt(d, 'cbc:UUID');
  const docDate = textAt(d, 'cbc:IssueDate');
  const sender = party('cac:SenderParty', at(d, source.sender));
  if (!sender) return { ok: false, message: `El documento firmado no tiene el PartyTaxScheme ${source.senderName}.` };
  const receiver = party('cac:ReceiverParty', at(d, source.receiver));
  if (!receiver) return { ok: false, message: `El documento firmado no tiene el PartyTaxScheme ${source.receiverName}.` };

  const extension: UblNode = { ...el('ext:UBLExtension'), children: [el('ext:ExtensionContent')] };
  const children: UblNode[] = [
    { ...el('ext:UBLExtensions'), children: [extension] },
    el('cbc:UBLVersionID', 'UBL 2.1'),
    el('cbc:CustomizationID', ATTACHED_CUSTOMIZATION_ID),
    el('cbc:ProfileID', ATTACHED_PROFILE_ID),
    el('cbc:ProfileExecutionID', input.environment),
    el('cbc:ID', input.id.trim()),
    el('cbc:IssueDate', input.issueDate),
    el('cbc:IssueTime', input.issueTime),
    ...(input.notes ?? []).map((n) => el('cbc:Note', n)),
    el('cbc:DocumentType', ATTACHED_DOCUMENT_TYPE),
    el('cbc:ParentDocumentID', number),
    sender,
    receiver,
    attachment(input.signedXml),
  ];

  if (input.applicationResponseXml !== undefined) {
    const resp = readUbl(input.applicationResponseXml);
    if (!resp.ok) return { ok: false, message: `No se pudo leer el ApplicationResponse de la DIAN: ${resp.message}` };
    const r = resp.root;
    if (r.name !== 'ApplicationResponse') return { ok: false, message: `La respuesta de la DIAN debe ser un ApplicationResponse, no ${r.name}.` };
    if (!uuid || !docDate) return { ok: false, message: 'El documento firmado no tiene cbc:UUID o cbc:IssueDate.' };
    const validationDate = textAt(r, 'cbc:IssueDate');
    const validationTime = textAt(r, 'cbc:IssueTime');
    if (!validationDate || !validationTime) return { ok: false, message: 'El ApplicationResponse no tiene cbc:IssueDate o cbc:IssueTime.' };
    const validator = textAt(r, 'cac:SenderParty/cac:PartyTaxScheme/cbc:RegistrationName') || DIAN_VALIDATOR_NAME;
    const resultCode = textAt(r, 'cac:DocumentResponse/cac:Response/cbc:ResponseCode') || '02';
    const scheme = attr(uuidNode, 'schemeName');
    const ref: UblNode = {
      ...el('cac:DocumentReference'),
      children: [
        el('cbc:ID', number),
        el('cbc:UUID', uuid, scheme ? [['schemeName', scheme]] : []),
        el('cbc:IssueDate', docDate),
        el('cbc:DocumentType', 'ApplicationResponse'),
        attachment(input.applicationResponseXml),
        {
          ...el('cac:ResultOfVerification'),
          children: [
            el('cbc:ValidatorID', validator),
            el('cbc:ValidationResultCode', resultCode),
            el('cbc:ValidationDate', validationDate),
            el('cbc:ValidationTime', validationTime),
          ],
        },
      ],
    };
    children.push({ ...el('cac:ParentDocumentLineReference'), children: [el('cbc:LineID', '1'), ref] });
  }

  // Built in the XSD order of AttachedDocument (§1.2), which the generated order table does not cover.
  return { ok: true, xml: writeUbl({ name: 'AttachedDocument', attrs: [], children }, { keepOrder: true }) };
}

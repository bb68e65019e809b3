/**
 * DIAN's answers (dian-protocol.md §5.4–§5.5) read into typed results: the SOAP 1.2 response envelope,
 * `<Operation>Response/<Operation>Result`, then one reader per answer type of the operations table. Fields are
 * matched by local name inside the result (DIAN's data-contract prefixes vary), `i:nil` reads as null.
 * A SOAP Fault is read into {@link DianFault}. Pure: strings in, values out.
 */
import type { Element } from '@xmldom/xmldom';
import { parseXmlStrictly } from '../../shared/xml/strict-parser.js';
import { MAX_XML_ATTRIBUTES, prescanXml, type XmlLimits } from '../../shared/xml/prescan.js';

/**
 * Bounds of an answer envelope (the pre-scan's): DIAN's answers nest about 8 deep (Envelope/Body/…Response/
 * …Result/ResponseList/item/field) plus a WS-Security header; their longest value is a base64 zip or document
 * (XmlBase64Bytes), up to the client's answer bound; they hold at most a few thousand elements (a numbering
 * range list, a document's events).
 */
export const DIAN_ANSWER_LIMITS: XmlLimits = {
  maxValueLength: 32 * 1024 * 1024,
  maxDepth: 32,
  maxElements: { '*': 200_000 },
  maxChildren: 100_000,
  maxAttributes: MAX_XML_ATTRIBUTES,
  maxSignatureDepth: 12,
};
import { type DianRuleMessage, parseDianRuleMessage } from '../rules/message.js';
import { SOAP12_NS } from './envelope.js';
import { DIAN_OPERATIONS, type DianAnswerType, type DianOperation, WCF_NS } from './operations.js';

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** `DianResponse`: the verdict on one document or event. */
export interface DianResponse {
  isValid: boolean;
  /** `00` processed and valid, `99` validation errors, `98` still processing, `66`/`90` not found. */
  statusCode: string | null;
  statusDescription: string | null;
  statusMessage: string | null;
  /** The `ErrorMessage` strings, split. */
  messages: DianRuleMessage[];
  /** DIAN's signed ApplicationResponse, base64 (it goes into the AttachedDocument). */
  xmlBase64Bytes: string | null;
  /** The CUFE / CUDE / CUNE the answer is about. */
  xmlDocumentKey: string | null;
  xmlFileName: string | null;
}

/** One item of `UploadDocumentResponse/ErrorMessageList`. */
export interface DianUploadItem {
  documentKey: string | null;
  processedMessage: string | null;
  senderCode: string | null;
  success: boolean;
  xmlFileName: string | null;
}

/** `UploadDocumentResponse`: the answer to an asynchronous upload; `zipKey` is what GetStatusZip takes. */
export interface DianUploadResponse {
  zipKey: string | null;
  items: DianUploadItem[];
}

/** One numbering range of `NumberRangeResponseList`. */
export interface DianNumberingRange {
  resolutionNumber: string | null;
  resolutionDate: string | null;
  prefix: string | null;
  fromNumber: string | null;
  toNumber: string | null;
  validDateFrom: string | null;
  validDateTo: string | null;
  technicalKey: string | null;
}

/** `NumberRangeResponseList`. */
export interface DianNumberingRanges {
  operationCode: string | null;
  operationDescription: string | null;
  ranges: DianNumberingRange[];
}

/** `EventResponse` (GetXmlByDocumentKey). */
export interface DianEventResponse {
  code: string | null;
  message: string | null;
  validationDate: string | null;
  xmlBytesBase64: string | null;
}

/** The typed result of each answer type. */
export interface DianAnswerTypes {
  DianResponse: DianResponse;
  ArrayOfDianResponse: DianResponse[];
  UploadDocumentResponse: DianUploadResponse;
  NumberRangeResponseList: DianNumberingRanges;
  EventResponse: DianEventResponse;
}

/** The result an operation answers with. */
export type DianAnswer<Op extends DianOperation> = DianAnswerTypes[(typeof DIAN_OPERATIONS)[Op]['answer']];

/** A SOAP 1.2 Fault: `Code/Value`, the first `Subcode/Value`, and the `Reason/Text`. */
export interface DianFault {
  code: string;
  subcode: string | null;
  reason: string;
}

/** What an answer body is: the operation's result, a SOAP Fault, or something that is neither. */
export type ReadAnswer<Op extends DianOperation> =
  | { kind: 'result'; result: DianAnswer<Op>; action: string | null }
  | { kind: 'fault'; fault: DianFault }
  | { kind: 'unreadable'; reason: string };

/** Reads the answer envelope of `operation`. Never throws: what cannot be read is `unreadable`, with why. */
export function readDianAnswer<Op extends DianOperation>(operation: Op, text: string): ReadAnswer<Op> {
  // Bounded before any DOM is built: a DOCTYPE, deep nesting or millions of elements are refused in one linear pass.
  const refusal = prescanXml(text, DIAN_ANSWER_LIMITS);
  if (refusal)
    return { kind: 'unreadable', reason: `the answer exceeds what a DIAN answer holds (${refusal.code}${refusal.path ? ` at ${refusal.path}` : ''})` };
  const parsed = parseXmlStrictly(text);
  const root = parsed.doc?.documentElement;
  if (!root || parsed.problems.length > 0 || parsed.thrown !== undefined || parsed.doc?.doctype) {
    return { kind: 'unreadable', reason: 'the answer is not well-formed XML' };
  }
  if (root.localName !== 'Envelope' || root.namespaceURI !== SOAP12_NS) {
    return { kind: 'unreadable', reason: `the answer is not a SOAP 1.2 envelope (root ${root.localName})` };
  }
  const body = child(root, 'Body', SOAP12_NS);
  if (!body) return { kind: 'unreadable', reason: 'the envelope has no Body' };
  const fault = child(body, 'Fault', SOAP12_NS);
  if (fault) return { kind: 'fault', fault: readFault(fault) };
  const response = child(body, `${operation}Response`, WCF_NS);
  const row = DIAN_OPERATIONS[operation];
  const result = response && child(response, row.result, WCF_NS);
  if (!result) return { kind: 'unreadable', reason: `the Body holds no ${operation}Response/${row.result}` };
  const header = child(root, 'Header', SOAP12_NS);
  const action = header ? elements(header).find((e) => e.localName === 'Action') : undefined;
  return { kind: 'result', result: READERS[row.answer](result) as DianAnswer<Op>, action: action ? text_(action) : null };
}

const READERS: { [T in DianAnswerType]: (el: Element) => DianAnswerTypes[T] } = {
  DianResponse: readDianResponse,
  ArrayOfDianResponse: (el) =>
    elements(el)
      .filter((e) => e.localName === 'DianResponse')
      .map(readDianResponse),
  UploadDocumentResponse: (el) => ({
    zipKey: field(el, 'ZipKey'),
    items: elements(named(el, 'ErrorMessageList')).map((item) => ({
      documentKey: field(item, 'DocumentKey'),
      processedMessage: field(item, 'ProcessedMessage'),
      senderCode: field(item, 'SenderCode'),
      success: field(item, 'Success') === 'true',
      xmlFileName: field(item, 'XmlFileName'),
    })),
  }),
  NumberRangeResponseList: (el) => ({
    operationCode: field(el, 'OperationCode'),
    operationDescription: field(el, 'OperationDescription'),
    ranges: elements(named(el, 'ResponseList')).map((r) => ({
      resolutionNumber: field(r, 'ResolutionNumber'),
      resolutionDate: field(r, 'ResolutionDate'),
      prefix: field(r, 'Prefix'),
      fromNumber: field(r, 'FromNumber'),
      toNumber: field(r, 'ToNumber'),
      validDateFrom: field(r, 'ValidDateFrom'),
      validDateTo: field(r, 'ValidDateTo'),
      technicalKey: field(r, 'TechnicalKey'),
    })),
  }),
  EventResponse: (el) => ({
    code: field(el, 'Code'),
    message: field(el, 'Message'),
    validationDate: field(el, 'ValidationDate'),
    xmlBytesBase64: field(el, 'XmlBytesBase64'),
  }),
};

function readDianResponse(el: Element): DianResponse {
  return {
    isValid: field(el, 'IsValid') === 'true',
    statusCode: field(el, 'StatusCode'),
    statusDescription: field(el, 'StatusDescription'),
    statusMessage: field(el, 'StatusMessage'),
    messages: elements(named(el, 'ErrorMessage'))
      .map(text_)
      .filter((s) => s !== '')
      .map(parseDianRuleMessage),
    xmlBase64Bytes: field(el, 'XmlBase64Bytes'),
    xmlDocumentKey: field(el, 'XmlDocumentKey'),
    xmlFileName: field(el, 'XmlFileName'),
  };
}

function readFault(fault: Element): DianFault {
  const code = child(fault, 'Code', SOAP12_NS);
  const subcode = code && child(code, 'Subcode', SOAP12_NS);
  const reason = child(fault, 'Reason', SOAP12_NS);
  const value = (el: Element | undefined) => (el ? text_(child(el, 'Value', SOAP12_NS)) : '');
  return {
    code: value(code),
    subcode: subcode ? value(subcode) || null : null,
    reason: reason ? elements(reason).map(text_).join(' ').trim() : '',
  };
}

/** The text of the first child named `local` (any namespace); null when absent, empty or `i:nil`. */
function field(el: Element | undefined, local: string): string | null {
  const f = named(el, local);
  if (!f || f.getAttributeNS(XSI_NS, 'nil') === 'true') return null;
  const text = text_(f);
  return text === '' ? null : text;
}

function named(el: Element | undefined, local: string): Element | undefined {
  return el ? elements(el).find((e) => e.localName === local) : undefined;
}

function child(el: Element, local: string, ns: string): Element | undefined {
  return elements(el).find((e) => e.localName === local && e.namespaceURI === ns);
}

function elements(el: Element | undefined): Element[] {
  const out: Element[] = [];
  if (!el) return out;
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

function text_(el: Element | undefined): string {
  return (el?.textContent ?? '').trim();
}

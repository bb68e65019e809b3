/**
 * The local DIAN's SOAP side: the request read (operation from the Body, its fields by the operations table's
 * rows) and the answers written in DIAN's shapes (dian-protocol.md §5.4): `s:Envelope` with an `a:Action` and a
 * 5-minute `u:Timestamp`, `<OpResponse xmlns="http://wcf.dian.colombia"><OpResult xmlns:b=… xmlns:i=…>` with the
 * `b:` fields in WSDL order, and SOAP 1.2 Faults. One writer per answer type, chosen by the operation's row.
 */
import type { Element } from '@xmldom/xmldom';
import { parseXmlStrictly } from '../../shared/xml/strict-parser.js';
import { formatDianRuleMessage } from '../rules/message.js';
import type { DianAnswerTypes, DianResponse } from '../transport/answer.js';
import { SOAP12_NS, WSSE_NS, WSU_NS } from '../transport/envelope.js';
import { ACTION_PREFIX, DIAN_OPERATIONS, type DianAnswerType, type DianOperation, isDianOperation, WCF_NS } from '../transport/operations.js';

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const ARRAYS_NS = 'http://schemas.microsoft.com/2003/10/Serialization/Arrays';
const CONTRACT = 'http://schemas.datacontract.org/2004/07/';
const WSA_NS = 'http://www.w3.org/2005/08/addressing';

/** A request's operation and its fields, or why it is not one. */
export type ReadRequest = { ok: true; operation: DianOperation; params: Record<string, string>; action: string | null } | { ok: false; reason: string };

/** Reads the Body's operation element and its fields (only the row's fields; text trimmed). */
export function readDianRequest(xml: string): ReadRequest {
  const parsed = parseXmlStrictly(xml);
  const root = parsed.doc?.documentElement;
  if (!root || parsed.problems.length > 0 || parsed.thrown !== undefined) return { ok: false, reason: 'El mensaje no es XML bien formado.' };
  if (root.localName !== 'Envelope' || root.namespaceURI !== SOAP12_NS) return { ok: false, reason: 'El mensaje no es un sobre SOAP 1.2.' };
  const body = elements(root).find((e) => e.localName === 'Body' && e.namespaceURI === SOAP12_NS);
  const op = body ? elements(body)[0] : undefined;
  if (!op || op.namespaceURI !== WCF_NS || !isDianOperation(op.localName ?? '')) {
    return { ok: false, reason: `Operación desconocida: ${op ? `{${op.namespaceURI ?? ''}}${op.localName}` : '(cuerpo vacío)'}.` };
  }
  const operation = op.localName as DianOperation;
  const params: Record<string, string> = {};
  const fields = DIAN_OPERATIONS[operation].request as readonly string[];
  for (const e of elements(op)) {
    if (e.namespaceURI === WCF_NS && fields.includes(e.localName ?? '')) params[e.localName!] = (e.textContent ?? '').trim();
  }
  const header = elements(root).find((e) => e.localName === 'Header' && e.namespaceURI === SOAP12_NS);
  const action = header ? elements(header).find((e) => e.localName === 'Action' && e.namespaceURI === WSA_NS) : undefined;
  return { ok: true, operation, params, action: action ? (action.textContent ?? '').trim() : null };
}

function elements(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

const esc = (s: string) => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
const nil = (tag: string) => `<${tag} i:nil="true"/>`;
const text = (tag: string, v: string | null) => (v === null ? nil(tag) : `<${tag}>${esc(v)}</${tag}>`);

function dianResponseFields(r: DianResponse): string {
  const messages = r.messages.map((m) => `<c:string>${esc(formatDianRuleMessage(m))}</c:string>`).join('');
  return (
    `<b:ErrorMessage xmlns:c="${ARRAYS_NS}">${messages}</b:ErrorMessage>` +
    `<b:IsValid>${r.isValid}</b:IsValid>` +
    text('b:StatusCode', r.statusCode) +
    text('b:StatusDescription', r.statusDescription) +
    text('b:StatusMessage', r.statusMessage) +
    text('b:XmlBase64Bytes', r.xmlBase64Bytes) +
    nil('b:XmlBytes') +
    text('b:XmlDocumentKey', r.xmlDocumentKey) +
    text('b:XmlFileName', r.xmlFileName)
  );
}

/** The `b:` namespace and the content of each answer type's result element. */
const WRITERS: { [T in DianAnswerType]: { ns: string; content: (r: DianAnswerTypes[T]) => string } } = {
  DianResponse: { ns: `${CONTRACT}DianResponse`, content: dianResponseFields },
  ArrayOfDianResponse: {
    ns: `${CONTRACT}DianResponse`,
    content: (list) => list.map((r) => `<b:DianResponse>${dianResponseFields(r)}</b:DianResponse>`).join(''),
  },
  UploadDocumentResponse: {
    ns: `${CONTRACT}UploadDocumentResponse`,
    content: (r) =>
      `<b:ErrorMessageList xmlns:c="${CONTRACT}XmlParamsResponseTrackId">` +
      r.items
        .map(
          (i) =>
            `<c:XmlParamsResponseTrackId>${text('c:DocumentKey', i.documentKey)}${text('c:ProcessedMessage', i.processedMessage)}` +
            `${text('c:SenderCode', i.senderCode)}<c:Success>${i.success}</c:Success>${text('c:XmlFileName', i.xmlFileName)}</c:XmlParamsResponseTrackId>`,
        )
        .join('') +
      `</b:ErrorMessageList>${text('b:ZipKey', r.zipKey)}`,
  },
  NumberRangeResponseList: {
    ns: `${CONTRACT}NumberRangeResponseList`,
    content: (r) =>
      `${text('b:OperationCode', r.operationCode)}${text('b:OperationDescription', r.operationDescription)}<b:ResponseList xmlns:c="${CONTRACT}NumberRangeResponse">` +
      r.ranges
        .map(
          (x) =>
            `<c:NumberRangeResponse>${text('c:ResolutionNumber', x.resolutionNumber)}${text('c:ResolutionDate', x.resolutionDate)}${text('c:Prefix', x.prefix)}` +
            `${text('c:FromNumber', x.fromNumber)}${text('c:ToNumber', x.toNumber)}${text('c:ValidDateFrom', x.validDateFrom)}` +
            `${text('c:ValidDateTo', x.validDateTo)}${text('c:TechnicalKey', x.technicalKey)}</c:NumberRangeResponse>`,
        )
        .join('') +
      '</b:ResponseList>',
  },
  EventResponse: {
    ns: `${CONTRACT}EventResponse`,
    content: (r) =>
      `${text('b:Code', r.code)}${text('b:Message', r.message)}${text('b:ValidationDate', r.validationDate)}${text('b:XmlBytesBase64', r.xmlBytesBase64)}`,
  },
};

function header(action: string, now: Date): string {
  const expires = new Date(now.getTime() + 300_000);
  return (
    `<s:Header><a:Action s:mustUnderstand="1">${esc(action)}</a:Action>` +
    `<o:Security s:mustUnderstand="1" xmlns:o="${WSSE_NS}"><u:Timestamp u:Id="_0"><u:Created>${now.toISOString()}</u:Created>` +
    `<u:Expires>${expires.toISOString()}</u:Expires></u:Timestamp></o:Security></s:Header>`
  );
}

/** The answer envelope of `operation` with its typed result. */
export function writeDianAnswer<Op extends DianOperation>(operation: Op, result: DianAnswerTypes[(typeof DIAN_OPERATIONS)[Op]['answer']], now: Date): string {
  const row = DIAN_OPERATIONS[operation];
  const writer = WRITERS[row.answer] as { ns: string; content: (r: unknown) => string };
  return (
    `<s:Envelope xmlns:s="${SOAP12_NS}" xmlns:a="${WSA_NS}" xmlns:u="${WSU_NS}">` +
    header(`${ACTION_PREFIX}${operation}Response`, now) +
    `<s:Body><${operation}Response xmlns="${WCF_NS}"><${row.result} xmlns:b="${writer.ns}" xmlns:i="${XSI_NS}">` +
    writer.content(result) +
    `</${row.result}></${operation}Response></s:Body></s:Envelope>`
  );
}

/** The Fault's subcode: its namespace and local name. */
export interface FaultSubcode {
  ns: string;
  name: string;
}

export const INVALID_SECURITY: FaultSubcode = { ns: WSSE_NS, name: 'InvalidSecurity' };
export const MESSAGE_EXPIRED: FaultSubcode = { ns: WSU_NS, name: 'MessageExpired' };
export const ACTION_MISMATCH: FaultSubcode = { ns: WSA_NS, name: 'ActionMismatch' };
export const BAD_REQUEST: FaultSubcode = {
  ns: 'http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher',
  name: 'DeserializationFailed',
};
export const INTERNAL_FAULT: FaultSubcode = {
  ns: 'http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher',
  name: 'InternalServiceFault',
};

/** A SOAP 1.2 Fault (WCF answers it with HTTP 500). */
export function writeFault(side: 'Sender' | 'Receiver', subcode: FaultSubcode, reason: string): string {
  return (
    `<s:Envelope xmlns:s="${SOAP12_NS}"><s:Body><s:Fault><s:Code><s:Value>s:${side}</s:Value>` +
    `<s:Subcode><s:Value xmlns:a="${subcode.ns}">a:${subcode.name}</s:Value></s:Subcode></s:Code>` +
    `<s:Reason><s:Text xml:lang="es-CO">${esc(reason)}</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>`
  );
}

/** The HTML page of an unavailable service (outage, injected 503). */
export const UNAVAILABLE_PAGE =
  '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1><p>HTTP Error 503. The service is unavailable.</p></body></html>';

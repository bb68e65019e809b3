/**
 * DIAN's own `ApplicationResponse`: the signed answer to a document or event (the `XmlBase64Bytes` of the SOAP
 * result, decoded; the one the AttachedDocument carries), read as data (dian-protocol.md §5.4, §5.5, §8).
 *
 * `cac:DocumentResponse/cac:Response/cbc:ResponseCode` is `02` (validated) or `04` (rejected);
 * `cac:DocumentReference` names the document answered (number and CUFE/CUDE); each `cac:LineResponse` is one
 * message. A message's text of the form `Regla: FAD06, Rechazo: …` (as in the SOAP `ErrorMessage` strings) gives
 * the rule and the kind; a line whose code is a rule code and whose text starts `Rechazo: …` / `Notificación: …`
 * gives them too; DIAN's status lines (`0000`, `0`) are kind `Información`.
 *
 * Pure: no I/O. Never throws for bad input.
 */
import { readUbl } from '../ubl/read.js';
import { all, at, attr, child, textAt, type UblNode } from '../ubl/tree.js';
import { DIAN_EVENTS } from './table.js';
import { parseDianRuleMessage } from '../rules/message.js';

/** How DIAN classes a message: it rejects, it notifies, it informs (status lines), or the text does not say. */
export type DianMessageKind = 'Rechazo' | 'Notificación' | 'Información' | 'Sin clasificar';

/** One line of DIAN's answer. */
export interface DianResponseMessage {
  /** `cac:LineReference/cbc:LineID`, when given. */
  line?: string;
  /** `cac:Response/cbc:ResponseCode` of the line, as written. */
  code: string;
  /** The rule code (`FAD06`, `LGC01`, `90`), when the line names one. */
  rule?: string;
  kind: DianMessageKind;
  /** The message text, without its `Regla: …, Rechazo:` lead. */
  text: string;
}

/** DIAN's answer as data. */
export interface DianApplicationResponse {
  /** `ResponseCode` `02`: DIAN validated the document. */
  isValid: boolean;
  /** `cac:DocumentResponse/cac:Response/cbc:ResponseCode` (`02`, `04`). */
  responseCode: string;
  /** `cac:Response/cbc:Description` (`Documento validado por la DIAN`). */
  description?: string;
  /** The CUFE/CUDE of the document answered (`cac:DocumentReference/cbc:UUID`) and its scheme name. */
  documentKey?: string;
  documentKeyScheme?: string;
  /** The number of the document answered (`cac:DocumentReference/cbc:ID`). */
  documentId?: string;
  /** The response's own `cbc:ID`, `cbc:UUID` (its CUDE), date and time. */
  id?: string;
  uuid?: string;
  issueDate?: string;
  issueTime?: string;
  /** Who answers (DIAN's NIT) and to whom (the sender of the document). */
  senderId?: string;
  receiverId?: string;
  messages: DianResponseMessage[];
}

export type DianApplicationResponseResult = ({ ok: true } & DianApplicationResponse) | { ok: false; message: string };

/** DIAN's status lines: `0000` first, `0` last (§5.5). */
const STATUS_CODES = new Set(['0', '0000']);

function messageOf(line: UblNode): DianResponseMessage[] {
  const lineId = textAt(line, 'cac:LineReference/cbc:LineID');
  const out: DianResponseMessage[] = [];
  for (const r of all(line, 'cac:Response')) {
    const code = textAt(r, 'cbc:ResponseCode') ?? '';
    const texts = all(r, 'cbc:Description').map((d) => d.text?.trim() ?? '');
    const text = texts.join('\n');
    const base = lineId !== undefined ? { line: lineId, code } : { code };
    const split = parseDianRuleMessage(text);
    if (split.rule !== null) out.push({ ...base, rule: split.rule, kind: split.kind!, text: split.text });
    else if (STATUS_CODES.has(code)) out.push({ ...base, kind: 'Información', text });
    else out.push({ ...base, ...(code ? { rule: code } : {}), kind: split.kind ?? 'Sin clasificar', text: split.kind ? split.text : text });
  }
  return out;
}

/**
 * Reads DIAN's ApplicationResponse into `{ isValid, responseCode, documentKey, documentId, …, messages }`.
 * Not XML, not an ApplicationResponse, an event (030–034) or a response without `cac:DocumentResponse` is
 * `{ ok: false, message }`.
 */
export function parseDianApplicationResponse(xml: string): DianApplicationResponseResult {
  const read = readUbl(xml);
  if (!read.ok) return { ok: false, message: read.message };
  const root = read.root;
  if (root.name !== 'ApplicationResponse') return { ok: false, message: `Se esperaba el ApplicationResponse de la DIAN, no ${root.name}.` };
  const docResponse = child(root, 'cac:DocumentResponse');
  const responseCode = textAt(docResponse, 'cac:Response/cbc:ResponseCode');
  if (!docResponse || !responseCode) return { ok: false, message: 'El ApplicationResponse no tiene cac:DocumentResponse/cac:Response/cbc:ResponseCode.' };
  if (Object.hasOwn(DIAN_EVENTS, responseCode))
    return { ok: false, message: `El ApplicationResponse es un evento (${responseCode}), no la respuesta de la DIAN; léalo con parseDianEvent.` };

  const ref = child(docResponse, 'cac:DocumentReference');
  const out: DianApplicationResponse = { isValid: responseCode === '02', responseCode, messages: [] };
  const set = <K extends keyof DianApplicationResponse>(k: K, v: DianApplicationResponse[K] | undefined) => {
    if (v !== undefined && v !== '') out[k] = v;
  };
  set('description', textAt(docResponse, 'cac:Response/cbc:Description'));
  set('documentKey', textAt(ref, 'cbc:UUID'));
  set('documentKeyScheme', attr(child(ref, 'cbc:UUID'), 'schemeName'));
  set('documentId', textAt(ref, 'cbc:ID'));
  set('id', textAt(root, 'cbc:ID'));
  set('uuid', textAt(root, 'cbc:UUID'));
  set('issueDate', textAt(root, 'cbc:IssueDate'));
  set('issueTime', textAt(root, 'cbc:IssueTime'));
  set('senderId', textAt(at(root, 'cac:SenderParty/cac:PartyTaxScheme'), 'cbc:CompanyID'));
  set('receiverId', textAt(at(root, 'cac:ReceiverParty/cac:PartyTaxScheme'), 'cbc:CompanyID'));
  for (const line of all(docResponse, 'cac:LineResponse')) out.messages.push(...messageOf(line));
  return { ok: true, ...out };
}

/**
 * RADIAN events (ApplicationResponse 030–034): the service's event payload (dian-service.md "Event payloads")
 * validated with every problem collected, then built into the unsigned UBL `ApplicationResponse` DIAN's samples
 * show (dian-protocol.md §1.1, §1.2, §1.4, §3.5, §9). What differs between events is a row of DIAN_EVENTS.
 *
 * The sender is the company of the context (the buyer for 030–033, the invoice issuer for 034); the receiver is
 * the request's `receiver_party`, or DIAN itself where the row says so. Issue date and time are the context
 * clock's Bogotá wall clock. The result carries the CUDE (SHA-384 over the values as written, §3.5).
 *
 * Pure: no I/O; the clock comes in with the context.
 */
import type { Issue, IssueCode } from '../../shared/issues.js';
import { toIssueReport } from '../../shared/issues.js';
import { formatWallClock } from '../../shared/time/fixed-offset.js';
import type { DianContext } from '../build/context.js';
import { eventCude } from '../codes/event.js';
import { nitCheckDigit } from '../codes/nit.js';
import { qrUrl } from '../codes/qr.js';
import { softwareSecurityCode } from '../codes/security-code.js';
import { BOGOTA_OFFSET, BOGOTA_OFFSET_MINUTES, TAX_NAMES } from '../spec/codes.js';
import { el, type UblNode } from '../ubl/tree.js';
import { writeUbl } from '../ubl/write.js';
import { CONCEPT_LEAF, checkField, conceptList, DIAN_EVENT_FIELDS, eventField, unknownKeys } from './fields.js';
import {
  DIAN_CLAIM_CONCEPTS,
  DIAN_EVENTS,
  DIAN_PARTY,
  EVENT_CUSTOMIZATION_ID,
  EVENT_DOCUMENT_TYPE_CODE,
  EVENT_PROFILE_ID,
  type DianEventCode,
  type DianEventRow,
} from './table.js';

/** A party of an event (`sender_party`, `receiver_party`). */
export interface DianEventParty {
  /** DIAN's identification type (31 NIT, 13 cédula, …). */
  identification_type_code: number;
  /** The identification number, without check digit (a NIT's DV is computed). */
  identification_number: string;
  /** Registered name. */
  name: string;
}

/** The person within the company generating the event (`cac:IssuerParty/cac:Person`). */
export interface DianEventPerson {
  identification_type_code: number;
  identification_number: string;
  first_name: string;
  family_name: string;
  job_title?: string;
  organization_department?: string;
}

/** An event request: the service's event payload plus the event code. */
export interface DianEventRequest {
  /** `030` … `034` (the service's endpoint, `/v1/031`, names it). */
  event_code: DianEventCode;
  /** The event's consecutive; `cbc:ID` is the prefix (option) followed by it. */
  number: number;
  /** NIT (without DV) of the company generating the event: the context's company, the SenderParty. */
  identification_number: number;
  /** Service flag (e-mail issuer and receiver); accepted, not written in the XML. */
  send?: boolean;
  /** The sender as written; default: the context's company. Its number must be `identification_number`. */
  sender_party?: DianEventParty;
  /** The receiver (the invoice's issuer or buyer); not given when the row's receiver is DIAN. */
  receiver_party?: DianEventParty;
  /** The invoice the event is about: its number (prefix and consecutive) and CUFE. */
  document_reference: { number: string; uuid: string };
  person?: DianEventPerson;
  /** The claim concept of 031, `01` … `04` (DIAN_CLAIM_CONCEPTS). */
  rejection_concept_code?: string;
  /** `cbc:Note` texts; 034 requires one (the sworn statement). */
  notes?: { text: string }[];
}

/** Options of {@link buildDianEvent}. */
export interface BuildDianEventOptions {
  /** Written before `number` in `cbc:ID` (`ACR` + `21` → `ACR21`); default none. */
  prefix?: string;
}

/** The service's 422 body for an event that did not pass its own validations (`statusCode` 13). */
export interface DianEventValidationBody {
  status: 'error';
  message: string;
  event: { number: string; statusCode: 13; statusDescription: string; errors: string[]; detailedErrors: Record<string, string[]> };
}

/** The built event, or every problem found (Spanish messages with field paths) and the service's 422 body. */
export type BuildDianEventResult =
  | { ok: true; xml: string; cude: string; cudePreimage: string; id: string; tree: UblNode; request: DianEventRequest }
  | { ok: false; issues: Issue[]; body: DianEventValidationBody };

/** The request rules of events (ruleId → what it checks), for docs and tests. */
export const DIAN_EVENT_RULES = {
  'DIAN-EVT-RECEIVER-DIAN': 'an event whose receiver is DIAN (034) takes no other `receiver_party`',
  'DIAN-EVT-RECEIVER': 'an event addressed to the invoice issuer or buyer (030–033) requires `receiver_party`',
  'DIAN-EVT-NOTE': 'an event that requires a note (034, the sworn statement) has at least one non-empty `notes` entry',
  'DIAN-EVT-CONCEPT': 'the claim (031) requires `rejection_concept_code` 01–04; the other events take none',
  'DIAN-EVT-SENDER': '`sender_party.identification_number` is `identification_number` (the company generating the event)',
  'DIAN-EVT-COMPANY': "`identification_number` is the context company's NIT when the context names it",
} as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Obj, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

const NIT_TYPE = 31;

class Issues {
  readonly list: Issue[] = [];
  add(code: IssueCode, path: string, message: string, ruleId?: string): void {
    this.list.push(ruleId ? { code, path, message, severity: 'error', ruleId } : { code, path, message, severity: 'error' });
  }
}

/** A non-empty string (trimmed), or null. */
function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

function contextIssues(is: Issues, ctx: DianContext | undefined): void {
  if (!isObj(ctx)) {
    is.add('required', 'context', 'falta el contexto (empresa, software, ambiente, reloj)');
    return;
  }
  const c = ctx as unknown as Obj;
  const company = own(c, 'company');
  const software = own(c, 'software');
  for (const k of ['name', 'identification_type_code', 'organization_type_code', 'tax_code'])
    if (!isObj(company) || text(own(company, k)) === null) is.add('required', `context.company.${k}`, 'es obligatorio en el contexto');
  for (const k of ['id', 'pin', 'provider_nit', 'provider_dv'])
    if (!isObj(software) || text(own(software, k)) === null) is.add('required', `context.software.${k}`, 'es obligatorio en el contexto');
  if (ctx.environment !== '1' && ctx.environment !== '2') is.add('enum', 'context.environment', 'debe ser 1 (producción) o 2 (habilitación)');
  if (typeof ctx.now !== 'function') is.add('required', 'context.now', 'configure un reloj: la fecha y la hora del evento son las de su firma');
}

/**
 * Validates an event request (collected issues, never a throw). `value` is the normalized request (numbers and
 * codes in their written form, text trimmed) when there is no issue. The fields are checked by walking
 * DIAN_EVENT_FIELDS (fields.ts, the source of the request's JSON Schema too); the rules of the DIAN_EVENTS row and
 * those between values follow each field they concern.
 */
export function validateDianEvent(body: unknown, context?: DianContext): { issues: Issue[]; value?: DianEventRequest; row?: DianEventRow } {
  const is = new Issues();
  if (context !== undefined) contextIssues(is, context);
  if (!isObj(body)) {
    is.add('invalid_type', '', 'el evento debe ser un objeto JSON');
    return { issues: is.list };
  }
  unknownKeys(is, body, DIAN_EVENT_FIELDS, '');
  const field = (key: string) => checkField(is, body, eventField(DIAN_EVENT_FIELDS, key), key);

  const code = field('event_code') as DianEventCode | null | undefined;
  const row = code ? DIAN_EVENTS[code] : undefined;
  const number = field('number') as number | null;

  const nit = field('identification_number') as number | null;
  const companyNit = isObj(context?.company) ? context.company.nit : undefined;
  if (nit != null && companyNit !== undefined && String(nit) !== companyNit)
    is.add('rule', 'identification_number', `debe ser el NIT de la empresa del contexto (${companyNit})`, 'DIAN-EVT-COMPANY');

  const send = field('send') as boolean | null | undefined;

  const sender = field('sender_party') as DianEventParty | null | undefined;
  if (sender && nit != null && sender.identification_number !== String(nit))
    is.add(
      'rule',
      'sender_party.identification_number',
      'debe ser igual a identification_number: el emisor del evento es la empresa que lo genera',
      'DIAN-EVT-SENDER',
    );

  const receiverRaw = own(body, 'receiver_party');
  const receiver = field('receiver_party') as DianEventParty | null | undefined;
  if (row?.receiver === 'dian') {
    if (receiver && receiver.identification_number !== DIAN_PARTY.nit)
      is.add(
        'rule',
        'receiver_party.identification_number',
        `en el evento ${row.code} (${row.name.toLowerCase()}) el receptor es la DIAN (NIT ${DIAN_PARTY.nit}); omita receiver_party`,
        'DIAN-EVT-RECEIVER-DIAN',
      );
  } else if (row && receiverRaw === undefined) {
    is.add(
      'required',
      'receiver_party',
      `es obligatorio en el evento ${row.code} (${row.name.toLowerCase()}): el ${row.receiver === 'issuer' ? 'emisor' : 'adquiriente'} de la factura`,
      'DIAN-EVT-RECEIVER',
    );
  }

  const reference = field('document_reference') as { number: string; uuid: string } | null;
  const who = field('person') as DianEventPerson | null | undefined;

  // The claim concept: the row says whether it is required or refused (DIAN-EVT-CONCEPT).
  let concept: string | undefined;
  const conceptRaw = own(body, 'rejection_concept_code');
  if (row?.conceptRequired) {
    if (conceptRaw === undefined || conceptRaw === null)
      is.add('required', 'rejection_concept_code', `es obligatorio en el reclamo (${row.code}): ${conceptList()}`, 'DIAN-EVT-CONCEPT');
    else {
      const r = CONCEPT_LEAF.check(conceptRaw, body);
      if (r.ok) concept = r.value as string;
      else is.add(r.code, 'rejection_concept_code', r.message, 'DIAN-EVT-CONCEPT');
    }
  } else if (row && conceptRaw !== undefined) {
    is.add('not_allowed', 'rejection_concept_code', `solo aplica al reclamo (031), no al evento ${row.code}`, 'DIAN-EVT-CONCEPT');
  }

  const notes = field('notes') as { text: string }[] | null | undefined;
  if (row?.noteRequired && !(notes && notes.length > 0))
    is.add(
      'required',
      'notes',
      `es obligatoria en el evento ${row.code} (${row.name.toLowerCase()}): una nota con la declaración bajo juramento de que pasaron tres días hábiles desde la recepción sin aceptación expresa, rechazo ni reclamo`,
      'DIAN-EVT-NOTE',
    );

  if (is.list.length > 0 || !row || number == null || nit == null || !reference) return { issues: is.list };
  const value: DianEventRequest = {
    event_code: row.code,
    number,
    identification_number: nit,
    ...(typeof send === 'boolean' ? { send } : {}),
    ...(sender ? { sender_party: sender } : {}),
    ...(receiver ? { receiver_party: receiver } : {}),
    document_reference: reference,
    ...(who ? { person: who } : {}),
    ...(concept ? { rejection_concept_code: concept } : {}),
    ...(notes && notes.length > 0 ? { notes } : {}),
  };
  return { issues: is.list, value, row };
}

/** The service's 422 body for an event's validation issues. */
export function toDianEventValidationBody(number: string, issues: readonly Issue[]): DianEventValidationBody {
  const report = toIssueReport(issues);
  return {
    status: 'error',
    message: 'El evento no superó las validaciones del servicio',
    event: {
      number,
      statusCode: 13,
      statusDescription: 'Evento con errores en las validaciones del servicio',
      errors: report.errors,
      detailedErrors: report.detailed_errors,
    },
  };
}

const AGENCY: [string, string][] = [
  ['schemeAgencyID', '195'],
  ['schemeAgencyName', 'CO, DIAN (Dirección de Impuestos y Aduanas Nacionales)'],
];
const node = (name: string, children: UblNode[], attrs: [string, string][] = []): UblNode => ({ name, attrs, children });

/** A party as written: name, identification, its DV when it is a NIT, the organization type when known, the tax scheme. */
interface WrittenParty {
  name: string;
  id: string;
  type: string;
  dv?: string;
  organization?: string;
  taxCode: string;
}

/** `cac:SenderParty` / `cac:ReceiverParty` with one `cac:PartyTaxScheme`, children in XSD order. */
function partyNode(name: string, p: WrittenParty): UblNode {
  const attrs: [string, string][] = [...AGENCY];
  if (p.dv !== undefined) attrs.push(['schemeID', p.dv]);
  attrs.push(['schemeName', p.type]);
  if (p.organization !== undefined) attrs.push(['schemeVersionID', p.organization]);
  const scheme = node('cac:TaxScheme', [el('cbc:ID', p.taxCode), el('cbc:Name', TAX_NAMES[p.taxCode] ?? p.taxCode)]);
  return node(name, [node('cac:PartyTaxScheme', [el('cbc:RegistrationName', p.name), el('cbc:CompanyID', p.id, attrs), scheme])]);
}

/** The tax scheme written for a party the request names (DIAN's event samples write IVA for every party). */
const EVENT_PARTY_TAX_CODE = '01';

function fromRequestParty(p: DianEventParty): WrittenParty {
  const type = String(p.identification_type_code);
  const dv = p.identification_type_code === NIT_TYPE ? (nitCheckDigit(p.identification_number) ?? undefined) : undefined;
  return { name: p.name, id: p.identification_number, type, ...(dv !== undefined ? { dv } : {}), taxCode: EVENT_PARTY_TAX_CODE };
}

const DIAN_WRITTEN: WrittenParty = {
  name: DIAN_PARTY.name,
  id: DIAN_PARTY.nit,
  type: DIAN_PARTY.identificationTypeCode,
  dv: DIAN_PARTY.dv,
  organization: DIAN_PARTY.organizationTypeCode,
  taxCode: EVENT_PARTY_TAX_CODE,
};

/** `sts:DianExtensions` of an event, in the order of DIAN's samples (§1.4; no InvoiceControl). */
function dianExtensions(ctx: DianContext, securityCode: string, qr: string): UblNode {
  const s = ctx.software;
  return node('sts:DianExtensions', [
    node('sts:InvoiceSource', [
      el('cbc:IdentificationCode', 'CO', [
        ['listAgencyID', '6'],
        ['listAgencyName', 'United Nations Economic Commission for Europe'],
        ['listSchemeURI', 'urn:oasis:names:specification:ubl:codelist:gc:CountryIdentificationCode-2.1'],
      ]),
    ]),
    node('sts:SoftwareProvider', [
      el('sts:ProviderID', s.provider_nit, [['schemeID', s.provider_dv], ['schemeName', '31'], ...AGENCY]),
      el('sts:SoftwareID', s.id, AGENCY),
    ]),
    el('sts:SoftwareSecurityCode', securityCode, AGENCY),
    node('sts:AuthorizationProvider', [el('sts:AuthorizationProviderID', DIAN_PARTY.nit, [['schemeID', DIAN_PARTY.dv], ['schemeName', '31'], ...AGENCY])]),
    el('sts:QRCode', qr),
  ]);
}

/**
 * Validates an event request and builds its unsigned `ApplicationResponse` (children in XSD order; the last
 * `ext:ExtensionContent` empty for `signDianXml`). Invalid input is a value: every issue, with the 422 body.
 *
 * @example
 * const r = buildDianEvent({ event_code: '030', number: 1, identification_number: 900108281, receiver_party, document_reference }, context);
 * if (r.ok) r.cude; // the event's CUDE, also in cbc:UUID
 */
export function buildDianEvent(request: unknown, context: DianContext, options: BuildDianEventOptions = {}): BuildDianEventResult {
  const v = validateDianEvent(request, context);
  const prefix = options.prefix ?? '';
  if (!/^[A-Za-z0-9-]{0,10}$/.test(prefix))
    v.issues.push({ code: 'pattern', path: 'prefix', message: 'el prefijo debe tener hasta 10 letras, dígitos o guiones', severity: 'error' });
  if (!v.value || !v.row || v.issues.length > 0) {
    const n = isObj(request) ? own(request, 'number') : undefined;
    return { ok: false, issues: v.issues, body: toDianEventValidationBody(`${prefix}${typeof n === 'number' || typeof n === 'string' ? n : ''}`, v.issues) };
  }
  const req = v.value;
  const row = v.row;
  const ctx = context;
  const id = `${prefix}${req.number}`;
  const now = ctx.now!();
  const issueDate = formatWallClock(now, BOGOTA_OFFSET_MINUTES, 'yyyy-MM-dd');
  const issueTime = `${formatWallClock(now, BOGOTA_OFFSET_MINUTES, 'HH:mm:ss')}${BOGOTA_OFFSET}`;

  const company = ctx.company;
  const sender: WrittenParty = {
    name: req.sender_party?.name ?? company.name,
    id: String(req.identification_number),
    type: req.sender_party ? String(req.sender_party.identification_type_code) : company.identification_type_code,
    organization: company.organization_type_code,
    taxCode: company.tax_code,
  };
  // A NIT's check digit is a function of the NIT: computed, not taken from the context.
  if (sender.type === String(NIT_TYPE)) sender.dv = nitCheckDigit(sender.id) ?? company.dv;
  const receiver = row.receiver === 'dian' ? DIAN_WRITTEN : fromRequestParty(req.receiver_party!);

  const code = eventCude({
    id,
    issueDate,
    issueTime,
    senderCompanyId: sender.id,
    receiverCompanyId: receiver.id,
    responseCode: row.code,
    documentReferenceId: req.document_reference.number,
    documentReferenceTypeCode: EVENT_DOCUMENT_TYPE_CODE,
    softwarePin: ctx.software.pin,
  });
  const security = softwareSecurityCode({ softwareId: ctx.software.id, softwarePin: ctx.software.pin, number: id }).hash;
  const qr = qrUrl(req.document_reference.uuid, ctx.environment);

  const responseAttrs: [string, string][] = req.rejection_concept_code
    ? [
        ['name', DIAN_CLAIM_CONCEPTS[req.rejection_concept_code]!],
        ['listID', req.rejection_concept_code],
      ]
    : [];
  const documentResponse: UblNode[] = [
    node('cac:Response', [el('cbc:ResponseCode', row.code, responseAttrs), el('cbc:Description', row.description)]),
    node('cac:DocumentReference', [
      el('cbc:ID', req.document_reference.number),
      el('cbc:UUID', req.document_reference.uuid, [['schemeName', 'CUFE-SHA384']]),
      el('cbc:DocumentTypeCode', EVENT_DOCUMENT_TYPE_CODE),
    ]),
  ];
  if (req.person) documentResponse.push(node('cac:IssuerParty', [personNode(req.person)]));

  const children: UblNode[] = [
    node('ext:UBLExtensions', [
      node('ext:UBLExtension', [node('ext:ExtensionContent', [dianExtensions(ctx, security, qr)])]),
      node('ext:UBLExtension', [el('ext:ExtensionContent')]),
    ]),
    el('cbc:UBLVersionID', 'UBL 2.1'),
    el('cbc:CustomizationID', EVENT_CUSTOMIZATION_ID),
    el('cbc:ProfileID', EVENT_PROFILE_ID),
    el('cbc:ProfileExecutionID', ctx.environment),
    el('cbc:ID', id),
    el('cbc:UUID', code.hash, [
      ['schemeID', ctx.environment],
      ['schemeName', 'CUDE-SHA384'],
    ]),
    el('cbc:IssueDate', issueDate),
    el('cbc:IssueTime', issueTime),
    ...(req.notes ?? []).map((n) => el('cbc:Note', n.text)),
    partyNode('cac:SenderParty', sender),
    partyNode('cac:ReceiverParty', receiver),
    node('cac:DocumentResponse', documentResponse),
  ];
  const tree: UblNode = { name: 'ApplicationResponse', attrs: [], children };
  // Built in the XSD order of ApplicationResponse (§1.2; test/dian/events checks every element against the
  // schema), which the generated order table does not cover.
  const xml = writeUbl(tree, { keepOrder: true });
  return { ok: true, xml, cude: code.hash, cudePreimage: code.preimage, id, tree, request: req };
}

/** `cac:Person`: identification (DV when a NIT), names, job title, department, in XSD order. */
function personNode(p: DianEventPerson): UblNode {
  const idAttrs: [string, string][] = [];
  if (p.identification_type_code === NIT_TYPE) idAttrs.push(['schemeID', nitCheckDigit(p.identification_number)!]);
  idAttrs.push(['schemeName', String(p.identification_type_code)]);
  const kids = [el('cbc:ID', p.identification_number, idAttrs), el('cbc:FirstName', p.first_name), el('cbc:FamilyName', p.family_name)];
  if (p.job_title) kids.push(el('cbc:JobTitle', p.job_title));
  if (p.organization_department) kids.push(el('cbc:OrganizationDepartment', p.organization_department));
  return node('cac:Person', kids);
}

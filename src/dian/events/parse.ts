/**
 * An event's `ApplicationResponse` (030–034) read back into the request that builds it, with its code, CUDE,
 * date and time: `parseDianEvent(buildDianEvent(x).xml)` gives back `x` (the `send` flag aside, which is not
 * written). DIAN's toolbox samples read the same way.
 *
 * Normalizations: `sender_party` always comes back (the builder writes the context's company when the request
 * has none); identification numbers come back as text; a receiver that is DIAN on an event whose row says so is
 * not returned (the builder writes it); text is trimmed.
 *
 * Pure: no I/O. Never throws for bad input: the outcome is a value with a Spanish message.
 */
import { readUbl } from '../ubl/read.js';
import { all, at, attr, child, textAt, type UblNode } from '../ubl/tree.js';
import type { DianEventParty, DianEventPerson, DianEventRequest } from './build.js';
import { DIAN_EVENTS, DIAN_PARTY, type DianEventCode } from './table.js';

/** A parsed event: the request, the code and what the XML adds (id, prefix, CUDE, date, time, environment, software). */
export type DianEventParseResult =
  | {
      ok: true;
      code: DianEventCode;
      request: DianEventRequest;
      /** `cbc:ID` as written, and the prefix before the consecutive. */
      id: string;
      prefix: string;
      /** `cbc:UUID`: the event's CUDE. */
      cude: string;
      issueDate: string;
      issueTime: string;
      /** `cbc:ProfileExecutionID`. */
      environment: string;
      /** `sts:SoftwareID` and `sts:ProviderID` with its check digit (schemeID). */
      software: { id?: string; provider_nit?: string; provider_dv?: string };
    }
  | { ok: false; message: string };

const fail = (message: string) => ({ ok: false as const, message });

function partyOf(node: UblNode | undefined): DianEventParty | null {
  const pts = child(node, 'cac:PartyTaxScheme');
  const id = textAt(pts, 'cbc:CompanyID');
  const type = attr(child(pts, 'cbc:CompanyID'), 'schemeName')?.trim();
  const name = textAt(pts, 'cbc:RegistrationName');
  if (!id || !type || !/^\d{1,2}$/.test(type) || name === undefined) return null;
  return { identification_type_code: Number(type), identification_number: id, name };
}

function personOf(node: UblNode | undefined): DianEventPerson | null | undefined {
  if (!node) return undefined;
  const id = textAt(node, 'cbc:ID');
  const type = attr(child(node, 'cbc:ID'), 'schemeName')?.trim();
  if (!id || !type || !/^\d{1,2}$/.test(type)) return null;
  const p: DianEventPerson = {
    identification_type_code: Number(type),
    identification_number: id,
    first_name: textAt(node, 'cbc:FirstName') ?? '',
    family_name: textAt(node, 'cbc:FamilyName') ?? '',
  };
  const job = textAt(node, 'cbc:JobTitle');
  const dept = textAt(node, 'cbc:OrganizationDepartment');
  if (job) p.job_title = job;
  if (dept) p.organization_department = dept;
  return p;
}

/** Reads an event `ApplicationResponse` (030–034) into its request, code and CUDE. */
export function parseDianEvent(xml: string): DianEventParseResult {
  const read = readUbl(xml);
  if (!read.ok) return fail(read.message);
  return parseDianEventTree(read.root);
}

/** {@link parseDianEvent} on a tree already read (`readUbl`) or built. */
export function parseDianEventTree(root: UblNode): DianEventParseResult {
  if (root.name !== 'ApplicationResponse') return fail(`Se esperaba un ApplicationResponse, no ${root.name}.`);
  const response = at(root, 'cac:DocumentResponse/cac:Response/cbc:ResponseCode');
  const code = response?.text?.trim();
  if (!code || !Object.hasOwn(DIAN_EVENTS, code))
    return fail(
      `cac:DocumentResponse/cac:Response/cbc:ResponseCode (${code ?? 'ausente'}) no es un evento 030–034; una respuesta de la DIAN se lee con parseDianApplicationResponse.`,
    );
  const row = DIAN_EVENTS[code as DianEventCode];

  const id = textAt(root, 'cbc:ID');
  const m = id ? /^(.*?)(\d+)$/.exec(id) : null;
  if (!id || !m) return fail(`cbc:ID (${id ?? 'ausente'}) no termina en el consecutivo del evento.`);
  const number = Number(m[2]);

  const sender = partyOf(child(root, 'cac:SenderParty'));
  if (!sender) return fail('cac:SenderParty/cac:PartyTaxScheme no tiene RegistrationName, CompanyID o su schemeName.');
  if (!/^\d{1,15}$/.test(sender.identification_number)) return fail(`El CompanyID del emisor (${sender.identification_number}) no es un NIT numérico.`);
  const receiver = partyOf(child(root, 'cac:ReceiverParty'));
  if (!receiver) return fail('cac:ReceiverParty/cac:PartyTaxScheme no tiene RegistrationName, CompanyID o su schemeName.');

  const ref = at(root, 'cac:DocumentResponse/cac:DocumentReference');
  const refNumber = textAt(ref, 'cbc:ID');
  const refUuid = textAt(ref, 'cbc:UUID');
  if (!refNumber || !refUuid) return fail('cac:DocumentResponse/cac:DocumentReference no tiene cbc:ID o cbc:UUID.');

  const request: DianEventRequest = {
    event_code: row.code,
    number,
    identification_number: Number(sender.identification_number),
    sender_party: sender,
    document_reference: { number: refNumber, uuid: refUuid },
  };
  if (!(row.receiver === 'dian' && receiver.identification_number === DIAN_PARTY.nit)) request.receiver_party = receiver;
  const person = personOf(at(root, 'cac:DocumentResponse/cac:IssuerParty/cac:Person'));
  if (person === null) return fail('cac:IssuerParty/cac:Person no tiene cbc:ID con su schemeName.');
  if (person) request.person = person;
  const concept = attr(response, 'listID')?.trim();
  if (concept) request.rejection_concept_code = concept;
  const notes = all(root, 'cbc:Note')
    .map((n) => n.text?.trim() ?? '')
    .filter((t) => t !== '');
  if (notes.length > 0) request.notes = notes.map((t) => ({ text: t }));

  const dian = at(root, 'ext:UBLExtensions');
  const ext = dian ? findDianExtensions(dian) : undefined;
  const provider = at(ext, 'sts:SoftwareProvider/sts:ProviderID');
  const software: { id?: string; provider_nit?: string; provider_dv?: string } = {};
  const softwareId = textAt(ext, 'sts:SoftwareProvider/sts:SoftwareID');
  if (softwareId) software.id = softwareId;
  if (provider?.text) software.provider_nit = provider.text.trim();
  const dv = attr(provider, 'schemeID');
  if (dv) software.provider_dv = dv;

  return {
    ok: true,
    code: row.code,
    request,
    id,
    prefix: m[1]!,
    cude: textAt(root, 'cbc:UUID') ?? '',
    issueDate: textAt(root, 'cbc:IssueDate') ?? '',
    issueTime: textAt(root, 'cbc:IssueTime') ?? '',
    environment: textAt(root, 'cbc:ProfileExecutionID') ?? '',
    software,
  };
}

function findDianExtensions(extensions: UblNode): UblNode | undefined {
  for (const e of all(extensions, 'ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions')) return e;
  return undefined;
}

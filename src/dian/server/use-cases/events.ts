/**
 * `sendEvent(company, code, request)`: the service's event endpoints (`/v1/030` … `/v1/034`; the spec shows 031
 * and 034, the others are the same rows of DIAN_EVENTS). Steps, in order:
 *
 * 1. build (buildDianEvent with the company's context: every own validation, the sender is the token's company):
 *    422 `statusCode` 13 with `errors` and `detailedErrors` under `event`;
 * 2. idempotency: the event number is unique per company; the same body again returns the stored answer, another
 *    body is a 422 at `number`; a number DIAN refused is free again;
 * 3. the number reserved (`building`), signed with the company's identity, zipped (`ar…` names), `sending`;
 * 4. SendEventUpdateStatus. A lost answer is asked with GetStatus by the event's CUDE before anything else;
 *    DIAN unreachable (nothing sent) releases the number and answers 503;
 * 5. accepted: 200 `statusCode` 5 with the CUDE and the files, among them the event's AttachedDocument (the signed
 *    event and DIAN's answer, signed by the company; stored with the event); refused (e.g. `LGC01`, a repeated
 *    event): 422 `statusCode` 11 with DIAN's `errors`.
 */
import { deflateRawSync } from 'node:zlib';
import {
  buildAttachedDocument,
  buildDianEvent,
  type DianContext,
  DIAN_EVENTS,
  type DianEventCode,
  dianDocumentZip,
  EcfError,
  formatDianRuleMessage,
  sha384Hex,
  toDianEventValidationBody,
} from '../../index.js';
import { bogotaTime, signDianXml } from '../../sign/index.js';
import { type DianResponse, isAuthorityError, isTransportError } from '../../transport/index.js';
import type { EventRecord, EventStore } from '../storage/events.js';
import type { CompanyRecord } from '../storage/types.js';
import { canonicalJson, type StatusOutcome, statusByKey } from './issue.js';
import type { DianUseCaseDeps, UseCaseAnswer } from './ports.js';

/** The zips' deflater: node:zlib (about 3× fflate's pure-JS default on a signed invoice). */
const deflateRaw = (data: Uint8Array): Uint8Array => deflateRawSync(data);

/** What `send: true` on an accepted event hands over: the parties to e-mail are found from it. */
export interface EventNotice {
  company: CompanyRecord;
  event: EventRecord;
  /** The NIT of the event's receiver (`receiver_party`), or null when DIAN receives it (034). */
  receiverNit: string | null;
  /** The event's zip (signed ApplicationResponse) as sent. */
  zip: Uint8Array;
  zipName: string;
  /** DIAN's ApplicationResponse on the event. */
  applicationResponse: string | null;
  /** The event's signed AttachedDocument (the event and DIAN's answer). */
  attachedDocument: string;
}

export interface EventUseCaseDeps extends DianUseCaseDeps {
  storage: DianUseCaseDeps['storage'] & EventStore;
  /** `send: true` on an accepted event: e-mail its issuer and receiver. Called after the event is stored as accepted. */
  notifyEventParties?(input: EventNotice): Promise<void>;
}

type Obj = Record<string, unknown>;

function ownIssue(label: string, path: string, message: string): UseCaseAnswer {
  return { status: 422, body: toDianEventValidationBody(label, [{ code: 'rule', path, message, severity: 'error' }]) };
}

function unavailable(message: string): UseCaseAnswer {
  return { status: 503, body: { status: 'error', message, event: null }, headers: { 'Retry-After': '30' } };
}

function eventContext(company: CompanyRecord, now: Date): DianContext {
  return {
    company: { ...company.profile, nit: company.nit },
    software: { id: company.softwareId, pin: company.softwarePin, provider_nit: company.providerNit, provider_dv: company.providerDv },
    environment: company.environment,
    now: () => now,
  };
}

/** Sends one event of `code` for `company`; the answer is the HTTP status and body of the spec. */
export async function sendEvent(deps: EventUseCaseDeps, company: CompanyRecord, code: DianEventCode, request: unknown): Promise<UseCaseAnswer> {
  const { storage } = deps;
  const now = deps.clock();
  const body: Obj = request && typeof request === 'object' && !Array.isArray(request) ? (request as Obj) : {};
  const label = typeof body.number === 'number' || typeof body.number === 'string' ? String(body.number) : '';
  if (body.event_code !== undefined && body.event_code !== code) {
    return ownIssue(label, 'event_code', `el código de evento debe ser ${code}, el de la ruta /v1/${code}, o no enviarse`);
  }
  const full = { ...body, event_code: code };

  // 1. Own validations and the unsigned event (nothing reserved yet).
  const built = buildDianEvent(full, eventContext(company, now));
  if (!built.ok) return { status: 422, body: built.body };

  // The referenced document, when this company issued it through the service: the row's sender must be the issuer
  // (034), and its number must be the stored one. A CUFE the service does not hold is taken as given (an invoice
  // received from elsewhere); DIAN checks the roles then.
  const own = await storage.getDocumentByKey(company.id, built.request.document_reference.uuid);
  if (own) {
    const row = DIAN_EVENTS[code];
    if (row.sender !== 'issuer') {
      return ownIssue(
        label,
        'document_reference.uuid',
        `la empresa emitió este documento (${own.prefix}${own.number}); el evento ${code} (${row.name}) lo registra el adquirente`,
      );
    }
    if (built.request.document_reference.number !== `${own.prefix}${own.number}`) {
      return ownIssue(label, 'document_reference.number', `el documento con ese CUFE es el ${own.prefix}${own.number} de la empresa`);
    }
  }

  // 2. Idempotency and reservation.
  const reservation = await storage.reserveEvent({
    companyId: company.id,
    code,
    number: built.request.number,
    requestHash: sha384Hex(canonicalJson(full)),
    documentKey: built.request.document_reference.uuid,
  });
  let ev = reservation.event;
  if (reservation.outcome === 'different') {
    return ownIssue(label, 'number', `el número de evento ${label} ya fue usado por otro evento de la empresa con un contenido distinto; use un número nuevo`);
  }
  if (reservation.outcome === 'same') {
    if (ev.response && ev.state === 'accepted') return ev.response as UseCaseAnswer;
    const inFlight = ev.state === 'building' || (ev.state === 'sending' && ev.response === null);
    if (inFlight && now.getTime() - ev.updatedAt < (deps.buildLeaseMs ?? 120_000)) return inProgress(label);
    if (ev.state === 'building' || ev.state === 'sending') {
      // Taking over a stale reservation or an unconfirmed send: a compare-and-set, so only one request goes on.
      const claimed = await storage.claimEvent(ev.id, { state: ev.state, updatedAt: ev.updatedAt }, { response: null });
      if (!claimed) {
        const current = await storage.getEventByNumber(company.id, ev.number);
        return current?.state === 'accepted' && current.response ? (current.response as UseCaseAnswer) : inProgress(label);
      }
      ev = claimed;
    }
    if (ev.state === 'sending' && ev.cude && ev.zip) {
      const known = await askStatus(deps, company, ev);
      if (known.kind === 'answer') return finish(deps, company, ev, label, body, known.answer);
      if (known.kind === 'unknown') {
        await storage.updateEvent(ev.id, { response: known.reply });
        return known.reply;
      }
    }
  }

  const dian = deps.dianFor(company);
  if (!dian.sendEventUpdateStatus) throw new EcfError('The DIAN gateway cannot send events.', { code: 'not_supported' });
  await dian.prepare?.(company, await storage.listResolutions(company.id));

  // 3. Sign and zip.
  const signer = await deps.signerFor(company);
  const signed = await signDianXml(built.xml, signer, { clock: () => now });
  if (!signed.ok) {
    await storage.releaseEvent(ev.id);
    throw new EcfError(`Signing the event failed: ${signed.message}`, { code: 'signing_failed' });
  }
  const date = /<cbc:IssueDate>(\d{4}-\d{2}-\d{2})</.exec(signed.xml)?.[1] ?? now.toISOString().slice(0, 10);
  const zipped = dianDocumentZip({
    kind: 'application-response',
    nit: company.nit,
    provider: '000',
    year: Number(date.slice(0, 4)),
    counter: ev.id,
    xml: signed.xml,
    date,
    deflate: deflateRaw,
  });
  if (!zipped.ok) {
    await storage.releaseEvent(ev.id);
    throw new EcfError(`Zipping the event failed: ${zipped.message}`, { code: 'zip_failed' });
  }
  ev = await storage.updateEvent(ev.id, { state: 'sending', response: null, cude: built.cude, signedXml: signed.xml, zip: zipped.value.zip });

  // 4. Send.
  let answer: DianResponse;
  try {
    answer = await dian.sendEventUpdateStatus(zipped.value.zip);
  } catch (e) {
    if (isTransportError(e) && e.outcomeUnknown) {
      const known = await askStatus(deps, company, ev);
      if (known.kind === 'answer') return finish(deps, company, ev, label, body, known.answer);
      if (known.kind === 'unknown') {
        await storage.updateEvent(ev.id, { response: known.reply });
        return known.reply;
      }
      await storage.releaseEvent(ev.id);
      return unreachable();
    }
    if (isTransportError(e)) {
      await storage.releaseEvent(ev.id);
      return unreachable();
    }
    if (isAuthorityError(e)) {
      await storage.releaseEvent(ev.id);
      return { status: 502, body: { status: 'error', message: `La DIAN rechazó la solicitud: ${e.message}`, event: null } };
    }
    throw e;
  }
  return finish(deps, company, ev, label, body, answer, zipped.value.names.zip);
}

/** The 409 of an event another request is building or sending right now. */
function inProgress(label: string): UseCaseAnswer {
  return {
    status: 409,
    body: { status: 'error', message: `El evento ${label} se está procesando en otra solicitud; reintente en unos segundos.`, event: null },
    headers: { 'Retry-After': '5' },
  };
}

function unreachable(): UseCaseAnswer {
  return unavailable('No fue posible comunicarse con la DIAN; el evento no fue enviado y su número sigue disponible. Reintente más tarde.');
}

/** GetStatus by the event's CUDE (see {@link statusByKey}). */
function askStatus(deps: EventUseCaseDeps, company: CompanyRecord, ev: EventRecord): Promise<StatusOutcome> {
  const pending = unavailable(
    `No se pudo confirmar con la DIAN el resultado del evento ${ev.number}; reintente la misma solicitud más tarde (no se enviará de nuevo sin consultar su estado).`,
  );
  return statusByKey(deps.dianFor(company), ev.cude!, pending);
}

/** DIAN's verdict → the stored and returned answer (200 `statusCode` 5, or 422 `statusCode` 11). */
async function finish(
  deps: EventUseCaseDeps,
  company: CompanyRecord,
  ev: EventRecord,
  label: string,
  body: Obj,
  answer: DianResponse,
  zipName = `ar-${ev.id}.zip`,
): Promise<UseCaseAnswer> {
  const strings = answer.messages.map(formatDianRuleMessage);
  const row = DIAN_EVENTS[ev.code as DianEventCode];
  if (!answer.isValid) {
    const reply: UseCaseAnswer = {
      status: 422,
      body: {
        status: 'error',
        message: `El evento ${row.code} (${row.name}) fue rechazado por la DIAN`,
        event: {
          number: label,
          uuid: ev.cude,
          statusCode: 11,
          statusDescription: answer.statusDescription ?? 'Evento con errores',
          errors: strings,
        },
      },
    };
    await deps.storage.updateEvent(ev.id, { state: 'rejected', dianAnswer: answer, response: reply });
    return reply;
  }
  const appResponse = answer.xmlBase64Bytes ? Buffer.from(answer.xmlBase64Bytes, 'base64').toString('utf8') : null;
  // The container of the event, as for a document (issue.ts): the signed event and DIAN's answer, signed by the company.
  const at = deps.clock();
  const stamp = bogotaTime(at);
  const attached = buildAttachedDocument({
    signedXml: ev.signedXml!,
    applicationResponseXml: appResponse ?? undefined,
    environment: company.environment,
    id: label,
    issueDate: stamp.slice(0, 10),
    issueTime: stamp.slice(11),
  });
  if (!attached.ok) throw new EcfError(`AttachedDocument of the event failed: ${attached.message}`, { code: 'attached_document_failed' });
  const attachedSigned = await signDianXml(attached.xml, await deps.signerFor(company), { clock: () => at });
  if (!attachedSigned.ok) throw new EcfError(`Signing the event's AttachedDocument failed: ${attachedSigned.message}`, { code: 'signing_failed' });
  const reply: UseCaseAnswer = {
    status: 200,
    body: {
      status: 'success',
      message: `Evento ${row.code} (${row.name}) ${label} validado y enviado a la DIAN`,
      event: {
        number: label,
        statusCode: 5,
        statusDescription: answer.statusDescription ?? 'Procesado Correctamente.',
        uuid: ev.cude,
        Base64Bytes: Buffer.from(ev.zip!).toString('base64'),
        appResponseBase64Bytes: answer.xmlBase64Bytes,
        attachedDocumentBase64Bytes: Buffer.from(attachedSigned.xml, 'utf8').toString('base64'),
        notifications: strings,
      },
    },
  };
  const stored = await deps.storage.updateEvent(ev.id, { state: 'accepted', dianAnswer: answer, attachedDocument: attachedSigned.xml, response: reply });
  if (body.send === true && deps.notifyEventParties) {
    const receiver = body.receiver_party as { identification_number?: unknown } | undefined;
    await deps.notifyEventParties({
      company,
      event: stored,
      receiverNit: row.receiver === 'dian' || receiver?.identification_number == null ? null : String(receiver.identification_number),
      zip: stored.zip!,
      zipName,
      applicationResponse: appResponse,
      attachedDocument: attachedSigned.xml,
    });
  }
  return reply;
}

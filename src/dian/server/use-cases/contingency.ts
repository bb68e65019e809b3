/**
 * `/service/contingency-invoice` (dian-service.md) and the deadlines of documents issued in contingency.
 *
 * - `send_dian: false`: DIAN is in contingency. The document (type 04, or 03 for a paper transcription, as the
 *   request's `document_type_code` says) is built, signed, zipped and stored in state `contingency_pending`;
 *   the answer carries the AttachedDocument without ApplicationResponse, the PDF and the zip. Nothing is sent.
 * - `send_dian: true`: the contingency is over. The stored document (same number, same signed XML and
 *   SigningTime) is sent with SendBillSync and the answer is the full set; a number never stored is built and
 *   sent at once. Idempotent: the idempotency hash leaves `send_dian` out, so both calls name one document.
 * - Both ways, the request's `date` and `time` (Bogotá) must fall inside a contingency window the operator
 *   declared for the company (`ecf dian admin contingency add`); else 422 `statusCode` 13 at `date`.
 *
 * Deadline: a pending document must be transmitted within {@link CONTINGENCY_DEADLINE_HOURS} hours after the
 * end of its window (dian-protocol.md §10, [S]: 48 hours after the failure is over, Res. 42/2020 arts. 31–32
 * as practitioners cite it).
 */
import { buildAttachedDocument, type DianKindId, EcfError, sha384Hex, toDianValidationBody, validateDianRequest } from '../../index.js';
import { dianPdf } from '../../pdf/index.js';
import { bogotaTime, signDianXml } from '../../sign/index.js';
import { type DianResponse, isAuthorityError, isTransportError } from '../../transport/index.js';
import type { ContingencyPendingRecord, ContingencyStore } from '../storage/types.js';
import type { CompanyRecord, DocumentRecord } from '../storage/types.js';
import {
  afterLostClaim,
  askStatus,
  bogotaDate,
  buildSignZip,
  canonicalJson,
  checkNumbering,
  contextOf,
  finish,
  inProgress,
  ownValidation,
  pdfDeflate,
  unavailable,
  unreachable,
} from './issue.js';
import type { DianUseCaseDeps, UseCaseAnswer } from './ports.js';

/** Hours after the end of the contingency window within which a pending document must reach DIAN ([S]). */
export const CONTINGENCY_DEADLINE_HOURS = 48;
/** Pending documents whose deadline is this close (or past) are warned about in the log. */
export const CONTINGENCY_WARNING_HOURS = 24;

const HOUR = 3_600_000;
/** Marks a contingency document whose SendBillSync answer could not be confirmed (stored in `dianAnswer`). */
const UNCONFIRMED = { unconfirmed: true };

export type ContingencyDeps = DianUseCaseDeps & { storage: DianUseCaseDeps['storage'] & ContingencyStore };

/** The request's issue instant: `date` and `time` in Bogotá (UTC−5, no daylight saving); defaults from `now`. */
function issueInstant(body: Record<string, unknown>, now: Date): { at: number; text: string } | null {
  const stamp = bogotaTime(now);
  const date = typeof body.date === 'string' ? body.date : stamp.slice(0, 10);
  const time = typeof body.time === 'string' ? body.time.slice(0, 8) : stamp.slice(11, 19);
  const at = Date.parse(`${date}T${time}-05:00`);
  return Number.isNaN(at) ? null : { at, text: `${date} ${time}` };
}

/** Issues (`send_dian: false`) or transmits (`send_dian: true`) a contingency document for `company`. */
export async function issueContingency(deps: ContingencyDeps, company: CompanyRecord, kind: DianKindId, request: unknown): Promise<UseCaseAnswer> {
  const { storage } = deps;
  const now = deps.clock();
  const today = bogotaDate(now);
  const body = (request && typeof request === 'object' && !Array.isArray(request) ? request : {}) as Record<string, unknown>;
  const prefix = typeof body.prefix === 'string' ? body.prefix : '';
  const label = `${prefix}${typeof body.number === 'number' || typeof body.number === 'string' ? String(body.number) : ''}`;
  const transmit = body.send_dian === true;

  // 1. Own validations.
  const validation = validateDianRequest(kind, request, { today });
  if (validation.issues.some((i) => i.severity === 'error')) return { status: 422, body: toDianValidationBody(label, validation.issues) };

  // 2. The issue instant inside a declared contingency window.
  const instant = issueInstant(body, now);
  if (!instant) return ownValidation(label, [{ path: 'time', message: 'La fecha y hora del documento no son válidas.' }]);
  const windows = await storage.contingencyWindowsAt(company.id, instant.at);
  if (windows.length === 0) {
    return ownValidation(label, [
      {
        path: 'date',
        message: `La fecha y hora ${instant.text} (hora de Bogotá) no están dentro de ninguna ventana de contingencia declarada para la empresa; un documento en contingencia debe emitirse durante una contingencia declarada.`,
      },
    ]);
  }
  const window = windows.reduce((a, b) => (b.to > a.to ? b : a));

  // 3. Numbering.
  const resolutions = await storage.listResolutions(company.id, kind);
  const numbering = checkNumbering(kind, body, resolutions, today);
  if (numbering.problems.length) return ownValidation(label, numbering.problems);

  // 4. Idempotency (send_dian left out: issuing and transmitting name one document) and reservation.
  const requestHash = sha384Hex(canonicalJson({ ...body, send_dian: undefined }));
  const reservation = await storage.reserveDocument({ companyId: company.id, kind, prefix, number: Number(body.number), requestHash });
  let doc = reservation.document;
  if (reservation.outcome === 'different') {
    return ownValidation(label, [
      { path: 'number', message: `El número ${label} ya fue usado por otro documento de la empresa con un contenido distinto; use un número nuevo.` },
    ]);
  }
  if (reservation.outcome === 'same') {
    if (doc.state === 'accepted' && doc.response) return doc.response as UseCaseAnswer;
    if (doc.state === 'contingency_pending') {
      if (!transmit) return doc.response as UseCaseAnswer;
      return send(deps, company, doc, label, body, false);
    }
    const unconfirmed = doc.state === 'sending' && (doc.dianAnswer as { unconfirmed?: boolean } | null)?.unconfirmed === true;
    if (!unconfirmed && now.getTime() - doc.updatedAt < (deps.buildLeaseMs ?? 120_000)) return inProgress(label);
    if (doc.state === 'building' || doc.state === 'sending') {
      // Taking over a stale reservation or an unconfirmed send: a compare-and-set (the unconfirmed mark cleared,
      // so the row is in flight again); a request that loses it answers as a concurrent one.
      const claimed = await storage.claimDocument(doc.id, { state: doc.state, updatedAt: doc.updatedAt }, { dianAnswer: null });
      if (!claimed) return afterLostClaim(deps, doc, label, settledFor(transmit));
      doc = claimed;
    }
    if (doc.state === 'sending' && doc.documentKey && doc.zip && doc.zipName) {
      const known = await askStatus(deps, company, doc);
      if (known.kind === 'answer') return finish(deps, company, doc, label, body, known.answer);
      if (known.kind === 'unknown') {
        await storage.updateDocument(doc.id, { dianAnswer: UNCONFIRMED });
        return known.reply;
      }
      // DIAN never received it.
      if (doc.attachedDocument) {
        doc = await storage.updateDocument(doc.id, { state: 'contingency_pending', dianAnswer: null });
        return transmit ? send(deps, company, doc, label, body, false) : (doc.response as UseCaseAnswer);
      }
    }
  }

  await deps.dianFor(company).prepare?.(company, resolutions);

  // 5. Build, sign, zip (the signing time is now: the document's SigningTime travels unchanged when it is sent later).
  const context = contextOf(company, numbering.resolution, () => now);
  const made = await buildSignZip(deps, company, doc, kind, request, context, today, now);
  if (!made.ok) return made.answer;
  const { files, signer } = made;
  if (transmit) {
    doc = await storage.updateDocument(doc.id, { state: 'sending', response: null, ...files });
    return send(deps, company, doc, label, body, true);
  }

  // 6. Not transmitted: the AttachedDocument without ApplicationResponse, the PDF, stored as pending.
  const stamp = bogotaTime(now);
  const attached = buildAttachedDocument({
    signedXml: files.signedXml,
    environment: company.environment,
    id: label,
    issueDate: stamp.slice(0, 10),
    issueTime: stamp.slice(11),
  });
  if (!attached.ok) throw new EcfError(`AttachedDocument failed: ${attached.message}`, { code: 'attached_document_failed' });
  const attachedSigned = await signDianXml(attached.xml, signer, { clock: () => now });
  if (!attachedSigned.ok) throw new EcfError(`Signing the AttachedDocument failed: ${attachedSigned.message}`, { code: 'signing_failed' });
  const pdf = await dianPdf(files.signedXml, { format: body.pos_pdf === true ? 'receipt80' : 'a4', deflate: pdfDeflate });
  const deadlineAt = window.to + CONTINGENCY_DEADLINE_HOURS * HOUR;
  const reply: UseCaseAnswer = {
    status: 200,
    body: {
      status: 'success',
      message: `Documento ${label} generado en contingencia; no fue transmitido a la DIAN. Transmítalo con send_dian: true antes de ${new Date(deadlineAt).toISOString()}.`,
      document: {
        number: label,
        statusCode: null,
        statusDescription: 'Pendiente de transmisión a la DIAN (contingencia).',
        uuid: files.documentKey,
        zipBase64Bytes: Buffer.from(files.zip).toString('base64'),
        pdfBase64Bytes: pdf.ok ? Buffer.from(pdf.pdf).toString('base64') : null,
        appResponseBase64Bytes: null,
        attachedDocumentBase64Bytes: Buffer.from(attachedSigned.xml, 'utf8').toString('base64'),
        notifications: [],
      },
    },
  };
  doc = await storage.updateDocument(doc.id, { state: 'contingency_pending', ...files, attachedDocument: attachedSigned.xml, response: reply });
  await storage.setContingencyDeadline({ documentId: doc.id, companyId: company.id, windowId: window.id, issuedAt: instant.at, deadlineAt });
  return reply;
}

/** The states whose stored answer a request that lost a compare-and-set returns (else the 409). */
function settledFor(transmit: boolean): DocumentRecord['state'][] {
  return transmit ? ['accepted'] : ['accepted', 'contingency_pending'];
}

/**
 * SendBillSync of a signed contingency document. `fresh`: built by this request (nothing to keep when DIAN
 * cannot be reached: the number is released); else a stored pending document, which stays pending.
 */
async function send(
  deps: ContingencyDeps,
  company: CompanyRecord,
  pending: DocumentRecord,
  label: string,
  body: Record<string, unknown>,
  fresh: boolean,
): Promise<UseCaseAnswer> {
  const { storage } = deps;
  // A stored pending document is sent by one request only: the compare-and-set `contingency_pending` → `sending`.
  const doc = fresh ? pending : await storage.claimDocument(pending.id, { state: 'contingency_pending' }, { state: 'sending', dianAnswer: null });
  if (!doc) return afterLostClaim(deps, pending, label, settledFor(true));
  const notSent = async (reply: UseCaseAnswer): Promise<UseCaseAnswer> => {
    if (fresh) await storage.releaseDocument(doc.id);
    else await storage.updateDocument(doc.id, { state: 'contingency_pending' });
    return reply;
  };
  const stillPending = () =>
    unavailable(
      `No fue posible comunicarse con la DIAN; el documento ${label} sigue pendiente de transmisión (contingencia). Reintente con send_dian: true más tarde.`,
    );
  let answer: DianResponse;
  try {
    answer = await deps.dianFor(company).sendBillSync(doc.zipName!, doc.zip!);
  } catch (e) {
    if (isTransportError(e) && e.outcomeUnknown) {
      const known = await askStatus(deps, company, doc);
      if (known.kind === 'answer') return finish(deps, company, doc, label, body, known.answer);
      if (known.kind === 'unknown') {
        await storage.updateDocument(doc.id, { dianAnswer: UNCONFIRMED });
        return known.reply;
      }
      return notSent(fresh ? unreachable() : stillPending());
    }
    if (isTransportError(e)) return notSent(fresh ? unreachable() : stillPending());
    if (isAuthorityError(e)) return notSent({ status: 502, body: { status: 'error', message: `La DIAN rechazó la solicitud: ${e.message}`, document: null } });
    throw e;
  }
  return finish(deps, company, doc, label, body, answer);
}

/** A pending document as the API shows it, with the hours left before its deadline (negative: overdue). */
export function pendingView(p: ContingencyPendingRecord, now: Date) {
  return {
    number: `${p.prefix}${p.number}`,
    kind: p.kind,
    uuid: p.documentKey,
    issuedAt: new Date(p.issuedAt).toISOString(),
    deadline: new Date(p.deadlineAt).toISOString(),
    hoursLeft: Math.floor((p.deadlineAt - now.getTime()) / (HOUR / 10)) / 10,
  };
}

/** The company's documents issued in contingency and not transmitted yet, earliest deadline first. */
export async function listPendingContingency(deps: ContingencyDeps, company: CompanyRecord): Promise<UseCaseAnswer> {
  const now = deps.clock();
  const pending = await deps.storage.listContingencyPending(company.id);
  return { status: 200, body: { status: 'success', deadlineHours: CONTINGENCY_DEADLINE_HOURS, documents: pending.map((p) => pendingView(p, now)) } };
}

/** Pending documents (every company) within {@link CONTINGENCY_WARNING_HOURS} of their deadline or past it. */
export async function contingencyNearDeadline(storage: ContingencyStore, now: Date): Promise<ContingencyPendingRecord[]> {
  const all = await storage.listContingencyPending();
  return all.filter((p) => p.deadlineAt - now.getTime() <= CONTINGENCY_WARNING_HOURS * HOUR);
}

/**
 * `issueDocument(company, kind, request)`: the service's document endpoints (dian-service.md). Steps, in order:
 *
 * 1. own validations (validateDianRequest): 422 `statusCode` 13 with `errors` and `detailedErrors` at request paths;
 * 2. the number against the company's resolutions for the kind (prefix, range, validity dates): 422 `statusCode` 13;
 * 3. idempotency: `prefix`+`number` already accepted (or in flight) with the same body → the stored answer
 *    (nothing sent again); with another body → 422; a number DIAN rejected is sent again (same or new body);
 * 4. the number reserved (a row in state `building`, one transaction) before anything is sent;
 * 5. build (buildDianXml with the company's context), sign (the company's signer), zip, state `sending`;
 * 6. SendBillSync. A lost answer (`outcomeUnknown`) is resolved with GetStatus by the document's key before
 *    anything else; DIAN unreachable (nothing sent) releases the number and answers 503 naming
 *    `/service/contingency-invoice`;
 * 7. accepted: AttachedDocument (signed) and PDF, 200 `statusCode` 6; rejected: 422 `statusCode` 11 with `Errors`.
 *
 * A company in habilitación's test set (`testSetId`) sends with SendTestSetAsync instead (./test-set.ts): the
 * ZipKey is stored, GetStatusZip polled a few times; a verdict is step 7, none yet is a 202 (`test_set_pending`)
 * and the same request again polls again; a lost upload answer is asked with GetStatus by the CUFE, never resent.
 *
 * The answer given is stored with the document and returned as is to a retry with the same body.
 */
import { deflateRawSync, deflateSync } from 'node:zlib';
import {
  buildAttachedDocument,
  buildDianXml,
  DIAN_KINDS,
  type DianContext,
  type DianKindId,
  dianDocumentZip,
  EcfError,
  formatDianRuleMessage,
  sha384Hex,
  toDianValidationBody,
  validateDianRequest,
} from '../../index.js';
import { dianPdf } from '../../pdf/index.js';
import { bogotaTime, type Signer, signDianXml } from '../../sign/index.js';
import { type DianResponse, isAuthorityError, isTransportError } from '../../transport/index.js';
import type { CompanyRecord, DocumentRecord, ResolutionRecord } from '../storage/types.js';
import type { DianGateway, DianUseCaseDeps, UseCaseAnswer } from './ports.js';
import { pollStatusZip, testSetPendingReply, testSetUnconfirmedReply, testSetUploadRefused } from './test-set.js';

/** The zips' deflater: node:zlib (about 3× fflate's pure-JS default on a signed invoice). */
const deflateRaw = (data: Uint8Array): Uint8Array => deflateRawSync(data);
/** The PDF's content streams through node:zlib (about 3× faster than pdf-lib's pure-JS pako). */
export const pdfDeflate = (data: Uint8Array): Uint8Array => deflateSync(data);

/** The endpoint a client uses while DIAN cannot be reached. */
export const CONTINGENCY_PATH = DIAN_KINDS['contingency-invoice'].path;

/** Canonical JSON (keys sorted at every level): equal bodies hash equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The service's 422 `statusCode` 13 body with errors at `path`. */
export function ownValidation(number: string, problems: { path: string; message: string }[]): UseCaseAnswer {
  return {
    status: 422,
    body: toDianValidationBody(
      number,
      problems.map((p) => ({ code: 'rule' as const, path: p.path, message: p.message, severity: 'error' as const })),
    ),
  };
}

export function unavailable(message: string, retryAfter = '30'): UseCaseAnswer {
  return { status: 503, body: { status: 'error', message, document: null }, headers: { 'Retry-After': retryAfter } };
}

/** Bogotá `yyyy-MM-dd` of an instant. */
export function bogotaDate(at: Date): string {
  return bogotaTime(at).slice(0, 10);
}

/** The resolution of the request's prefix, or the problems with the number (Spanish, at request paths). */
export function checkNumbering(
  kind: DianKindId,
  body: Record<string, unknown>,
  resolutions: readonly ResolutionRecord[],
  today: string,
): { resolution: ResolutionRecord | null; problems: { path: string; message: string }[] } {
  const prefix = typeof body.prefix === 'string' ? body.prefix : '';
  const number = Number(body.number);
  const date = typeof body.date === 'string' ? body.date : today;
  const sameKind = resolutions.filter((r) => r.kind === kind);
  if (sameKind.length === 0) {
    // Kinds without a numbering control (notes) need no resolution; the others do.
    if (!DIAN_KINDS[kind].invoiceControl) return { resolution: null, problems: [] };
    return { resolution: null, problems: [{ path: 'prefix', message: `La empresa no tiene una resolución de numeración para ${DIAN_KINDS[kind].name}.` }] };
  }
  const withPrefix = sameKind.filter((r) => r.prefix === prefix);
  if (withPrefix.length === 0) {
    const known = sameKind.map((r) => (r.prefix === '' ? '(sin prefijo)' : r.prefix)).join(', ');
    return {
      resolution: null,
      problems: [{ path: 'prefix', message: `El prefijo "${prefix}" no corresponde a ninguna resolución de la empresa para este documento (${known}).` }],
    };
  }
  const inRange = withPrefix.filter((r) => number >= r.from && number <= r.to);
  if (inRange.length === 0) {
    const ranges = withPrefix.map((r) => `${r.from}–${r.to}`).join(', ');
    return {
      resolution: null,
      problems: [{ path: 'number', message: `El número ${number} está fuera del rango autorizado para el prefijo "${prefix}" (${ranges}).` }],
    };
  }
  const valid = inRange.find((r) => date >= r.validFrom && date <= r.validTo);
  if (!valid) {
    const r = inRange[0]!;
    return {
      resolution: null,
      problems: [
        { path: 'date', message: `La fecha ${date} está fuera de la vigencia de la resolución ${r.resolutionNumber} (${r.validFrom} a ${r.validTo}).` },
      ],
    };
  }
  return { resolution: valid, problems: [] };
}

export function contextOf(company: CompanyRecord, resolution: ResolutionRecord | null, now: () => Date): DianContext {
  return {
    company: { ...company.profile, nit: company.nit },
    software: { id: company.softwareId, pin: company.softwarePin, provider_nit: company.providerNit, provider_dv: company.providerDv },
    ...(resolution
      ? {
          resolution: {
            prefix: resolution.prefix || undefined,
            from: String(resolution.from),
            to: String(resolution.to),
            start_date: resolution.validFrom,
            end_date: resolution.validTo,
            technical_key: resolution.technicalKey ?? undefined,
          },
        }
      : {}),
    environment: company.environment,
    now,
  };
}

/** Issues one document for `company`; the answer is the HTTP status and body of the spec. */
export async function issueDocument(deps: DianUseCaseDeps, company: CompanyRecord, kind: DianKindId, request: unknown): Promise<UseCaseAnswer> {
  const { storage } = deps;
  const dian = deps.dianFor(company);
  const now = deps.clock();
  const today = bogotaDate(now);
  const body = (request && typeof request === 'object' && !Array.isArray(request) ? request : {}) as Record<string, unknown>;
  const prefix = typeof body.prefix === 'string' ? body.prefix : '';
  const label = `${prefix}${typeof body.number === 'number' || typeof body.number === 'string' ? String(body.number) : ''}`;

  // 1. Own validations (the whole body; nothing reserved yet).
  const validation = validateDianRequest(kind, request, { today });
  if (validation.issues.some((i) => i.severity === 'error')) return { status: 422, body: toDianValidationBody(label, validation.issues) };
  // 2. Numbering.
  const resolutions = await storage.listResolutions(company.id, kind);
  const numbering = checkNumbering(kind, body, resolutions, today);
  if (numbering.problems.length) return ownValidation(label, numbering.problems);
  const context = contextOf(company, numbering.resolution, () => now);

  // 3–4. Idempotency and reservation.
  const requestHash = sha384Hex(canonicalJson(request));
  const reservation = await storage.reserveDocument({ companyId: company.id, kind, prefix, number: Number(body.number), requestHash });
  let doc = reservation.document;
  if (reservation.outcome === 'different') {
    return ownValidation(label, [
      { path: 'number', message: `El número ${label} ya fue usado por otro documento de la empresa con un contenido distinto; use un número nuevo.` },
    ]);
  }
  if (reservation.outcome === 'same') {
    if (doc.response && doc.state === 'accepted') return doc.response as UseCaseAnswer;
    // Another request is building or sending this document right now (a send whose answer could not be
    // confirmed stores its 503 and is no longer in flight).
    const inFlight = doc.state === 'building' || ((doc.state === 'sending' || doc.state === 'test_set_pending') && doc.response === null);
    if (inFlight && now.getTime() - doc.updatedAt < (deps.buildLeaseMs ?? 120_000)) return inProgress(label);
    if (doc.state === 'building' || doc.state === 'sending' || doc.state === 'test_set_pending') {
      // Taking over a stale reservation, an unconfirmed send or a test-set verdict still to fetch: a compare-and-set,
      // so of two requests doing it at once only one goes on (the row is in flight again: `response` null); the
      // other answers as a concurrent one.
      const claimed = await storage.claimDocument(doc.id, { state: doc.state, updatedAt: doc.updatedAt }, { response: null });
      if (!claimed) return afterLostClaim(deps, doc, label);
      doc = claimed;
    }
    // Sent to habilitación's test set: ask DIAN again (GetStatusZip, or GetStatus when the ZipKey was lost), never resend.
    if (doc.state === 'test_set_pending') return resumeTestSet(deps, company, doc, label, body);
    if (doc.state === 'sending' && (await storage.getTestSetSend(doc.id))?.verdict === null) {
      return resumeTestSet(deps, company, await storage.updateDocument(doc.id, { state: 'test_set_pending' }), label, body);
    }
    if (doc.state === 'sending' && doc.documentKey && doc.zip && doc.zipName) {
      // A send whose answer was lost: ask DIAN before anything else.
      const known = await askStatus(deps, company, doc);
      if (known.kind === 'answer') return finish(deps, company, doc, label, body, known.answer);
      if (known.kind === 'unknown') {
        await storage.updateDocument(doc.id, { response: known.reply });
        return known.reply;
      }
      // DIAN never received it: build and send again below.
    }
  }

  await dian.prepare?.(company, resolutions);

  // 5. Build, sign, zip.
  const made = await buildSignZip(deps, company, doc, kind, request, context, today, now);
  if (!made.ok) return made.answer;
  doc = await storage.updateDocument(doc.id, { state: 'sending', response: null, ...made.files });

  // 6. Send (habilitación's test set: SendTestSetAsync and GetStatusZip).
  if (company.testSetId) return sendToTestSet(deps, company, doc, label, body, made.files, company.testSetId);
  let answer: DianResponse;
  try {
    answer = await dian.sendBillSync(made.files.zipName, made.files.zip);
  } catch (e) {
    if (isTransportError(e) && e.outcomeUnknown) {
      const known = await askStatus(deps, company, doc);
      if (known.kind === 'answer') return finish(deps, company, doc, label, body, known.answer);
      if (known.kind === 'unknown') {
        await storage.updateDocument(doc.id, { response: known.reply });
        return known.reply;
      }
      await storage.releaseDocument(doc.id);
      return unreachable();
    }
    if (isTransportError(e)) {
      await storage.releaseDocument(doc.id);
      return unreachable();
    }
    if (isAuthorityError(e)) {
      await storage.releaseDocument(doc.id);
      return { status: 502, body: { status: 'error', message: `La DIAN rechazó la solicitud: ${e.message}`, document: null } };
    }
    throw e;
  }
  return finish(deps, company, doc, label, body, answer);
}

/** The 409 of a document another request is building or sending right now. */
export function inProgress(label: string): UseCaseAnswer {
  return {
    status: 409,
    body: { status: 'error', message: `El documento ${label} se está procesando en otra solicitud; reintente en unos segundos.`, document: null },
    headers: { 'Retry-After': '5' },
  };
}

/**
 * The answer of a request whose compare-and-set lost (another request took the document over first): the stored
 * answer when the document is already settled (accepted; `settled` may name more states), else the 409.
 */
export async function afterLostClaim(
  deps: DianUseCaseDeps,
  doc: DocumentRecord,
  label: string,
  settled: readonly DocumentRecord['state'][] = ['accepted'],
): Promise<UseCaseAnswer> {
  const now = await deps.storage.getDocumentByNumber(doc.companyId, doc.prefix, doc.number);
  if (now?.response && settled.includes(now.state)) return now.response as UseCaseAnswer;
  return inProgress(label);
}

/**
 * SendTestSetAsync, then the verdict by GetStatusZip (see {@link resumeTestSet}). The send is recorded before it is
 * made, so a crash or a lost answer leaves a trace that forbids sending the document again.
 */
async function sendToTestSet(
  deps: DianUseCaseDeps,
  company: CompanyRecord,
  doc: DocumentRecord,
  label: string,
  body: Record<string, unknown>,
  files: DocumentFiles,
  testSetId: string,
): Promise<UseCaseAnswer> {
  const { storage } = deps;
  const dian = deps.dianFor(company);
  if (!dian.sendTestSetAsync || !dian.getStatusZip) {
    throw new EcfError('The DIAN gateway cannot send to a test set (sendTestSetAsync, getStatusZip).', { code: 'test_set_unsupported' });
  }
  await storage.startTestSetSend({ documentId: doc.id, companyId: company.id, testSetId });
  const release = async () => {
    await storage.forgetTestSetSend(doc.id);
    await storage.releaseDocument(doc.id);
  };
  let zipKey: string | null;
  try {
    const upload = await dian.sendTestSetAsync(files.zipName, files.zip, testSetId);
    zipKey = upload.zipKey;
    if (!zipKey) {
      await release();
      return testSetUploadRefused(label, testSetId, upload);
    }
  } catch (e) {
    if (isTransportError(e) && e.outcomeUnknown) {
      // No ZipKey: DIAN may hold the zip; only GetStatus by the CUFE can tell (resumeTestSet).
      return resumeTestSet(deps, company, await storage.updateDocument(doc.id, { state: 'test_set_pending' }), label, body);
    }
    if (isTransportError(e)) {
      await release();
      return unreachable();
    }
    if (isAuthorityError(e)) {
      await release();
      return { status: 502, body: { status: 'error', message: `La DIAN rechazó la solicitud: ${e.message}`, document: null } };
    }
    throw e;
  }
  await storage.setTestSetZipKey(doc.id, zipKey);
  return resumeTestSet(deps, company, await storage.updateDocument(doc.id, { state: 'test_set_pending' }), label, body);
}

/**
 * The verdict on a document sent to a test set: GetStatusZip with its ZipKey (bounded polling); GetStatus by the
 * CUFE when there is no ZipKey (the upload's answer was lost) or DIAN does not know the ZipKey. A verdict finishes
 * the document (200 / 422); none yet stores and answers the 202 (ZipKey known) or the 503 (unconfirmed).
 */
async function resumeTestSet(
  deps: DianUseCaseDeps,
  company: CompanyRecord,
  doc: DocumentRecord,
  label: string,
  body: Record<string, unknown>,
): Promise<UseCaseAnswer> {
  const { storage } = deps;
  const dian = deps.dianFor(company);
  const send = await storage.getTestSetSend(doc.id);
  const conclude = async (answer: DianResponse) => {
    const reply = await finish(deps, company, doc, label, body, answer);
    await storage.setTestSetVerdict(doc.id, answer.isValid ? 'accepted' : 'rejected');
    return reply;
  };
  if (send?.zipKey) {
    const polled = await pollStatusZip(deps, dian, send.zipKey, doc.documentKey!);
    if (polled.kind === 'answer') return conclude(polled.answer);
    if (polled.kind === 'processing') {
      const reply = testSetPendingReply(doc, label, send.testSetId, send.zipKey);
      await storage.updateDocument(doc.id, { response: reply });
      return reply;
    }
  }
  const pending = send?.zipKey ? testSetPendingReply(doc, label, send.testSetId, send.zipKey) : testSetUnconfirmedReply(label);
  const known = await statusByKey(dian, doc.documentKey!, pending);
  if (known.kind === 'answer') return conclude(known.answer);
  // 'absent' proves nothing here: an asynchronous zip may not be processed yet. The document is never sent again.
  await storage.updateDocument(doc.id, { response: pending });
  return pending;
}

/** A built, signed and zipped document: what is stored on its row before it is sent. */
export interface DocumentFiles {
  documentKey: string;
  signedXml: string;
  zip: Uint8Array;
  zipName: string;
}

/**
 * Builds (rules left to DIAN), signs at `now` with the company's identity and zips the document reserved as `doc`.
 * On failure the number is released: an invalid document is the builder's 422, a signing or zipping failure throws.
 */
export async function buildSignZip(
  deps: DianUseCaseDeps,
  company: CompanyRecord,
  doc: DocumentRecord,
  kind: DianKindId,
  request: unknown,
  context: DianContext,
  today: string,
  now: Date,
): Promise<{ ok: true; files: DocumentFiles; signer: Signer } | { ok: false; answer: UseCaseAnswer }> {
  const { storage } = deps;
  const built = buildDianXml(kind, request, context, { today, rules: false });
  if (!built.ok) {
    await storage.releaseDocument(doc.id);
    return { ok: false, answer: { status: 422, body: built.body } };
  }
  const signer = await deps.signerFor(company);
  const signed = await signDianXml(built.xml, signer, { clock: () => now });
  if (!signed.ok) {
    await storage.releaseDocument(doc.id);
    throw new EcfError(`Signing failed: ${signed.message}`, { code: 'signing_failed' });
  }
  const issueDate = (/<cbc:IssueDate>(\d{4}-\d{2}-\d{2})</.exec(signed.xml)?.[1] ?? today) as string;
  const zipped = dianDocumentZip({
    kind,
    nit: company.nit,
    provider: '000',
    year: Number(issueDate.slice(0, 4)),
    counter: doc.id,
    xml: signed.xml,
    date: issueDate,
    deflate: deflateRaw,
  });
  if (!zipped.ok) {
    await storage.releaseDocument(doc.id);
    throw new EcfError(`Zipping failed: ${zipped.message}`, { code: 'zip_failed' });
  }
  return {
    ok: true,
    files: { documentKey: built.codes.hash, signedXml: signed.xml, zip: zipped.value.zip, zipName: zipped.value.names.zip },
    signer,
  };
}

export function unreachable(): UseCaseAnswer {
  return unavailable(
    `No fue posible comunicarse con la DIAN; el documento no fue enviado y su número sigue disponible. Reintente más tarde o, si la DIAN declaró contingencia, emita por ${CONTINGENCY_PATH}.`,
  );
}

/** What GetStatus says of a key: DIAN's verdict, "not received" (90/66), or still unknown (the 503 to answer). */
export type StatusOutcome = { kind: 'answer'; answer: DianResponse } | { kind: 'absent' } | { kind: 'unknown'; reply: UseCaseAnswer };

/** GetStatus by a document's or an event's key; `pending` is the answer while DIAN cannot say (98, or unreachable). */
export async function statusByKey(dian: DianGateway, key: string, pending: UseCaseAnswer): Promise<StatusOutcome> {
  try {
    const status = await dian.getStatus(key);
    if (status.statusCode === '90' || status.statusCode === '66') return { kind: 'absent' };
    if (status.statusCode === '98') return { kind: 'unknown', reply: pending };
    return { kind: 'answer', answer: status };
  } catch (e) {
    if (isTransportError(e)) return { kind: 'unknown', reply: pending };
    throw e;
  }
}

/** GetStatus by the document's key (see {@link statusByKey}). */
export function askStatus(deps: DianUseCaseDeps, company: CompanyRecord, doc: DocumentRecord): Promise<StatusOutcome> {
  const pending = unavailable(
    `No se pudo confirmar con la DIAN el resultado del documento ${doc.prefix}${doc.number}; reintente la misma solicitud más tarde (no se enviará de nuevo sin consultar su estado).`,
  );
  return statusByKey(deps.dianFor(company), doc.documentKey!, pending);
}

/** DIAN's verdict → the stored and returned answer (200 with the files, or 422 `statusCode` 11). */
export async function finish(
  deps: DianUseCaseDeps,
  company: CompanyRecord,
  doc: DocumentRecord,
  label: string,
  body: Record<string, unknown>,
  answer: DianResponse,
): Promise<UseCaseAnswer> {
  const { storage } = deps;
  const strings = answer.messages.map(formatDianRuleMessage);
  if (!answer.isValid) {
    const reply: UseCaseAnswer = {
      status: 422,
      body: {
        status: 'error',
        message: 'El documento fue rechazado por la DIAN',
        document: {
          number: label,
          statusCode: 11,
          statusDescription: answer.statusDescription ?? 'Documento con errores en campos mandatorios.',
          Errors: strings,
        },
      },
    };
    await storage.updateDocument(doc.id, { state: 'rejected', dianAnswer: answer, response: reply });
    return reply;
  }
  const signedXml = doc.signedXml!;
  const appResponse = answer.xmlBase64Bytes ? Buffer.from(answer.xmlBase64Bytes, 'base64').toString('utf8') : undefined;
  const at = deps.clock();
  const stamp = bogotaTime(at);
  const attached = buildAttachedDocument({
    signedXml,
    applicationResponseXml: appResponse,
    environment: company.environment,
    id: label,
    issueDate: stamp.slice(0, 10),
    issueTime: stamp.slice(11),
  });
  if (!attached.ok) {
    // DIAN accepted, but the ApplicationResponse it answered cannot be read (refused by the pre-scan: a DOCTYPE,
    // entities, nesting or size beyond DIAN's limits; or not an ApplicationResponse). Nothing is built from it:
    // the document stays `sending` with this answer stored, so the same request again asks GetStatus first.
    const reply: UseCaseAnswer = {
      status: 502,
      body: {
        status: 'error',
        message: `La DIAN aceptó el documento ${label}, pero su respuesta (ApplicationResponse) no se pudo leer: ${attached.message} Reintente la misma solicitud: se consultará su estado sin enviarlo de nuevo.`,
        document: null,
      },
    };
    await storage.updateDocument(doc.id, { response: reply });
    return reply;
  }
  const signer = await deps.signerFor(company);
  const attachedSigned = await signDianXml(attached.xml, signer, { clock: () => at });
  if (!attachedSigned.ok) throw new EcfError(`Signing the AttachedDocument failed: ${attachedSigned.message}`, { code: 'signing_failed' });
  const pdf = await dianPdf(signedXml, { format: body.pos_pdf === true ? 'receipt80' : 'a4', deflate: pdfDeflate });
  const reply: UseCaseAnswer = {
    status: 200,
    body: {
      status: 'success',
      message: `Documento ${label} validado y enviado a la DIAN`,
      document: {
        number: label,
        statusCode: 6,
        statusDescription: answer.statusDescription ?? 'Procesado Correctamente.',
        uuid: doc.documentKey,
        zipBase64Bytes: Buffer.from(doc.zip!).toString('base64'),
        pdfBase64Bytes: pdf.ok ? Buffer.from(pdf.pdf).toString('base64') : null,
        appResponseBase64Bytes: answer.xmlBase64Bytes,
        attachedDocumentBase64Bytes: Buffer.from(attachedSigned.xml, 'utf8').toString('base64'),
        notifications: strings,
      },
    },
  };
  const stored = await storage.updateDocument(doc.id, {
    state: 'accepted',
    dianAnswer: answer,
    applicationResponse: appResponse ?? null,
    attachedDocument: attachedSigned.xml,
    response: reply,
  });
  if (body.send === true && deps.notifyCustomer) {
    const customer = body.customer as { email?: unknown } | undefined;
    await deps.notifyCustomer({
      company,
      document: stored,
      to: typeof customer?.email === 'string' ? customer.email : null,
      pdf: pdf.ok ? pdf.pdf : null,
      attachedDocument: attachedSigned.xml,
    });
  }
  return reply;
}

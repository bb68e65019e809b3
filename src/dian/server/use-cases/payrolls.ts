/**
 * `submitPayroll(company, kind, request)`: the service's payroll endpoints (beyond the spec: `POST /service/payrolls`
 * for the individual payroll 102, `POST /service/payrolls/adjustment` for the adjustment note 103), and
 * `payrollStatus(company, id)` behind `GET /service/payrolls/{payrollId}` (the spec's payroll status record).
 *
 * Steps of a submission, in order:
 * 1. own validations (validateDianPayroll through buildDianPayroll; the employer must be the token's company;
 *    `testSetId` a non-empty text): 422 `statusCode` 13 with `errors` and `detailedErrors` at request paths;
 * 2. idempotency: `sequence.prefix` + `sequence.consecutive` is unique per company (across 102 and 103); the same
 *    body again returns the stored answer, another body is a 422 at `sequence.consecutive`; a number DIAN
 *    rejected is free again;
 * 3. the number reserved (`building`), the document built with the company's software, signed with its identity,
 *    zipped (`nie…`/`niae…` names, the row id as counter), `sending`;
 * 4. SendNominaSync; with `testSetId` (habilitación) SendTestSetAsync, the ZipKey stored and the payroll `pending`
 *    until GetStatusZip gives the verdict. A lost answer is asked with GetStatus by the CUNE before anything else,
 *    never sent again blindly; DIAN unreachable (nothing sent) releases the number and answers 503.
 */
import {
  buildDianPayroll,
  dianDocumentZip,
  EcfError,
  formatDianRuleMessage,
  PAYROLL_KINDS,
  type PayrollKindId,
  sha384Hex,
  toDianValidationBody,
} from '../../index.js';
import { signDianXml } from '../../sign/index.js';
import { ACTION_PREFIX, type DianResponse, isAuthorityError, isTransportError } from '../../transport/index.js';
import type { PayrollRecord, PayrollStore } from '../storage/payrolls.js';
import type { CompanyRecord } from '../storage/types.js';
import { canonicalJson, type StatusOutcome, statusByKey, unavailable } from './issue.js';
import type { DianUseCaseDeps, UseCaseAnswer } from './ports.js';

export interface PayrollUseCaseDeps extends DianUseCaseDeps {
  storage: DianUseCaseDeps['storage'] & PayrollStore;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `data.status` of the payroll status record (the spec shows 2 with an accepted test set; the other values are this
 * service's, docs/dian/server.md): by the row's state.
 */
export const PAYROLL_STATUS = { building: 0, sending: 1, pending: 1, accepted: 2, rejected: 3 } as const;

/** The `data.type` of the record: how the payroll was sent. */
const SEND_TYPES = { sync: 'sync', test_set: 'test_set' } as const;

/** How DIAN's answer was obtained (the operation whose answer is stored). */
type AnswerOperation = 'SendNominaSync' | 'GetStatus' | 'GetStatusZip' | 'SendTestSetAsync';

/** What is stored as `dianAnswer`: DIAN's verdict and the operation that gave it. */
interface StoredAnswer {
  operation: AnswerOperation;
  answer: DianResponse;
}

function ownIssues(label: string, problems: { path: string; message: string }[]): UseCaseAnswer {
  return {
    status: 422,
    body: toDianValidationBody(
      label,
      problems.map((p) => ({ code: 'rule' as const, path: p.path, message: p.message, severity: 'error' as const })),
    ),
  };
}

function unreachable(): UseCaseAnswer {
  return unavailable('No fue posible comunicarse con la DIAN; la nómina no fue enviada y su número sigue disponible. Reintente más tarde.');
}

/** Submits one payroll document of `kind` for `company`. */
export async function submitPayroll(deps: PayrollUseCaseDeps, company: CompanyRecord, kind: PayrollKindId, request: unknown): Promise<UseCaseAnswer> {
  const { storage } = deps;
  const now = deps.clock();
  const body: Obj = isObj(request) ? request : {};
  const { testSetId: rawTestSet, ...payroll } = body;
  const sequence = isObj(payroll.sequence) ? payroll.sequence : {};
  const prefix = typeof sequence.prefix === 'string' ? sequence.prefix : '';
  const label = `${prefix}${typeof sequence.consecutive === 'string' || typeof sequence.consecutive === 'number' ? String(sequence.consecutive) : ''}`;

  // 1. Own validations (nothing reserved yet).
  const problems: { path: string; message: string }[] = [];
  if (rawTestSet !== undefined && (typeof rawTestSet !== 'string' || rawTestSet.trim() === '')) {
    problems.push({ path: 'testSetId', message: 'debe ser el identificador del set de pruebas de habilitación (texto), o no enviarse' });
  }
  const testSetId = typeof rawTestSet === 'string' && rawTestSet.trim() !== '' ? rawTestSet : null;
  const context = {
    software: { id: company.softwareId, pin: company.softwarePin, provider_nit: company.providerNit, provider_dv: company.providerDv },
    environment: company.environment,
    now: () => now,
  };
  const built = buildDianPayroll(kind, (isObj(request) ? payroll : request) as Obj, context);
  if (!built.ok) {
    if (!problems.length) return { status: 422, body: built.body };
    return ownIssues(label, [...problems, ...built.issues.filter((i) => i.severity === 'error')]);
  }
  const employer = isObj(payroll.employer) ? String(payroll.employer.nit) : '';
  if (employer !== company.nit) problems.push({ path: 'employer.nit', message: `debe ser el NIT de la empresa del token (${company.nit})` });
  const consecutive = Number(sequence.consecutive);
  if (!Number.isSafeInteger(consecutive)) problems.push({ path: 'sequence.consecutive', message: 'el consecutivo es demasiado grande' });
  // A 103 on a payroll this company sent through the service: its number must be that payroll's, and DIAN must have accepted it.
  let predecessorId: number | null = null;
  const predecessor = isObj(payroll.predecessor) ? payroll.predecessor : null;
  if (predecessor && typeof predecessor.cune === 'string') {
    const held = await storage.getPayrollByCune(company.id, predecessor.cune.toLowerCase());
    if (held) {
      predecessorId = held.id;
      if (predecessor.number !== `${held.prefix}${held.consecutive}`) {
        problems.push({ path: 'predecessor.number', message: `la nómina con ese CUNE es la ${held.prefix}${held.consecutive} de la empresa` });
      }
      if (held.state !== 'accepted')
        problems.push({ path: 'predecessor.cune', message: 'la nómina con ese CUNE no fue aceptada por la DIAN; no se puede ajustar' });
    }
  }
  if (problems.length) return ownIssues(label, problems);

  // 2. Idempotency and reservation.
  const reservation = await storage.reservePayroll({
    companyId: company.id,
    kind,
    prefix,
    consecutive,
    requestHash: sha384Hex(canonicalJson(body)),
    sendMode: testSetId ? 'test_set' : 'sync',
    testSetId,
  });
  let row = reservation.payroll;
  if (reservation.outcome === 'different') {
    return ownIssues(label, [
      {
        path: 'sequence.consecutive',
        message: `el número ${label} ya fue usado por otra nómina de la empresa con un contenido distinto; use un consecutivo nuevo`,
      },
    ]);
  }
  if (reservation.outcome === 'same') {
    if (row.state === 'pending') row = await refresh(deps, company, row);
    if (row.response && (row.state === 'accepted' || row.state === 'pending')) return row.response as UseCaseAnswer;
    const inFlight = row.state === 'building' || (row.state === 'sending' && row.response === null);
    if (inFlight && now.getTime() - row.updatedAt < (deps.buildLeaseMs ?? 120_000)) return inProgress(label);
    if (row.state === 'building' || row.state === 'sending') {
      // Taking over a stale reservation or an unconfirmed send: a compare-and-set, so of two requests doing it at
      // once only one goes on (the row is in flight again: `response` null); the other answers as a concurrent one.
      const claimed = await storage.claimPayroll(row.id, { state: row.state, updatedAt: row.updatedAt }, { response: null });
      if (!claimed) {
        const current = await storage.getPayroll(company.id, row.id);
        return current?.state === 'accepted' && current.response ? (current.response as UseCaseAnswer) : inProgress(label);
      }
      row = claimed;
    }
    if (row.state === 'sending' && row.cune && row.zip) {
      // A send whose answer was lost: ask DIAN by the CUNE before anything else.
      const known = await askStatus(deps, company, row);
      if (known.kind === 'answer') return finish(deps, row, label, { operation: 'GetStatus', answer: known.answer });
      // Still unknown, or a test-set upload not found (DIAN processes uploads later): never sent again blindly.
      if (known.kind === 'unknown' || row.sendMode === 'test_set') {
        const reply = known.kind === 'unknown' ? known.reply : pendingReply(row);
        await storage.updatePayroll(row.id, { response: reply });
        return reply;
      }
      // DIAN never received it: build and send again below.
    }
  }

  const dian = deps.dianFor(company);
  if (!dian.sendNominaSync || !dian.sendTestSetAsync) throw new EcfError('The DIAN gateway cannot send payroll documents.', { code: 'not_supported' });
  await dian.prepare?.(company, await storage.listResolutions(company.id), testSetId ? { testSetId } : {});

  // 3. Sign and zip (the document was built above with the same clock).
  const signer = await deps.signerFor(company);
  const signed = await signDianXml(built.xml, signer, { clock: () => now });
  if (!signed.ok) {
    await storage.releasePayroll(row.id);
    throw new EcfError(`Signing the payroll failed: ${signed.message}`, { code: 'signing_failed' });
  }
  const general = isObj(payroll.general) ? payroll.general : {};
  const date = typeof general.generation_date === 'string' ? general.generation_date : now.toISOString().slice(0, 10);
  const zipped = dianDocumentZip({ kind, nit: company.nit, year: Number(date.slice(0, 4)), counter: row.id, xml: signed.xml, date });
  if (!zipped.ok) {
    await storage.releasePayroll(row.id);
    throw new EcfError(`Zipping the payroll failed: ${zipped.message}`, { code: 'zip_failed' });
  }
  row = await storage.updatePayroll(row.id, {
    state: 'sending',
    response: null,
    cune: built.codes.cune,
    signedXml: signed.xml,
    xmlFileName: zipped.value.names.xml,
    zip: zipped.value.zip,
    predecessorId,
  });

  // 4. Send.
  try {
    if (testSetId) {
      const upload = await dian.sendTestSetAsync(zipped.value.names.zip, zipped.value.zip, testSetId);
      if (!upload.zipKey) return refusedUpload(deps, row, label, upload.items.map((i) => i.processedMessage ?? '').filter(Boolean));
      row = await storage.updatePayroll(row.id, { state: 'pending', zipKey: upload.zipKey });
      const reply = answerOf(row, label, null);
      await storage.updatePayroll(row.id, { response: reply });
      return reply;
    }
    const answer = await dian.sendNominaSync(zipped.value.zip);
    return finish(deps, row, label, { operation: 'SendNominaSync', answer });
  } catch (e) {
    if (isTransportError(e) && e.outcomeUnknown) {
      const known = await askStatus(deps, company, row);
      if (known.kind === 'answer') return finish(deps, row, label, { operation: 'GetStatus', answer: known.answer });
      if (known.kind === 'unknown' || testSetId) {
        // A test-set upload is processed later: "not found" now does not say it was never received.
        const reply = known.kind === 'unknown' ? known.reply : pendingReply(row);
        await storage.updatePayroll(row.id, { response: reply });
        return reply;
      }
      await storage.releasePayroll(row.id);
      return unreachable();
    }
    if (isTransportError(e)) {
      await storage.releasePayroll(row.id);
      return unreachable();
    }
    if (isAuthorityError(e)) {
      await storage.releasePayroll(row.id);
      return { status: 502, body: { status: 'error', message: `La DIAN rechazó la solicitud: ${e.message}`, document: null } };
    }
    throw e;
  }
}

/** The 503 of a send DIAN could not confirm yet; its `payrollId` lets the client follow it with the status record. */
/** The 409 of a payroll another request is building or sending right now. */
function inProgress(label: string): UseCaseAnswer {
  return {
    status: 409,
    body: { status: 'error', message: `La nómina ${label} se está procesando en otra solicitud; reintente en unos segundos.`, document: null },
    headers: { 'Retry-After': '5' },
  };
}

function pendingReply(row: PayrollRecord): UseCaseAnswer {
  const reply = unavailable(
    `No se pudo confirmar con la DIAN el resultado de la nómina ${row.prefix}${row.consecutive}; consulte /service/payrolls/${row.id} o reintente la misma solicitud más tarde (no se enviará de nuevo sin consultar su estado).`,
  );
  return { ...reply, body: { ...(reply.body as object), payrollId: String(row.id) } };
}

/** GetStatus by the payroll's CUNE (see {@link statusByKey}). */
function askStatus(deps: PayrollUseCaseDeps, company: CompanyRecord, row: PayrollRecord): Promise<StatusOutcome> {
  return statusByKey(deps.dianFor(company), row.cune!, pendingReply(row));
}

/** The POST answer for the row in its state (`answer`: DIAN's verdict, when there is one). */
function answerOf(row: PayrollRecord, label: string, answer: DianResponse | null, errors: string[] = []): UseCaseAnswer {
  const type = Number(PAYROLL_KINDS[row.kind as PayrollKindId].documentType);
  const payrollId = String(row.id);
  const messages = answer ? answer.messages.map(formatDianRuleMessage) : errors;
  if (row.state === 'rejected') {
    return {
      status: 422,
      body: {
        status: 'error',
        message: 'La nómina fue rechazada por la DIAN',
        payrollId,
        document: {
          number: label,
          xml_type: type,
          uuid: row.cune,
          status: PAYROLL_STATUS.rejected,
          statusCode: 11,
          statusDescription: answer?.statusDescription ?? 'Documento con errores en campos mandatorios.',
          Errors: messages,
        },
      },
    };
  }
  const accepted = row.state === 'accepted';
  return {
    status: 200,
    body: {
      status: 'success',
      message: accepted
        ? `Nómina ${label} validada y enviada a la DIAN`
        : `Nómina ${label} enviada al set de pruebas de la DIAN; consulte su estado en /service/payrolls/${payrollId}`,
      payrollId,
      document: {
        number: label,
        xml_type: type,
        uuid: row.cune,
        status: PAYROLL_STATUS[row.state],
        statusCode: accepted ? 6 : null,
        statusDescription: answer?.statusDescription ?? 'En proceso de validación en la DIAN',
        zipKey: row.zipKey,
        zipBase64Bytes: row.zip ? Buffer.from(row.zip).toString('base64') : null,
        appResponseBase64Bytes: answer?.xmlBase64Bytes ?? null,
        notifications: accepted ? messages : [],
      },
    },
  };
}

/** A test-set upload DIAN refused before processing (unknown test set): rejected, the number free again. */
async function refusedUpload(deps: PayrollUseCaseDeps, row: PayrollRecord, label: string, errors: string[]): Promise<UseCaseAnswer> {
  const answer: DianResponse = {
    isValid: false,
    statusCode: null,
    statusDescription: 'La DIAN no recibió el set de pruebas',
    statusMessage: errors.join('; ') || null,
    messages: [],
    xmlBase64Bytes: null,
    xmlDocumentKey: row.cune,
    xmlFileName: row.xmlFileName,
  };
  const rejected = { ...row, state: 'rejected' as const };
  const reply = answerOf(rejected, label, answer, errors);
  const body = reply.body as { document: { Errors: string[] } };
  body.document.Errors = errors;
  await deps.storage.updatePayroll(row.id, {
    state: 'rejected',
    dianAnswer: { operation: 'SendTestSetAsync', answer } satisfies StoredAnswer,
    dianAnsweredAt: deps.clock().getTime(),
    response: reply,
  });
  return reply;
}

/** DIAN's verdict → the row accepted or rejected, and the answer stored for a retry. */
async function finish(deps: PayrollUseCaseDeps, row: PayrollRecord, label: string, stored: StoredAnswer): Promise<UseCaseAnswer> {
  const state = stored.answer.isValid ? ('accepted' as const) : ('rejected' as const);
  const reply = answerOf({ ...row, state }, label, stored.answer);
  await deps.storage.updatePayroll(row.id, { state, dianAnswer: stored, dianAnsweredAt: deps.clock().getTime(), response: reply });
  return reply;
}

/** DIAN's nil marker in the record (the XML's `i:nil="true"` as JSON). */
export const NIL = { _attributes: { nil: 'true' } } as const;

const nilOr = (v: string | null | undefined) => (v == null ? NIL : v);

/** The spec's `responseDian`: DIAN's answer in the SOAP shape of GetStatusZip (see docs/dian/server.md). */
function responseDian(stored: StoredAnswer, at: number) {
  const a = stored.answer;
  return {
    Envelope: {
      Header: {
        Action: `${ACTION_PREFIX}${stored.operation}Response`,
        Security: { Timestamp: { Created: new Date(at).toISOString(), Expires: new Date(at + 300_000).toISOString() } },
      },
      Body: {
        GetStatusZipResponse: {
          GetStatusZipResult: {
            DianResponse: {
              ErrorMessage: { string: a.messages.map(formatDianRuleMessage) },
              IsValid: String(a.isValid),
              StatusCode: nilOr(a.statusCode),
              StatusDescription: nilOr(a.statusDescription),
              StatusMessage: nilOr(a.statusMessage),
              XmlBase64Bytes: nilOr(a.xmlBase64Bytes),
              XmlBytes: NIL,
              XmlDocumentKey: nilOr(a.xmlDocumentKey),
              XmlFileName: nilOr(a.xmlFileName),
            },
          },
        },
      },
    },
  };
}

/** The spec's payroll status record of a row. */
export function payrollRecord(row: PayrollRecord) {
  const stored = row.dianAnswer as StoredAnswer | null;
  return {
    data: {
      id: row.id,
      payroll_id: row.predecessorId,
      testing_set: row.testSetId,
      signed_xml_key: row.sendMode === 'test_set' ? (row.zipKey ?? row.cune) : row.cune,
      generator_id: /<ProveedorXML\b[^>]*\bSoftwareID="([^"]*)"/.exec(row.signedXml ?? '')?.[1] ?? null,
      signed_xml: row.xmlFileName,
      consecutive_id: row.consecutive,
      type: SEND_TYPES[row.sendMode],
      xml_type: Number(PAYROLL_KINDS[row.kind as PayrollKindId].documentType),
      status: PAYROLL_STATUS[row.state],
      created_at: new Date(row.createdAt).toISOString(),
      updated_at: new Date(row.updatedAt).toISOString(),
    },
    dianResponse: {
      responseDian: stored ? responseDian(stored, row.dianAnsweredAt ?? row.updatedAt) : null,
      isValid: stored?.answer.isValid === true,
      applicationResponseBytes: stored?.answer.xmlBase64Bytes ?? null,
      // DIAN's payroll has no AttachedDocument (buildAttachedDocument wraps invoices and notes).
      attachedDocumentBytes: null,
    },
  };
}

/**
 * `GET /service/payrolls/{payrollId}`: the company's payroll by its id (or its CUNE), refreshed from DIAN first when
 * its verdict is still awaited (GetStatusZip by the ZipKey for a test set, GetStatus by the CUNE for a send whose
 * answer was lost). DIAN unreachable while refreshing: the stored record, still pending. Null: not this company's.
 */
export async function payrollStatus(deps: PayrollUseCaseDeps, company: CompanyRecord, id: string): Promise<UseCaseAnswer | null> {
  const { storage } = deps;
  let row: PayrollRecord | null = null;
  if (/^[0-9a-f]{96}$/i.test(id)) row = await storage.getPayrollByCune(company.id, id.toLowerCase());
  else if (/^\d{1,15}$/.test(id)) row = await storage.getPayroll(company.id, Number(id));
  if (!row) return null;
  return { status: 200, body: payrollRecord(await refresh(deps, company, row)) };
}

/**
 * A payroll whose verdict is awaited, asked again: a test set by GetStatusZip (its ZipKey), a send whose answer was
 * lost (or whose request died: `sending` past the lease) by GetStatus (its CUNE). A verdict finishes the row; DIAN
 * still processing, not knowing it, or unreachable leaves it as it was.
 */
async function refresh(deps: PayrollUseCaseDeps, company: CompanyRecord, row: PayrollRecord): Promise<PayrollRecord> {
  const label = `${row.prefix}${row.consecutive}`;
  const dian = deps.dianFor(company);
  const stale = row.response !== null || deps.clock().getTime() - row.updatedAt >= (deps.buildLeaseMs ?? 120_000);
  let stored: StoredAnswer | null = null;
  try {
    if (row.state === 'pending' && row.zipKey && dian.getStatusZip) {
      const answers = await dian.getStatusZip(row.zipKey);
      const mine = answers.find((a) => a.xmlDocumentKey === row.cune) ?? (answers.length === 1 ? answers[0] : undefined);
      if (mine && !['98', '66', '90'].includes(mine.statusCode ?? '')) stored = { operation: 'GetStatusZip', answer: mine };
    } else if (row.state === 'sending' && row.cune && stale) {
      const known = await statusByKey(dian, row.cune, pendingReply(row));
      if (known.kind === 'answer') stored = { operation: 'GetStatus', answer: known.answer };
    }
  } catch (e) {
    if (!isTransportError(e)) throw e;
  }
  if (!stored) return row;
  await finish(deps, row, label, stored);
  return (await deps.storage.getPayroll(company.id, row.id)) ?? row;
}

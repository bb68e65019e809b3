/**
 * The local DIAN's operations: one handler per row of DIAN_OPERATIONS (a map keyed by operation, no branching
 * on names), each returning the typed result of its row's answer type, which ./soap.ts writes in DIAN's shape.
 *
 * Answers DIAN's documentation does not fix (the simulator's own; clients should not depend on more):
 * - GetStatus / GetStatusEvent / GetReferenceNotes of an unknown key: `StatusCode 90` ("TrackId no encontrado");
 *   GetStatusZip of an unknown ZipKey: one response with `StatusCode 66`; of a zip still in process: one `98`.
 * - GetStatusEvent: `00` with one `ErrorMessage` string per accepted event, `Evento 030 (Acuse de recibo …):
 *   CUDE <cude>, número <id>, recibido <instant>`, in the order received.
 * - GetReferenceNotes: `00` with one string per accepted note referencing the document, `Nota <id>: <key>`.
 * - GetNumberingRange: `OperationCode 100` "Acción completada OK" with the ranges; `301` without any.
 * - GetXmlByDocumentKey: `Code 100` with the XML as received; `Code 404` for an unknown key.
 */
import { randomUUID } from 'node:crypto';
import { DIAN_EVENTS } from '../events/table.js';
import { parseDianRuleMessage } from '../rules/message.js';
import type { DianAnswerTypes, DianResponse } from '../transport/answer.js';
import type { DIAN_OPERATIONS, DianOperation, DianOperationParams } from '../transport/operations.js';
import { readZip, type SimCore, unreadVerdict } from './core.js';
import { processDocument } from './documents.js';
import { processEvent } from './events.js';
import { processPayroll } from './payroll.js';
import { rejection } from './rules.js';
import { detectDianSchemaId } from '../xsd/detect.js';
import type { DianSchemaId } from '../xsd/schemas.js';
import type { DianSimVerdict } from './types.js';

type Handler<Op extends DianOperation> = (core: SimCore, params: DianOperationParams<Op>) => Promise<DianAnswerTypes[(typeof DIAN_OPERATIONS)[Op]['answer']]>;

/** A stored verdict as the client reads it. */
export function toDianResponse(v: DianSimVerdict): DianResponse {
  return {
    isValid: v.isValid,
    statusCode: v.statusCode,
    statusDescription: v.statusDescription,
    statusMessage: v.statusMessage,
    messages: v.messages.map(parseDianRuleMessage),
    xmlBase64Bytes: v.applicationResponse === null ? null : Buffer.from(v.applicationResponse, 'utf8').toString('base64'),
    xmlDocumentKey: v.documentKey,
    xmlFileName: v.fileName,
  };
}

function status(code: '90' | '66' | '98', key: string | undefined): DianResponse {
  const descriptions = { '90': 'TrackId no encontrado', '66': 'NSU no encontrado', '98': 'En proceso de validación' } as const;
  return {
    isValid: false,
    statusCode: code,
    statusDescription: descriptions[code],
    statusMessage: descriptions[code],
    messages: [],
    xmlBase64Bytes: null,
    xmlDocumentKey: key ?? null,
    xmlFileName: null,
  };
}

function listing(key: string, lines: string[]): DianResponse {
  return {
    isValid: true,
    statusCode: '00',
    statusDescription: 'Procesado Correctamente.',
    statusMessage: `${lines.length} registro(s)`,
    messages: lines.map(parseDianRuleMessage),
    xmlBase64Bytes: null,
    xmlDocumentKey: key,
    xmlFileName: null,
  };
}

/** A synchronous upload: exactly one XML in the zip, then `process`. */
async function oneFile(
  core: SimCore,
  fileName: string | undefined,
  contentFile: string | undefined,
  process: (core: SimCore, fileName: string | null, xml: string) => Promise<DianSimVerdict>,
): Promise<DianResponse> {
  const zip = readZip(contentFile);
  if (!zip.ok) return toDianResponse(unreadVerdict([rejection('zipContent', undefined, zip.reason)], fileName ?? null));
  if (zip.files.length !== 1) return toDianResponse(unreadVerdict([rejection('zipContent', undefined, `contiene ${zip.files.length}`)], fileName ?? null));
  const file = zip.files[0]!;
  return toDianResponse(await core.exclusive(() => process(core, file.name, file.xml)));
}

/** An asynchronous upload: the zip is kept and processed after the delay; the answer is its ZipKey. */
function upload(core: SimCore, contentFile: string | undefined, testSetId: string | null): DianAnswerTypes['UploadDocumentResponse'] {
  const zip = readZip(contentFile);
  if (!zip.ok) return { zipKey: null, items: [{ documentKey: null, processedMessage: zip.reason, senderCode: null, success: false, xmlFileName: null }] };
  const state = core.store.state;
  const zipKey = randomUUID();
  state.zips[zipKey] = {
    zipKey,
    testSetId,
    receivedAt: core.clock().toISOString(),
    pending: zip.files.map((f) => ({ fileName: f.name, xml: f.xml })),
    verdicts: null,
  };
  core.store.changed();
  core.schedule(zipKey);
  return { zipKey, items: [] };
}

/** How an asynchronous zip's file is processed, by its root: payroll test sets go through SendTestSetAsync too (§7). */
const PROCESS_BY_ROOT: Partial<Record<DianSchemaId, typeof processDocument>> = {
  NominaIndividual: processPayroll,
  NominaIndividualDeAjuste: processPayroll,
};

/** Processes a kept zip (called by the scheduler); test-set zips count into their set. */
export async function processZip(core: SimCore, zipKey: string): Promise<void> {
  const state = core.store.state;
  const zip = state.zips[zipKey];
  if (!zip || zip.verdicts !== null) return;
  const verdicts: DianSimVerdict[] = [];
  for (const f of zip.pending) {
    // A failure of the simulator itself (its own signing) is a verdict on that file, never an unanswered zip.
    const verdict = await core
      .exclusive(() => (PROCESS_BY_ROOT[detectDianSchemaId(f.xml) ?? 'Invoice'] ?? processDocument)(core, f.fileName, f.xml))
      .catch((e: unknown) => unreadVerdict([rejection('internal', undefined, e instanceof Error ? e.message : String(e))], f.fileName));
    verdicts.push(verdict);
  }
  if (zip.verdicts !== null) return;
  zip.verdicts = verdicts;
  zip.pending = [];
  if (zip.testSetId !== null) {
    const set = (state.testSets[zip.testSetId] ??= { accepted: 0, rejected: 0 });
    for (const v of verdicts) v.isValid ? set.accepted++ : set.rejected++;
  }
  core.store.changed();
}

/** One handler per operation of the table. */
export const HANDLERS: { [Op in DianOperation]: Handler<Op> } = {
  SendBillSync: (core, p) => oneFile(core, p.fileName, p.contentFile, processDocument),
  SendBillAsync: async (core, p) => upload(core, p.contentFile, null),
  SendTestSetAsync: async (core, p) => {
    const known = p.testSetId !== undefined && core.store.state.companies.some((c) => c.testSetId === p.testSetId);
    if (!known) {
      const message = `El set de pruebas ${p.testSetId ?? '(vacío)'} no existe o no está asociado a un software`;
      return { zipKey: null, items: [{ documentKey: null, processedMessage: message, senderCode: null, success: false, xmlFileName: p.fileName ?? null }] };
    }
    return upload(core, p.contentFile, p.testSetId!);
  },
  GetStatus: async (core, p) => {
    const doc = p.trackId ? core.store.state.documents[p.trackId] : undefined;
    return doc ? toDianResponse(doc.verdict) : status('90', p.trackId);
  },
  GetStatusZip: async (core, p) => {
    const zip = p.trackId ? core.store.state.zips[p.trackId] : undefined;
    if (!zip) return [status('66', p.trackId)];
    if (zip.verdicts === null) return [status('98', p.trackId)];
    return zip.verdicts.map(toDianResponse);
  },
  GetStatusEvent: async (core, p) => {
    const doc = p.trackId ? core.store.state.documents[p.trackId] : undefined;
    if (!doc) return status('90', p.trackId);
    return listing(
      doc.key,
      doc.events.map((e) => {
        const name = DIAN_EVENTS[e.code as keyof typeof DIAN_EVENTS]?.name ?? e.code;
        return `Evento ${e.code} (${name}): CUDE ${e.cude}, número ${e.number}, recibido ${e.receivedAt}`;
      }),
    );
  },
  SendEventUpdateStatus: (core, p) => oneFile(core, undefined, p.contentFile, processEvent),
  SendNominaSync: (core, p) => oneFile(core, undefined, p.contentFile, processPayroll),
  GetNumberingRange: async (core, p) => {
    const state = core.store.state;
    const company = state.companies.find((c) => c.nit === p.accountCode && c.softwareId === p.softwareCode && (c.providerNit ?? c.nit) === p.accountCodeT);
    const ranges = company ? state.ranges.filter((r) => r.nit === company.nit && r.softwareId === company.softwareId) : [];
    if (ranges.length === 0)
      return { operationCode: '301', operationDescription: 'No se encontraron rangos de numeración para el emisor, el proveedor y el software', ranges: [] };
    return {
      operationCode: '100',
      operationDescription: 'Acción completada OK',
      ranges: ranges.map((r) => ({
        resolutionNumber: r.resolutionNumber,
        resolutionDate: r.resolutionDate,
        prefix: r.prefix,
        fromNumber: r.from,
        toNumber: r.to,
        validDateFrom: r.validFrom,
        validDateTo: r.validTo,
        technicalKey: r.technicalKey,
      })),
    };
  },
  GetXmlByDocumentKey: async (core, p) => {
    const doc = p.trackId ? core.store.state.documents[p.trackId] : undefined;
    if (!doc) return { code: '404', message: 'Documento no encontrado', validationDate: null, xmlBytesBase64: null };
    return { code: '100', message: 'Accion completada OK', validationDate: doc.receivedAt, xmlBytesBase64: Buffer.from(doc.xml, 'utf8').toString('base64') };
  },
  GetReferenceNotes: async (core, p) => {
    const state = core.store.state;
    const doc = p.trackId ? state.documents[p.trackId] : undefined;
    if (!doc) return status('90', p.trackId);
    return listing(
      doc.key,
      doc.notes.map((k) => `Nota ${state.documents[k]?.number ?? '?'}: ${k}`),
    );
  },
};

/**
 * Habilitación's test-set mode (dian-protocol.md §5.3, §7 [C]): a company configured with a test set
 * (`ecf dian admin company add|set --test-set-id`) sends its documents with SendTestSetAsync (`testSetId`) instead
 * of SendBillSync; DIAN answers with a ZipKey and validates the zip asynchronously; the verdict is read with
 * GetStatusZip. What issueDocument (./issue.ts) uses for it: the bounded polling of GetStatusZip and the answers
 * that are not DIAN's verdict (still processing → 202; the upload's answer lost → 503; the upload refused → 502).
 */
import { type DianResponse, type DianUploadResponse, isTransportError } from '../../transport/index.js';
import type { DocumentRecord } from '../storage/types.js';
import type { DianGateway, DianUseCaseDeps, TestSetPolling, UseCaseAnswer } from './ports.js';

/** Three GetStatusZip calls, after 0.5 s, 1 s and 2 s (3.5 s at most per request; a retry polls again). */
export const DEFAULT_TEST_SET_POLLING: TestSetPolling = { attempts: 3, firstDelayMs: 500, factor: 2 };

/** What polling GetStatusZip found: DIAN's verdict on the document, still processing (`98`), or a ZipKey DIAN does not know (`66`). */
export type ZipOutcome = { kind: 'answer'; answer: DianResponse } | { kind: 'processing' } | { kind: 'unknownZip' };

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls GetStatusZip for the verdict on `documentKey` (the zip holds that one document): at most
 * `polling.attempts` calls, each after a wait. A transport failure of one call counts as "not yet".
 */
export async function pollStatusZip(deps: DianUseCaseDeps, dian: DianGateway, zipKey: string, documentKey: string): Promise<ZipOutcome> {
  const polling = deps.testSetPolling ?? DEFAULT_TEST_SET_POLLING;
  const sleep = deps.sleep ?? timer;
  let wait = polling.firstDelayMs;
  let unknownZip = false;
  for (let i = 0; i < polling.attempts; i++) {
    await sleep(wait);
    wait = Math.ceil(wait * polling.factor);
    let verdicts: DianResponse[];
    try {
      verdicts = await dian.getStatusZip!(zipKey);
    } catch (e) {
      if (isTransportError(e)) continue;
      throw e;
    }
    const mine = verdicts.find((v) => v.xmlDocumentKey === documentKey) ?? (verdicts.length === 1 ? verdicts[0] : undefined);
    unknownZip = mine?.statusCode === '66' || mine?.statusCode === '90';
    if (!mine || mine.statusCode === '98' || unknownZip) continue;
    return { kind: 'answer', answer: mine };
  }
  return { kind: unknownZip ? 'unknownZip' : 'processing' };
}

/** 202: DIAN took the document into the test set and has not given its verdict yet; the same request again polls again. */
export function testSetPendingReply(doc: DocumentRecord, label: string, testSetId: string, zipKey: string): UseCaseAnswer {
  return {
    status: 202,
    body: {
      status: 'success',
      message: `Documento ${label} recibido por la DIAN en el set de pruebas ${testSetId}; la validación sigue en proceso. Repita la misma solicitud para consultar el resultado (el documento no se enviará de nuevo).`,
      document: {
        number: label,
        statusCode: null,
        statusDescription: 'En proceso en DIAN (set de pruebas); consulte de nuevo con la misma solicitud.',
        uuid: doc.documentKey,
        zipBase64Bytes: doc.zip ? Buffer.from(doc.zip).toString('base64') : null,
        pdfBase64Bytes: null,
        appResponseBase64Bytes: null,
        attachedDocumentBase64Bytes: null,
        notifications: [],
        zipKey,
      },
    },
    headers: { 'Retry-After': '5' },
  };
}

/** 503: SendTestSetAsync's answer was lost (no ZipKey) and GetStatus by the CUFE has no verdict yet. */
export function testSetUnconfirmedReply(label: string): UseCaseAnswer {
  return {
    status: 503,
    body: {
      status: 'error',
      message: `No se pudo confirmar si la DIAN recibió el documento ${label} en el set de pruebas; reintente la misma solicitud más tarde: se consultará su estado por CUFE y no se enviará de nuevo.`,
      document: null,
    },
    headers: { 'Retry-After': '30' },
  };
}

/** 502: DIAN refused the upload itself (no ZipKey; e.g. a test set it does not know); nothing was received. */
export function testSetUploadRefused(label: string, testSetId: string, upload: DianUploadResponse): UseCaseAnswer {
  const why = upload.items.map((i) => i.processedMessage).filter((m): m is string => !!m);
  return {
    status: 502,
    body: {
      status: 'error',
      message: `La DIAN no recibió el documento ${label} en el set de pruebas ${testSetId}${why.length ? `: ${why.join('; ')}` : ''}. Revise el identificador del set de pruebas de la empresa; el número sigue disponible.`,
      document: null,
    },
  };
}

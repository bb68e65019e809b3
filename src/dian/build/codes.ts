/**
 * The codes the builder writes into a document, computed from the built tree by the same function that recomputes
 * them from a received file (`computeDocumentCodes`, src/dian/codes/from-tree.ts): the document code of the type's
 * row (CUFE with the range's technical key, CUDE or CUDS with the software PIN), the software security code and the
 * QR URL.
 */
import { computeDocumentCodes } from '../codes/from-tree.js';
import type { DocumentTypeRow } from '../spec/kinds.js';
import type { UblNode } from '../ubl/tree.js';
import type { DianContext } from './context.js';

export interface BuiltCodes {
  kind: DocumentTypeRow['hash'];
  hash: string;
  preimage: string;
  securityCode: string;
  qrUrl: string;
}

export function codesFromTree(root: UblNode, ctx: DianContext): { ok: true; value: BuiltCodes } | { ok: false; message: string } {
  const r = computeDocumentCodes(root, { technicalKey: ctx.resolution?.technical_key, pin: ctx.software.pin, softwareId: ctx.software.id });
  if (!r.ok) return { ok: false, message: `No se pudo calcular el código del documento: ${r.message}` };
  if (r.kind === 'eventCude' || !r.securityCode) return { ok: false, message: 'No se pudo calcular el código de seguridad del software.' };
  return { ok: true, value: { kind: r.kind, hash: r.hash, preimage: r.preimage, securityCode: r.securityCode.hash, qrUrl: r.qrUrl } };
}

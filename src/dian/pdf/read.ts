/**
 * A DIAN document's XML (ours or anyone's, signed or not) → the input of its printed representation: the request
 * and context `parseDianDocument` reads back, plus what only the XML holds: the code (`cbc:UUID` and its scheme),
 * the QR text (`sts:QRCode`), the signing time (`xades:SigningTime`). Errors are values with a Spanish message.
 *
 * Pure: no I/O.
 */
import { qrUrl } from '../codes/qr.js';
import { detectDianKind, parseDianDocument } from '../parse/parse.js';
import { readUbl } from '../ubl/read.js';
import { textAt, type UblNode } from '../ubl/tree.js';
import type { DianPdfInput } from './model.js';

/** Why a printed representation was not made. */
export type DianPdfFailure = 'not_xml' | 'unsupported_document' | 'missing_code' | 'invalid_option';

export type DianPdfInputResult = { ok: true; input: DianPdfInput } | { ok: false; code: DianPdfFailure; message: string };

const DIAN_EXT = 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions';
const KEY = /^[0-9a-f]{96}$/;

/** The first element named `name` in `node`'s subtree (depth first), or undefined. */
function find(node: UblNode, name: string): UblNode | undefined {
  for (const c of node.children) {
    if (c.name === name) return c;
    const hit = find(c, name);
    if (hit) return hit;
  }
  return undefined;
}

/** Every `sts:DianExtensions` holder's `sts:QRCode`, whichever UBLExtension carries it. */
function qrCode(root: UblNode): string | undefined {
  const direct = textAt(root, `${DIAN_EXT}/sts:QRCode`);
  if (direct !== undefined) return direct;
  const exts = root.children.find((c) => c.name === 'ext:UBLExtensions');
  return exts ? find(exts, 'sts:QRCode')?.text : undefined;
}

/**
 * Reads a DIAN invoice, note, support document or POS document for printing. The QR encodes the document's own
 * `sts:QRCode` text when it has one (what the issuer declared to DIAN), else DIAN's search URL for its code
 * (`qrUrl`, environment from `cbc:ProfileExecutionID`, habilitación when absent).
 */
export function readDianPdfInput(xml: string | UblNode, options: { providerName?: string } = {}): DianPdfInputResult {
  let root: UblNode;
  if (typeof xml === 'string') {
    const r = readUbl(xml);
    if (!r.ok) return { ok: false, code: 'not_xml', message: r.message };
    root = r.root;
  } else if (xml && typeof xml === 'object' && typeof xml.name === 'string' && Array.isArray(xml.children)) root = xml;
  else return { ok: false, code: 'not_xml', message: 'La entrada debe ser el texto XML del documento.' };
  if (!detectDianKind(root)) {
    return {
      ok: false,
      code: 'unsupported_document',
      message: `No hay representación gráfica para este documento (raíz ${root.name}): se imprimen facturas, notas crédito y débito, documentos soporte y documentos equivalentes P.O.S.`,
    };
  }
  const parsed = parseDianDocument(root);
  if (!parsed.ok) return { ok: false, code: 'unsupported_document', message: parsed.message };
  const uuid = parsed.uuid;
  const declared = qrCode(root)?.trim();
  const environment = textAt(root, 'cbc:ProfileExecutionID')?.trim() === '1' ? '1' : '2';
  let qrText: string;
  if (declared) qrText = declared;
  else if (uuid && KEY.test(uuid)) qrText = qrUrl(uuid, environment);
  else {
    return {
      ok: false,
      code: 'missing_code',
      message: 'El documento no tiene sts:QRCode ni un cbc:UUID (CUFE/CUDE/CUDS) de 96 caracteres hexadecimales: no hay QR que imprimir.',
    };
  }
  const exts = root.children.find((c) => c.name === 'ext:UBLExtensions');
  const signingTime = exts ? find(exts, 'xades:SigningTime')?.text?.trim() : undefined;
  return {
    ok: true,
    input: {
      kind: parsed.kind,
      request: parsed.request,
      context: parsed.context,
      codes: {
        ...(uuid ? { uuid } : {}),
        ...(parsed.uuidScheme ? { scheme: parsed.uuidScheme } : {}),
        qrText,
        ...(signingTime ? { signingTime } : {}),
        ...(options.providerName ? { providerName: options.providerName } : {}),
      },
    },
  };
}

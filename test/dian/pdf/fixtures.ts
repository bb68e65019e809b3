/** Signed DIAN examples for the PDF tests: every kind's maximal example, built and signed with a generated certificate and a fixed clock. */
import { createSelfSignedIdentity, signDianXml } from '../../../src/dian/sign/index.js';
import type { DianKindId } from '../../../src/dian/index.js';
import { buildExample, exampleRequest } from '../helpers/examples.js';

export { decodeQr, pageCount, pageTexts, pdfInfo, pdfText, squash } from '../../ecf/pdf/tools.js';

let identity: ReturnType<typeof createSelfSignedIdentity> | undefined;

/** The signing instant of every fixture: 2025-03-14 10:30:00 in Bogotá. */
export const SIGNED_AT = new Date('2025-03-14T15:30:00.000Z');

/** Signs `xml` with a certificate generated once per run and a fixed clock and Id. */
export async function signFixed(xml: string): Promise<string> {
  identity ??= createSelfSignedIdentity({ commonName: 'Proveedor de prueba', serialNumber: '901458732' });
  const r = await signDianXml(xml, identity.signer, { clock: () => SIGNED_AT, newId: () => 'pdf-test' });
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.xml;
}

/** A kind's maximal example, built (codes from the built XML) and signed. */
export async function signedExample(kind: DianKindId): Promise<{ xml: string; request: Record<string, unknown>; hash: string; qrUrl: string }> {
  const built = buildExample(kind, 'max');
  if (!built.ok) throw new Error(`example ${kind} did not build`);
  return { xml: await signFixed(built.xml), request: exampleRequest(kind, 'max'), hash: built.codes.hash, qrUrl: built.codes.qrUrl };
}

/**
 * What the local DIAN's tests share: a company (the builder fixtures' context: its software id, PIN and technical
 * key) seeded with its range, a buyer company for events, signed invoices and events zipped as DIAN wants them,
 * and clients on the simulator's clock.
 */
import { buildDianEvent, buildDianXml, dianZip } from '../../../src/dian/index.js';
import { signDianXml } from '../../../src/dian/sign/index.js';
import type { DianSimCompany, DianSimRange } from '../../../src/dian/simulator/index.js';
import { createDianClient, type DianClient } from '../../../src/dian/transport/index.js';
import { createSelfSignedIdentity } from '../../../src/shared/xmldsig/self-signed.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { minimalDianRequest } from '../helpers/requests.js';

/** 2024-05-10 10:00:00 in Bogotá: the documents' date, their signing time and the simulator's clock. */
export const NOW = new Date('2024-05-10T15:00:00Z');
export const clock = () => NOW;

export const ISSUER_NIT = '900373076';
export const BUYER_NIT = '900108281';

export const ISSUER: DianSimCompany = { nit: ISSUER_NIT, softwareId: CONTEXT.software.id, pin: CONTEXT.software.pin, testSetId: 'set-0001' };
export const BUYER: DianSimCompany = { nit: BUYER_NIT, softwareId: CONTEXT.software.id, pin: CONTEXT.software.pin };
export const RANGE: DianSimRange = {
  nit: ISSUER_NIT,
  softwareId: CONTEXT.software.id,
  prefix: 'SETP',
  from: '990000000',
  to: '995000000',
  technicalKey: CONTEXT.resolution!.technical_key!,
  resolutionNumber: '18760000001',
  resolutionDate: '2019-01-19',
  validFrom: '2019-01-19',
  validTo: '2030-01-19',
};

const identity = createSelfSignedIdentity({ commonName: 'Emisor de prueba', serialNumber: ISSUER_NIT });
export const signer = identity.signer;

/** The calendar date in Bogotá (UTC−5, no daylight saving) of an instant: a document's issue date. */
export function bogotaDate(at: Date): string {
  return new Date(at.getTime() - 5 * 3_600_000).toISOString().slice(0, 10);
}

/** A signed invoice numbered SETP<number>; `change` edits the request before building, `at` signs (and dates) it. */
export async function signedInvoice(
  number: number,
  change?: (r: Record<string, unknown>) => void,
  at: Date = NOW,
): Promise<{ xml: string; cufe: string; id: string }> {
  const request = minimalDianRequest('invoice') as unknown as Record<string, unknown>;
  request.number = number;
  request.date = bogotaDate(at);
  change?.(request);
  const built = buildDianXml('invoice', request, CONTEXT);
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  const signed = await signDianXml(built.xml, signer, { clock: () => at });
  if (!signed.ok) throw new Error(signed.message);
  const cufe = /<cbc:UUID[^>]*>([0-9a-f]{96})</.exec(signed.xml)![1]!;
  return { xml: signed.xml, cufe, id: `SETP${number}` };
}

/** A signed credit note NC<number> on `invoice` (its CUDE hashed with the software PIN). */
export async function signedCreditNote(number: number, invoice: { id: string; cufe: string }): Promise<{ xml: string; cude: string; id: string }> {
  const request = minimalDianRequest('credit-note') as unknown as Record<string, unknown>;
  request.number = number;
  request.prefix = 'NC';
  request.date = NOW.toISOString().slice(0, 10);
  request.billing_reference = { number: invoice.id, uuid: invoice.cufe, issue_date: NOW.toISOString().slice(0, 10) };
  const built = buildDianXml('credit-note', request, CONTEXT);
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  const signed = await signDianXml(built.xml, signer, { clock });
  if (!signed.ok) throw new Error(signed.message);
  const cude = /<cbc:UUID[^>]*>([0-9a-f]{96})</.exec(signed.xml)![1]!;
  return { xml: signed.xml, cude, id: `NC${number}` };
}

/** An event on `invoice` from the buyer (030–033) or the issuer (034), signed. `edit` changes the XML text before signing. */
export async function signedEvent(
  code: '030' | '031' | '032' | '033' | '034',
  invoice: { id: string; cufe: string },
  number = 1,
  edit?: (xml: string) => string,
) {
  const buyerSends = code !== '034';
  const seller = { identification_type_code: 31, identification_number: ISSUER_NIT, name: 'Emisor S.A.S.' };
  const buyer = { identification_type_code: 31, identification_number: BUYER_NIT, name: 'Comercializadora Andina S.A.S.' };
  const request = {
    event_code: code,
    number,
    identification_number: Number(buyerSends ? BUYER_NIT : ISSUER_NIT),
    sender_party: buyerSends ? buyer : seller,
    ...(buyerSends ? { receiver_party: seller } : {}),
    document_reference: { number: invoice.id, uuid: invoice.cufe },
    person: { identification_type_code: 13, identification_number: '1020304050', first_name: 'Ana', family_name: 'Ruiz' },
    ...(code === '031' ? { rejection_concept_code: '03' } : {}),
    ...(code === '034' ? { notes: [{ text: 'Declaro bajo la gravedad de juramento que han pasado tres días hábiles.' }] } : {}),
  };
  const built = buildDianEvent(request, { ...CONTEXT, now: clock });
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  const xml = edit ? edit(built.xml) : built.xml;
  const signed = await signDianXml(xml, signer, { clock });
  if (!signed.ok) throw new Error(signed.message);
  return { xml: signed.xml, cude: built.cude };
}

/** A zip of files (the name of the first is the zip's). */
export function zipOf(...files: { name: string; xml: string }[]): Uint8Array {
  const z = dianZip(files.map((f) => ({ name: f.name, data: f.xml })));
  if (!z.ok) throw new Error(z.message);
  return z.value;
}

export const zip1 = (xml: string, name = 'fv09003730760002400000001.xml') => zipOf({ name, xml });

/** A client of the simulator on its clock (no real waits between retries). */
export function client(url: string, options: { retries?: number; clockOffsetMs?: number; timeoutMs?: number } = {}): DianClient {
  return createDianClient({
    signer,
    endpoint: url,
    retries: options.retries ?? 0,
    backoffMs: 1,
    timeoutMs: options.timeoutMs ?? 20_000,
    clock: () => new Date(NOW.getTime() + (options.clockOffsetMs ?? 0)),
    sleep: async () => {},
  });
}

/** Events `/v1/031` and `/v1/034` against the local DIAN, after an invoice issued through the server; SQLite and PostgreSQL. */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nitCheckDigit, readUbl } from '../../../../src/dian/index.js';
import { verifyDianXml } from '../../../../src/dian/sign/index.js';
import { at, textAt } from '../../../../src/dian/ubl/tree.js';
import { createDianSchemaValidator } from '../../../../src/dian/xsd/index.js';
import { dianXsdDir } from '../../helpers/env.js';
import { EXAMPLE_NIT, example, type Harness, startHarness } from '../helpers.js';

const xsd = createDianSchemaValidator(dianXsdDir());

/**
 * `attachedDocumentBase64Bytes` of an accepted event: a signed AttachedDocument, valid against the official XSD,
 * whose attachment is the event as zipped and sent and whose DocumentReference carries DIAN's answer, byte for
 * byte; it is stored with the event. Returns the container's root.
 */
async function expectEventAttached(h: Harness, nit: string, event: Record<string, unknown>) {
  const xml = Buffer.from(event.attachedDocumentBase64Bytes as string, 'base64').toString('utf8');
  expect(xsd.validate(xml, 'AttachedDocument')).toEqual({ valid: true, violations: [] });
  expect(verifyDianXml(xml).valid).toBe(true);
  const parsed = readUbl(xml);
  if (!parsed.ok) throw new Error(parsed.message);
  const root = parsed.root;
  const files = unzipSync(Buffer.from(event.Base64Bytes as string, 'base64'));
  const sent = Buffer.from(Object.values(files)[0]!).toString('utf8');
  expect(at(root, 'cac:Attachment/cac:ExternalReference/cbc:Description')?.text).toBe(sent);
  const ref = at(root, 'cac:ParentDocumentLineReference/cac:DocumentReference');
  expect(at(ref, 'cac:Attachment/cac:ExternalReference/cbc:Description')?.text).toBe(
    Buffer.from(event.appResponseBase64Bytes as string, 'base64').toString('utf8'),
  );
  expect(textAt(ref, 'cbc:UUID')).toBe(event.uuid);
  expect(textAt(root, 'cbc:ParentDocumentID')).toBe(event.number);
  const company = await h.server.storage.getCompanyByNit(nit);
  const stored = await h.server.storage.getEventByNumber(company!.id, Number(event.number));
  expect(stored?.attachedDocument).toBe(xml);
  return root;
}

const BUYER_NIT = '900373076';
const PERSON = {
  identification_type_code: 13,
  identification_number: '52123456',
  first_name: 'Laura',
  family_name: 'Castro Peña',
  job_title: 'Jefe de bodega',
};
const NOTE = 'Declaro bajo la gravedad de juramento que han pasado tres días hábiles desde la recepción sin aceptación, rechazo ni reclamo.';

describe.each(['sqlite', 'postgres'] as const)('events on %s', (engine) => {
  let h: Harness;
  let cufe = '';
  const invoiceNumber = 'SETP990000901';
  const post = (path: string, token: string, body: unknown, header = 'Authorization') =>
    h.server.app.request(path, { method: 'POST', headers: { [header]: `Bearer ${token}` }, body: JSON.stringify(body) });
  const claim = (number: number) => ({
    number,
    identification_number: Number(BUYER_NIT),
    sender_party: { identification_type_code: 31, identification_number: BUYER_NIT, name: 'Otra Empresa S.A.S.' },
    receiver_party: { identification_type_code: 31, identification_number: EXAMPLE_NIT, name: 'Ferretería Ejemplo Andina S.A.S.' },
    document_reference: { number: invoiceNumber, uuid: cufe },
    person: PERSON,
    rejection_concept_code: '03',
  });
  const tacit = (number: number) => ({
    number,
    identification_number: Number(EXAMPLE_NIT),
    document_reference: { number: invoiceNumber, uuid: cufe },
    notes: [{ text: NOTE }],
  });

  beforeAll(async () => {
    h = await startHarness(engine);
    // The examples' company invoices the second company of the harness, which then claims it.
    const invoice = example('invoice');
    invoice.number = 990000901;
    invoice.customer = { ...(invoice.customer as object), identification_number: BUYER_NIT, dv: Number(nitCheckDigit(BUYER_NIT)), name: 'Otra Empresa S.A.S.' };
    const r = await post('/service/invoice', h.token, invoice);
    expect(r.status).toBe(200);
    cufe = ((await r.json()) as { document: { uuid: string } }).document.uuid;
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it('031 by the buyer is accepted with the spec shape; a retry returns the stored answer without a second send', async () => {
    const r = await post('/v1/031', h.otherToken, claim(1));
    const body = (await r.json()) as { status: string; event: Record<string, unknown> };
    expect(r.status, JSON.stringify(body)).toBe(200);
    expect(body.status).toBe('success');
    expect(body.event).toMatchObject({ number: '1', statusCode: 5 });
    expect(body.event.uuid).toMatch(/^[0-9a-f]{96}$/);
    const files = unzipSync(Buffer.from(body.event.Base64Bytes as string, 'base64'));
    const [name] = Object.keys(files);
    expect(name).toMatch(/^ar\d+.*\.xml$/);
    const xml = Buffer.from(files[name!]!).toString('utf8');
    expect(xml).toMatch(/<cbc:ResponseCode [^>]*listID="03"[^>]*>031</);
    expect(xml).toContain(`<cbc:UUID schemeName="CUFE-SHA384">${cufe}</cbc:UUID>`);
    expect(Buffer.from(body.event.appResponseBase64Bytes as string, 'base64').toString('utf8')).toContain('ApplicationResponse');
    // The container of the event: the buyer sends it to the issuer.
    const root = await expectEventAttached(h, BUYER_NIT, body.event);
    expect(textAt(root, 'cac:SenderParty/cac:PartyTaxScheme/cbc:CompanyID')).toBe(BUYER_NIT);
    expect(textAt(root, 'cac:ReceiverParty/cac:PartyTaxScheme/cbc:CompanyID')).toBe(EXAMPLE_NIT);
    const sends = h.server.simulator!.stats().requests.SendEventUpdateStatus;
    const again = await post('/v1/031', h.otherToken, claim(1));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { event: { uuid: string } }).event.uuid).toBe(body.event.uuid);
    expect(h.server.simulator!.stats().requests.SendEventUpdateStatus).toBe(sends);
  });

  it('a repeated 031 on the same invoice is DIAN’s LGC01: 422 statusCode 11 with the event CUDE', async () => {
    const r = await post('/v1/031', h.otherToken, claim(2));
    const body = (await r.json()) as { status: string; event: { statusCode: number; uuid: string; errors: string[]; number: string } };
    expect(r.status).toBe(422);
    expect(body.status).toBe('error');
    expect(body.event.statusCode).toBe(11);
    expect(body.event.number).toBe('2');
    expect(body.event.uuid).toMatch(/^[0-9a-f]{96}$/);
    expect(body.event.errors.some((e) => e.startsWith('Regla: LGC01, Rechazo:'))).toBe(true);
  });

  it('034 by the issuer is accepted; without its note it is a 422 statusCode 13 at notes', async () => {
    const missing = await post('/v1/034', h.token, { ...tacit(1), notes: undefined });
    const m = (await missing.json()) as { event: { statusCode: number; detailedErrors: Record<string, string[]> } };
    expect(missing.status).toBe(422);
    expect(m.event.statusCode).toBe(13);
    expect(Object.keys(m.event.detailedErrors).some((k) => k.startsWith('notes'))).toBe(true);
    const ok = await post('/v1/034', h.token, tacit(1));
    expect(ok.status, JSON.stringify(await ok.clone().json())).toBe(200);
    const event = ((await ok.json()) as { event: Record<string, unknown> }).event;
    expect(event.statusCode).toBe(5);
    // 034: the issuer sends it to DIAN, so DIAN is the container's receiver.
    const root = await expectEventAttached(h, EXAMPLE_NIT, event);
    expect(textAt(root, 'cac:SenderParty/cac:PartyTaxScheme/cbc:CompanyID')).toBe(EXAMPLE_NIT);
    expect(textAt(root, 'cac:ReceiverParty/cac:PartyTaxScheme/cbc:CompanyID')).toBe('800197268');
  });

  it('own validations: every problem at its path, under event, nothing sent', async () => {
    const sends = h.server.simulator!.stats().requests.SendEventUpdateStatus ?? 0;
    const bad = { ...claim(3), rejection_concept_code: '09', document_reference: { number: invoiceNumber, uuid: 'not-a-cufe' }, extra: 1 };
    const r = await post('/v1/031', h.otherToken, bad);
    const body = (await r.json()) as {
      status: string;
      event: { statusCode: number; number: string; errors: string[]; detailedErrors: Record<string, string[]> };
    };
    expect(r.status).toBe(422);
    expect(body.event.statusCode).toBe(13);
    expect(Object.keys(body.event.detailedErrors)).toEqual(expect.arrayContaining(['rejection_concept_code', 'document_reference.uuid', 'extra']));
    expect(body.event.errors.length).toBeGreaterThanOrEqual(3);
    expect(h.server.simulator!.stats().requests.SendEventUpdateStatus ?? 0).toBe(sends);
  });

  it('the event is the token company’s: another NIT, another body on a used number, a code other than the route are refused', async () => {
    const asOther = await post('/v1/031', h.token, claim(4));
    expect(asOther.status).toBe(422);
    expect(Object.keys(((await asOther.json()) as { event: { detailedErrors: object } }).event.detailedErrors)).toContain('identification_number');
    const reused = await post('/v1/031', h.otherToken, { ...claim(1), rejection_concept_code: '01' });
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { event: { detailedErrors: object } }).event.detailedErrors).toHaveProperty('number');
    const wrongCode = await post('/v1/031', h.otherToken, { ...claim(5), event_code: '030' });
    expect(wrongCode.status).toBe(422);
    expect(((await wrongCode.json()) as { event: { detailedErrors: object } }).event.detailedErrors).toHaveProperty('event_code');
  });

  it('a lost answer is resolved with GetStatus by the event CUDE, never by sending again', async () => {
    const sim = h.server.simulator!;
    const sends = () => sim.stats().requests.SendEventUpdateStatus ?? 0;
    const before = { send: sends(), status: sim.stats().requests.GetStatus ?? 0 };
    sim.setFaults({ dropAfterRate: 1, operations: ['SendEventUpdateStatus'], limit: 1 });
    const r = await post('/v1/034', h.token, tacit(40));
    sim.setFaults({});
    const body = (await r.json()) as { event: { statusCode: number; uuid: string } };
    // The 034 of this invoice was accepted above: DIAN's verdict on this new one, found by GetStatus, is LGC01.
    expect(r.status, JSON.stringify(body)).toBe(422);
    expect(body.event.statusCode).toBe(11);
    expect(sends()).toBe(before.send + 1);
    expect(sim.stats().requests.GetStatus).toBe(before.status + 1);
  });

  it('an invoice the company issued here: only the issuer’s events (034), with its stored number', async () => {
    const sends = h.server.simulator!.stats().requests.SendEventUpdateStatus ?? 0;
    const asBuyer = {
      ...claim(50),
      identification_number: Number(EXAMPLE_NIT),
      sender_party: { identification_type_code: 31, identification_number: EXAMPLE_NIT, name: 'Ferretería Ejemplo Andina S.A.S.' },
      receiver_party: { identification_type_code: 31, identification_number: BUYER_NIT, name: 'Otra Empresa S.A.S.' },
    };
    const r = await post('/v1/031', h.token, asBuyer);
    expect(r.status).toBe(422);
    expect(((await r.json()) as { event: { detailedErrors: Record<string, string[]> } }).event.detailedErrors['document_reference.uuid']?.[0]).toMatch(
      /emitió este documento \(SETP990000901\)/,
    );
    const wrongNumber = await post('/v1/034', h.token, { ...tacit(51), document_reference: { number: 'SETP990000999', uuid: cufe } });
    expect(wrongNumber.status).toBe(422);
    expect(((await wrongNumber.json()) as { event: { detailedErrors: object } }).event.detailedErrors).toHaveProperty('document_reference.number');
    expect(h.server.simulator!.stats().requests.SendEventUpdateStatus ?? 0).toBe(sends);
  });

  it('needs a bearer token (Authotization is not accepted on events) and answers over real HTTP', async () => {
    expect((await post('/v1/034', h.token, tacit(9), 'Authotization')).status).toBe(401);
    const r = await fetch(`${h.server.url}/v1/034`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(tacit(1)),
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { event: { number: string } }).event.number).toBe('1');
  });
});

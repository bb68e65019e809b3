/**
 * The mail endpoints (`POST /utilities/mail/send`, `GET /utilities/mail/{message_id}`) and `send: true` on an
 * invoice and on an event, delivered to a real SMTP server in process and parsed back.
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSmtp, type TestSmtp, validRequest } from '../../../shared/mail/helpers.js';
import { dianEventRequestJsonSchema, nitCheckDigit } from '../../../../src/dian/index.js';
import { EXAMPLE_NIT, example, type Harness, startHarness } from '../helpers.js';

describe('mail', () => {
  let h: Harness;
  let smtp: TestSmtp;
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    h.server.app.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
  const bearer = () => ({ Authorization: `Bearer ${h.token}` });
  const received = (n: number) => vi.waitFor(() => expect(smtp.received.length).toBeGreaterThanOrEqual(n), { timeout: 15_000, interval: 50 });

  beforeAll(async () => {
    smtp = await startSmtp();
    h = await startHarness('sqlite', { smtpUrl: smtp.url });
  });
  afterAll(async () => {
    await h?.cleanup();
    await smtp?.close();
  });

  it('accepts a mail with the 202 body, under Authorization or the published Authotization spelling, and delivers it', async () => {
    const before = smtp.received.length;
    for (const header of ['Authorization', 'Authotization']) {
      const r = await post('/utilities/mail/send', validRequest([[`ana-${header}@example.com`]]), { [header]: `Bearer ${h.token}` });
      const body = (await r.json()) as Record<string, unknown>;
      expect(r.status).toBe(202);
      expect(body).toMatchObject({ status: 202 });
      expect(typeof body.message).toBe('string');
      expect(body.message_id).toMatch(/\S+/);
      // 2025-03-14 10:00 Bogotá: the harness clock.
      expect(body.date).toBe('2025-03-14 10:00:00');
    }
    expect((await post('/utilities/mail/send', validRequest(), {})).status).toBe(401);
    await received(before + 2);
    const addresses = smtp.received.slice(before).flatMap((m) => (m.to as { value: { address: string }[] }).value.map((v) => v.address));
    expect(addresses.sort()).toEqual(['ana-Authorization@example.com', 'ana-Authotization@example.com']);
  });

  it('refuses an invalid request with the 422 body of field paths', async () => {
    const req = validRequest();
    req.attachments = [{ content: 'aGVsbG8=', filename: 'a.txt' }];
    req.from.extra = true;
    req.personalizations[0].to[0].email = 42;
    const r = await post('/utilities/mail/send', req, bearer());
    const body = (await r.json()) as { errors: { message: string; field: string; help: unknown }[] };
    expect(r.status).toBe(422);
    expect(body.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['attachments.0.mime', 'from.extra', 'personalizations.0.to.0.email']));
    for (const e of body.errors) expect(e).toEqual({ message: expect.any(String), field: expect.any(String), help: null });
  });

  it('answers a mail’s events by message_id to its company only', async () => {
    const r = await post('/utilities/mail/send', validRequest([['luis@example.com']]), bearer());
    const id = ((await r.json()) as { message_id: string }).message_id;
    await vi.waitFor(
      async () => {
        const ev = await h.server.app.request(`/utilities/mail/${id}`, { headers: { Authotization: `Bearer ${h.token}` } });
        expect(ev.status).toBe(200);
        const body = (await ev.json()) as { events: { type: string }[] };
        expect(body.events.map((e) => e.type)).toEqual(['queued', 'sent']);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect((await h.server.app.request(`/utilities/mail/${id}`, { headers: { Authorization: `Bearer ${h.otherToken}` } })).status).toBe(404);
  });

  it('send: true on an accepted invoice mails the customer its PDF and the zipped AttachedDocument', async () => {
    const before = smtp.received.length;
    const invoice: Record<string, unknown> = { ...example('invoice'), number: 990000951, send: true };
    const r = await post('/service/invoice', invoice, bearer());
    const doc = ((await r.json()) as { document: Record<string, string> }).document;
    expect(r.status).toBe(200);
    await received(before + 1);
    const mail = smtp.received[before]!;
    expect((mail.to as { value: { address: string }[] }).value.map((v) => v.address)).toEqual([(invoice.customer as { email: string }).email]);
    expect(mail.subject).toContain('SETP990000951');
    expect(mail.headers.get('x-message-uuid')).toBe(doc.uuid);
    const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf')!;
    expect(pdf.content.equals(Buffer.from(doc.pdfBase64Bytes!, 'base64'))).toBe(true);
    const zip = mail.attachments.find((a) => a.contentType === 'application/zip')!;
    const files = unzipSync(zip.content);
    const [name] = Object.keys(files);
    expect(name).toMatch(/^ad/);
    expect(Buffer.from(files[name!]!).equals(Buffer.from(doc.attachedDocumentBase64Bytes!, 'base64'))).toBe(true);
  });

  it('send: true on an accepted 034 mails the sending company the event zip, DIAN’s answer and the zipped AttachedDocument', async () => {
    const invoice = await post('/service/invoice', { ...example('invoice'), number: 990000952 }, bearer());
    const cufe = ((await invoice.json()) as { document: { uuid: string } }).document.uuid;
    const before = smtp.received.length;
    const r = await post(
      '/v1/034',
      {
        send: true,
        number: 77,
        identification_number: Number(EXAMPLE_NIT),
        document_reference: { number: 'SETP990000952', uuid: cufe },
        notes: [{ text: 'Declaro bajo juramento que transcurrieron tres días hábiles sin aceptación, rechazo ni reclamo.' }],
      },
      bearer(),
    );
    const ev = ((await r.json()) as { event: Record<string, string> }).event;
    expect(r.status).toBe(200);
    await received(before + 1);
    const mail = smtp.received[before]!;
    expect((mail.to as { value: { address: string }[] }).value.map((v) => v.address)).toEqual(['facturacion@ferreteria-ejemplo.example']);
    expect(mail.headers.get('x-message-uuid')).toBe(ev.uuid);
    const zip = mail.attachments.find((a) => a.contentType === 'application/zip')!;
    expect(zip.content.equals(Buffer.from(ev.Base64Bytes!, 'base64'))).toBe(true);
    expect(mail.attachments.some((a) => a.contentType === 'application/xml' && a.content.toString('utf8').includes('ApplicationResponse'))).toBe(true);
    // The event's AttachedDocument, zipped as a document's is: byte for byte the one answered.
    const zips = mail.attachments.filter((a) => a.contentType === 'application/zip');
    expect(zips).toHaveLength(2);
    const inner = unzipSync(new Uint8Array(zips[1]!.content));
    const [name] = Object.keys(inner);
    expect(name).toMatch(/^ad\d+.*\.xml$/);
    expect(Buffer.from(inner[name!]!).toString('utf8')).toBe(Buffer.from(ev.attachedDocumentBase64Bytes!, 'base64').toString('utf8'));
  });

  it('send: true on an accepted 031 by the buyer queues the claim mail (the parties: mail-notices.test.ts)', async () => {
    const buyer = '900373076';
    const invoice: Record<string, unknown> = { ...example('invoice'), number: 990000953 };
    invoice.customer = { ...(invoice.customer as object), identification_number: buyer, dv: Number(nitCheckDigit(buyer)), name: 'Otra Empresa S.A.S.' };
    const issued = await post('/service/invoice', invoice, bearer());
    expect(issued.status).toBe(200);
    const cufe = ((await issued.json()) as { document: { uuid: string } }).document.uuid;
    const before = smtp.received.length;
    const r = await post(
      '/v1/031',
      {
        send: true,
        number: 1,
        identification_number: Number(buyer),
        receiver_party: { identification_type_code: 31, identification_number: EXAMPLE_NIT, name: 'Ferretería Ejemplo Andina S.A.S.' },
        document_reference: { number: 'SETP990000953', uuid: cufe },
        rejection_concept_code: '02',
      },
      { Authorization: `Bearer ${h.otherToken}` },
    );
    expect(r.status).toBe(200);
    await received(before + 1);
    // Both companies of the harness share the examples' profile e-mail: one address, one message.
    const mail = smtp.received[before]!;
    expect((mail.to as { value: { address: string }[] }).value.map((v) => v.address)).toEqual(['facturacion@ferreteria-ejemplo.example']);
    expect(mail.subject).toContain('Reclamo');
  });

  it('the OpenAPI document lists the event and mail routes with their schemas and the Authotization header', async () => {
    const doc = (await (await h.server.app.request('/service/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    // Each route's request schema is the SDK's, generated for that code from the rows validateDianEvent checks with.
    for (const code of ['031', '034'] as const) {
      expect(doc.paths[`/v1/${code}`]?.post?.requestBody?.content['application/json']?.schema.$ref).toBe(`#/components/schemas/EventRequest${code}`);
      const { $schema: _s, $id: _i, ...generated } = dianEventRequestJsonSchema(code);
      expect(doc.components.schemas[`EventRequest${code}`]).toEqual(generated);
      expect(doc.components.schemas[`EventRequest${code}`]?.required).toEqual(['number', 'identification_number', 'document_reference']);
    }
    const mail = doc.paths['/utilities/mail/send']?.post;
    expect(mail?.parameters?.map((p) => p.name)).toContain('Authotization');
    // The mail request schema is the mail service's own (zod → JSON Schema), so it names the contract's fields.
    expect(Object.keys(doc.components.schemas.MailRequest?.properties ?? {}).sort()).toEqual(['attachments', 'email_to_notify', 'from', 'personalizations']);
  });
});

/** The mail request schema: what it accepts, and the contract's 422 body for each kind of problem. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentMailRequest, toBase64 } from '../../../src/shared/mail/document-mail.js';
import { mailAcceptedBody, validateMailRequest } from '../../../src/shared/mail/request.js';
import { validRequest } from './helpers.js';

function errorsOf(input: unknown) {
  const r = validateMailRequest(input);
  if (r.ok) throw new Error('expected a 422');
  return r.body.errors;
}

describe('validateMailRequest', () => {
  it('accepts the contract fields, attachments and extra custom_args', () => {
    const req = validRequest([['a@example.com', 'b@example.com'], ['c@example.com']]);
    req.attachments = [{ content: 'JVBERi0xLjcK', mime: 'application/pdf', filename: 'FES-SETP990000001.pdf' }];
    req.personalizations[0].custom_args.tracking_id = 'abc';
    req.personalizations[0].dynamic_template_data.body.alternative_text = 'Gracias por su compra';
    req.email_to_notify = [{ name: 'Contador', email: 'conta@example.com' }];
    const r = validateMailRequest(req);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.personalizations[0]!.custom_args.tracking_id).toBe('abc');
  });

  it('reports a wrong type deep in a nested array with its exact path, in Spanish', () => {
    const req = validRequest();
    req.attachments = [
      { content: 'QUJD', mime: 'text/xml', filename: 'a.xml' },
      { content: 'QUJD', mime: 42, filename: 'b.xml' },
    ];
    expect(errorsOf(req)).toEqual([
      { field: 'attachments.1.mime', message: "El campo 'attachments.1.mime' debe ser un texto; se recibió un número.", help: null },
    ]);
  });

  it('reports each unknown property by its path, at the top and nested', () => {
    const req = validRequest();
    req.cc = [{ email: 'x@example.com' }];
    req.personalizations[0].to[0].phone = '123';
    req.personalizations[0].dynamic_template_data.footer.fax = '1';
    const errors = errorsOf(req);
    expect(errors.map((e) => e.field).sort()).toEqual(['cc', 'personalizations.0.dynamic_template_data.footer.fax', 'personalizations.0.to.0.phone']);
    expect(errors.find((e) => e.field === 'cc')!.message).toBe("La propiedad 'cc' no está permitida.");
  });

  it('reports every missing required field, not only the first', () => {
    const req = validRequest();
    delete req.from;
    delete req.personalizations[0].custom_args.message_uuid;
    delete req.personalizations[0].dynamic_template_data.body.uuid;
    req.attachments = [{ content: 'QUJD', filename: 'a.pdf' }];
    const errors = errorsOf(req);
    expect(errors.map((e) => e.field).sort()).toEqual([
      'attachments.0.mime',
      'from',
      'personalizations.0.custom_args.message_uuid',
      'personalizations.0.dynamic_template_data.body.uuid',
    ]);
    expect(errors.find((e) => e.field === 'from')!.message).toBe("El campo 'from' es obligatorio.");
  });

  it('checks formats: e-mail, base64, MIME type, file name, environment, custom_args names and values', () => {
    const req = validRequest();
    req.personalizations[0].to[0].email = 'not-an-address';
    req.personalizations[0].custom_args.environment = '3';
    req.attachments = [{ content: 'no base64!', mime: 'pdf', filename: '../etc/passwd' }];
    const errors = errorsOf(req);
    const byField = Object.fromEntries(errors.map((e) => [e.field, e.message]));
    expect(Object.keys(byField).sort()).toEqual([
      'attachments.0.content',
      'attachments.0.filename',
      'attachments.0.mime',
      'personalizations.0.custom_args.environment',
      'personalizations.0.to.0.email',
    ]);
    expect(byField['personalizations.0.to.0.email']).toMatch(/dirección de correo válida/);
    expect(byField['attachments.0.content']).toMatch(/base64/);

    const args = validRequest();
    args.personalizations[0].custom_args['bad name'] = 'x';
    args.personalizations[0].custom_args.count = 3;
    expect(errorsOf(args).map((e) => e.field)).toEqual(['personalizations.0.custom_args.bad name', 'personalizations.0.custom_args.count']);
  });

  it('rejects a body that is not an object, and empty lists', () => {
    expect(errorsOf([])).toEqual([{ field: '', message: "El campo '' debe ser un objeto; se recibió una lista.", help: null }]);
    const req = validRequest();
    req.personalizations = [];
    expect(errorsOf(req)).toEqual([{ field: 'personalizations', message: "El campo 'personalizations' debe tener al menos 1 elemento(s).", help: null }]);
  });
});

describe('validateMailRequest on hostile input', () => {
  it('never throws: any JSON value, or a valid request with any member replaced, gives ok or the 422 shape', () => {
    const check = (input: unknown) => {
      const r = validateMailRequest(input);
      if (r.ok) return;
      expect(r.body.errors.length).toBeGreaterThan(0);
      for (const e of r.body.errors) {
        expect(typeof e.field).toBe('string');
        expect(e.message).toMatch(/^(El campo|La propiedad|Los adjuntos)/);
        expect(e.help).toBeNull();
      }
    };
    fc.assert(fc.property(fc.jsonValue(), check), { numRuns: 300 });
    const paths = [
      'from',
      'from.email',
      'personalizations',
      'personalizations.0',
      'personalizations.0.to.0',
      'personalizations.0.custom_args',
      'personalizations.0.dynamic_template_data.body',
      'email_to_notify',
      'attachments',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue(), (path, value) => {
        const req = validRequest();
        req.attachments = [{ content: 'QUJD', mime: 'text/plain', filename: 'a.txt' }];
        const keys = path.split('.');
        let at = req;
        for (const k of keys.slice(0, -1)) at = at[k];
        at[keys.at(-1)!] = value;
        check(req);
      }),
      { numRuns: 300 },
    );
  });
});

describe('mailAcceptedBody', () => {
  it('writes the acceptance time on Bogotá wall clock (UTC−5), whatever the host zone', () => {
    expect(mailAcceptedBody('m-1', new Date('2026-01-01T03:04:05Z'))).toEqual({
      status: 202,
      message: 'Correo aceptado y en cola de envío.',
      message_id: 'm-1',
      date: '2025-12-31 22:04:05',
    });
  });
});

describe('documentMailRequest', () => {
  it('builds a valid request with the files base64-encoded as attachments', () => {
    const bytes = new Uint8Array(300).map((_, i) => (i * 37) % 256);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    for (const n of [0, 1, 2, 3, 4]) expect(toBase64(bytes.subarray(0, n))).toBe(Buffer.from(bytes.subarray(0, n)).toString('base64'));
    const req = documentMailRequest({
      from: { email: 'facturas@empresa.example' },
      to: [{ email: 'cliente@example.com', name: 'Cliente' }],
      template: validRequest().personalizations[0].dynamic_template_data,
      customArgs: { message_uuid: 'cufe-1', environment: '1' },
      files: [
        { filename: 'f.pdf', mime: 'application/pdf', content: bytes },
        { filename: 'f.zip', mime: 'application/zip', content: bytes.subarray(0, 10) },
      ],
    });
    const r = validateMailRequest(req);
    expect(r.ok).toBe(true);
    expect(req.attachments!.map((a) => Buffer.from(a.content, 'base64').length)).toEqual([300, 10]);
  });
});

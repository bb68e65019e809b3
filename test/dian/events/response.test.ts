/**
 * parseDianApplicationResponse on DIAN's answer (fixtures written for this kit from the structure of §5.4, §5.5
 * and §8, fictitious values): validated with a notification, rejected with several rules in both line forms,
 * and what is not DIAN's answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDianEvent, parseDianApplicationResponse } from '../../../src/dian/index.js';
import { createDianSchemaValidator } from '../../../src/dian/xsd/index.js';
import { dianXsdDir, repoRoot } from '../helpers/env.js';
import { EVENT_CONTEXT, eventRequest } from './fixtures.js';

const dir = join(repoRoot, 'test/dian/fixtures/events');
const fixture = (name: string) => readFileSync(join(dir, name), 'utf8');
const CUFE = '80a6205fb5cf2bc487eaf5652d8065414a68de13559c21e3c5cc16d1fa24bd5e4e9ff07b9b8c54984d38fc4b87e3e6bc';
const NOTICE = {
  line: '2',
  code: 'FAJ43b',
  rule: 'FAJ43b',
  kind: 'Notificación',
  text: 'El nombre del adquiriente no coincide con el registrado en el RUT para el NIT informado.',
};

describe('parseDianApplicationResponse', () => {
  it('the fixtures are ApplicationResponses the official XSD accepts', () => {
    const v = createDianSchemaValidator(dianXsdDir());
    for (const f of ['dian-response-valid.xml', 'dian-response-rejected.xml'])
      expect(v.validate(fixture(f), 'ApplicationResponse'), f).toEqual({ valid: true, violations: [] });
  });

  it('reads a validated document (02): the key it answers, its status lines and a notification', () => {
    expect(parseDianApplicationResponse(fixture('dian-response-valid.xml'))).toEqual({
      ok: true,
      isValid: true,
      responseCode: '02',
      description: 'Documento validado por la DIAN',
      documentKey: CUFE,
      documentKeyScheme: 'CUFE-SHA384',
      documentId: 'SETP990000123',
      id: '90000012',
      uuid: expect.stringMatching(/^[0-9a-f]{96}$/),
      issueDate: '2025-03-14',
      issueTime: '09:41:07-05:00',
      senderId: '800197268',
      receiverId: '901458732',
      messages: [
        { line: '1', code: '0000', kind: 'Información', text: '0' },
        NOTICE,
        { line: '3', code: '0', kind: 'Información', text: 'La Factura electrónica SETP-990000123, ha sido autorizada.' },
      ],
    });
  });

  it('reads a rejected document (04) with several rules, in the `Regla: X, Rechazo:` form and with the rule as the code', () => {
    const r = parseDianApplicationResponse(fixture('dian-response-rejected.xml'));
    if (!r.ok) throw new Error(r.message);
    expect([r.isValid, r.responseCode, r.description, r.documentKey]).toEqual([false, '04', 'Documento rechazado por la DIAN', CUFE]);
    expect(r.messages.map((m) => [m.rule, m.kind])).toEqual([
      [undefined, 'Información'],
      ['FAU04', 'Rechazo'],
      ['FAD09e', 'Rechazo'],
      ['FAB10a', 'Rechazo'],
      ['FAJ43b', 'Notificación'],
    ]);
    expect(r.messages[1]).toEqual({
      line: '2',
      code: 'FAU04',
      rule: 'FAU04',
      kind: 'Rechazo',
      text: 'La base imponible total no es igual a la suma de las bases imponibles de las líneas del documento.',
    });
    expect(r.messages[3]!.text).toBe('El prefijo del documento no corresponde al del rango de numeración autorizado.');
    expect(r.messages[4]).toEqual({ ...NOTICE, line: '5' });
  });

  it('a line whose text does not say its kind is kept, unclassified', () => {
    const xml = fixture('dian-response-rejected.xml').replace('Rechazo: El prefijo', 'El prefijo');
    const r = parseDianApplicationResponse(xml);
    expect(r.ok && r.messages[3]).toEqual({
      line: '4',
      code: 'FAB10a',
      rule: 'FAB10a',
      kind: 'Sin clasificar',
      text: 'El prefijo del documento no corresponde al del rango de numeración autorizado.',
    });
  });

  it('refuses, as values, XML that is not DIAN’s answer', () => {
    expect(parseDianApplicationResponse('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>')).toEqual({
      ok: false,
      message: 'Se esperaba el ApplicationResponse de la DIAN, no Invoice.',
    });
    expect(parseDianApplicationResponse('<ApplicationResponse')).toMatchObject({ ok: false, message: expect.stringContaining('no está bien formado') });
    const noResponse = fixture('dian-response-valid.xml').replace(/<cac:DocumentResponse>[\s\S]*<\/cac:DocumentResponse>/, '');
    expect(parseDianApplicationResponse(noResponse)).toEqual({
      ok: false,
      message: 'El ApplicationResponse no tiene cac:DocumentResponse/cac:Response/cbc:ResponseCode.',
    });
    const event = buildDianEvent(eventRequest('033'), EVENT_CONTEXT);
    if (!event.ok) throw new Error('built');
    expect(parseDianApplicationResponse(event.xml)).toEqual({
      ok: false,
      message: 'El ApplicationResponse es un evento (033), no la respuesta de la DIAN; léalo con parseDianEvent.',
    });
  });
});

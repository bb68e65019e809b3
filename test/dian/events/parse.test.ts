/**
 * parseDianEvent: the round trip parse(build(x)) = x for every event, and DIAN's toolbox samples 030–034 read
 * without losing a value the request carries (each checked against the element it comes from), then rebuilt.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDianEvent, DIAN_EVENT_CODES, parseDianEvent, readUbl, type DianEventRequest } from '../../../src/dian/index.js';
import { all, at, attr, textAt } from '../../../src/dian/ubl/tree.js';
import { repoRoot } from '../helpers/env.js';
import { EVENT_CONTEXT, EVENT_REQUESTS, eventRequest } from './fixtures.js';

const TOOLBOX = join(repoRoot, 'test/dian/fixtures/toolbox');
const SAMPLES: Record<string, string> = {
  '030': '030-acuse-recibofev.xml',
  '031': '031-reclamo-de-la-factura-electronica-de-venta.xml',
  '032': '032-recibo-bys.xml',
  '033': '033-aceptacion-expresa.xml',
  '034': '034-aceptacion-tacita-fev.xml',
};

describe('parseDianEvent round trip', () => {
  it.each(EVENT_REQUESTS)('%s: parse(build(x)) equals x, with the id, prefix, CUDE, date and time written', (code, request) => {
    const r = buildDianEvent(request, EVENT_CONTEXT, { prefix: 'EV' });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const p = parseDianEvent(r.xml);
    expect(p).toEqual({
      ok: true,
      code,
      request,
      id: 'EV7',
      prefix: 'EV',
      cude: r.cude,
      issueDate: '2024-05-10',
      issueTime: '10:00:00-05:00',
      environment: '2',
      software: { id: EVENT_CONTEXT.software.id, provider_nit: EVENT_CONTEXT.software.provider_nit, provider_dv: EVENT_CONTEXT.software.provider_dv },
    });
  });

  it('without sender_party, the context company comes back as the sender; send is not written', () => {
    const { sender_party: _, ...rest } = eventRequest('033');
    const r = buildDianEvent({ ...rest, send: true }, EVENT_CONTEXT);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const p = parseDianEvent(r.xml);
    if (!p.ok) throw new Error(p.message);
    expect(p.request).toEqual({
      ...rest,
      sender_party: { identification_type_code: 31, identification_number: String(rest.identification_number), name: EVENT_CONTEXT.company.name },
    });
  });

  it('refuses what is not an event, as a value', () => {
    expect(parseDianEvent('<Invoice/>')).toEqual({ ok: false, message: 'Se esperaba un ApplicationResponse, no Invoice.' });
    expect(parseDianEvent('not xml')).toMatchObject({ ok: false });
    const r = buildDianEvent(eventRequest('030'), EVENT_CONTEXT);
    if (!r.ok) throw new Error('built');
    const dianAnswer = r.xml.replace('<cbc:ResponseCode>030<', '<cbc:ResponseCode>02<');
    expect(parseDianEvent(dianAnswer)).toMatchObject({ ok: false, message: expect.stringContaining('parseDianApplicationResponse') });
  });
});

describe("DIAN's toolbox event samples", () => {
  it.each(DIAN_EVENT_CODES)('%s reads without losing a value the request carries', (code) => {
    const xml = readFileSync(join(TOOLBOX, SAMPLES[code]!), 'utf8');
    const p = parseDianEvent(xml);
    if (!p.ok) throw new Error(p.message);
    const tree = readUbl(xml);
    if (!tree.ok) throw new Error(tree.message);
    const t = tree.root;
    const q: DianEventRequest = p.request;
    expect(p.code).toBe(code);
    expect(p.id).toBe(textAt(t, 'cbc:ID'));
    expect(`${p.prefix}${String(q.number).padStart(p.id.length - p.prefix.length, '0')}`).toBe(p.id);
    expect(p.cude).toBe(textAt(t, 'cbc:UUID'));
    const sender = at(t, 'cac:SenderParty/cac:PartyTaxScheme')!;
    expect(q.sender_party).toEqual({
      identification_type_code: Number(attr(at(sender, 'cbc:CompanyID'), 'schemeName')),
      identification_number: textAt(sender, 'cbc:CompanyID'),
      name: textAt(sender, 'cbc:RegistrationName'),
    });
    expect(String(q.identification_number)).toBe(textAt(sender, 'cbc:CompanyID'));
    const receiverId = textAt(t, 'cac:ReceiverParty/cac:PartyTaxScheme/cbc:CompanyID');
    if (code === '034') {
      expect(receiverId).toBe('800197268');
      expect(q.receiver_party).toBeUndefined();
    } else {
      expect(q.receiver_party?.identification_number).toBe(receiverId);
      expect(q.receiver_party?.name).toBe(textAt(t, 'cac:ReceiverParty/cac:PartyTaxScheme/cbc:RegistrationName'));
    }
    expect(q.document_reference).toEqual({
      number: textAt(t, 'cac:DocumentResponse/cac:DocumentReference/cbc:ID'),
      uuid: textAt(t, 'cac:DocumentResponse/cac:DocumentReference/cbc:UUID'),
    });
    expect(q.rejection_concept_code).toBe(attr(at(t, 'cac:DocumentResponse/cac:Response/cbc:ResponseCode'), 'listID'));
    expect((q.notes ?? []).map((n) => n.text)).toEqual(all(t, 'cbc:Note').map((n) => n.text!.trim()));
    const person = at(t, 'cac:DocumentResponse/cac:IssuerParty/cac:Person');
    if (person) {
      expect(q.person).toMatchObject({
        identification_number: textAt(person, 'cbc:ID'),
        first_name: textAt(person, 'cbc:FirstName'),
        family_name: textAt(person, 'cbc:FamilyName'),
        job_title: textAt(person, 'cbc:JobTitle'),
        organization_department: textAt(person, 'cbc:OrganizationDepartment'),
      });
    } else expect(q.person).toBeUndefined();
  });

  it('the 031 sample carries claim concept 02 and the 032 sample the receiving person', () => {
    const p031 = parseDianEvent(readFileSync(join(TOOLBOX, SAMPLES['031']!), 'utf8'));
    expect(p031).toMatchObject({ ok: true, request: { rejection_concept_code: '02', document_reference: { number: 'NALF110' } } });
    const p032 = parseDianEvent(readFileSync(join(TOOLBOX, SAMPLES['032']!), 'utf8'));
    expect(p032).toMatchObject({
      ok: true,
      request: { person: { identification_type_code: 13, identification_number: '987654321', first_name: 'Alberto', family_name: 'Perez' } },
    });
  });

  it.each(DIAN_EVENT_CODES)('%s rebuilds from what was read, and reads back the same', (code) => {
    const p = parseDianEvent(readFileSync(join(TOOLBOX, SAMPLES[code]!), 'utf8'));
    if (!p.ok) throw new Error(p.message);
    const r = buildDianEvent(p.request, EVENT_CONTEXT, { prefix: p.prefix });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const again = parseDianEvent(r.xml);
    expect(again).toMatchObject({ ok: true, code, request: p.request });
  });
});

/**
 * buildDianEvent: every event 030–034 from its row; the CUDE written is eventCude over the values written (and
 * the code the tree recomputation finds); the order of every element is the XSD's; the role rules refuse with
 * Spanish messages at the field's path.
 */
import { describe, expect, it } from 'vitest';
import { readUblSchema } from '../../../scripts/dian/ubl-schema.js';
import {
  buildDianEvent,
  computeDocumentCodes,
  DIAN_EVENTS,
  eventCude,
  nitCheckDigit,
  qrUrl,
  readUbl,
  softwareSecurityCode,
  type DianEventRequest,
  type UblNode,
} from '../../../src/dian/index.js';
import { all, attr, at, textAt } from '../../../src/dian/ubl/tree.js';
import { dianXsdDir } from '../helpers/env.js';
import { EVENT_CONTEXT, EVENT_REQUESTS, eventRequest, INVOICE_REF } from './fixtures.js';

function built(request: unknown, prefix?: string) {
  const r = buildDianEvent(request, EVENT_CONTEXT, prefix === undefined ? {} : { prefix });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r;
}

function issuesOf(request: unknown) {
  const r = buildDianEvent(request, EVENT_CONTEXT);
  if (r.ok) throw new Error('expected issues');
  return r.issues.map((i) => ({ path: i.path, message: i.message, ...(i.ruleId ? { ruleId: i.ruleId } : {}) }));
}

const schema = readUblSchema(dianXsdDir());

/** Every element's children follow its XSD sequence (indices never go back); returns the offending paths. */
function outOfOrder(node: UblNode, path: string, type: string | null): string[] {
  if (node.name === 'ext:ExtensionContent') return []; // lax content (DianExtensions: order of §1.4, checked below)
  const refs = schema.childrenOf(type ?? node.name);
  const out: string[] = [];
  let last = -1;
  for (const c of node.children) {
    const i = refs.findIndex((r) => r.element === c.name);
    if (i < 0 || i < last) out.push(`${path}/${c.name}`);
    last = Math.max(last, i);
    if (i >= 0 && c.children.length > 0) out.push(...outOfOrder(c, `${path}/${c.name}`, null));
  }
  return out;
}

describe('buildDianEvent', () => {
  it.each(EVENT_REQUESTS)('builds %s with the row’s code, description, parties and the XSD order', (code, request) => {
    const r = built(request, 'EV');
    const root = r.tree;
    const row = DIAN_EVENTS[code];
    expect(outOfOrder(root, 'ApplicationResponse', 'ar:ApplicationResponse')).toEqual([]);
    expect(textAt(root, 'cbc:ID')).toBe('EV7');
    expect(textAt(root, 'cac:DocumentResponse/cac:Response/cbc:ResponseCode')).toBe(code);
    expect(textAt(root, 'cac:DocumentResponse/cac:Response/cbc:Description')).toBe(row.description);
    expect(textAt(root, 'cbc:ProfileID')).toBe('DIAN 2.1: ApplicationResponse de la Factura Electrónica de Venta');
    expect(textAt(root, 'cbc:IssueDate')).toBe('2024-05-10');
    expect(textAt(root, 'cbc:IssueTime')).toBe('10:00:00-05:00');
    const receiverId = textAt(root, 'cac:ReceiverParty/cac:PartyTaxScheme/cbc:CompanyID');
    expect(receiverId).toBe(row.receiver === 'dian' ? '800197268' : request.receiver_party!.identification_number);
    expect(textAt(root, 'cac:SenderParty/cac:PartyTaxScheme/cbc:CompanyID')).toBe(String(request.identification_number));
    const ref = at(root, 'cac:DocumentResponse/cac:DocumentReference')!;
    expect([textAt(ref, 'cbc:ID'), textAt(ref, 'cbc:UUID'), attr(at(ref, 'cbc:UUID'), 'schemeName'), textAt(ref, 'cbc:DocumentTypeCode')]).toEqual([
      INVOICE_REF.number,
      INVOICE_REF.uuid,
      'CUFE-SHA384',
      '01',
    ]);
    // the last ExtensionContent is the empty place of the signature; DianExtensions in the order of §1.4
    const contents = all(root, 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent');
    expect(contents).toHaveLength(2);
    expect(contents[1]!.children).toEqual([]);
    expect(contents[0]!.children[0]!.children.map((c) => c.name)).toEqual([
      'sts:InvoiceSource',
      'sts:SoftwareProvider',
      'sts:SoftwareSecurityCode',
      'sts:AuthorizationProvider',
      'sts:QRCode',
    ]);
  });

  it.each(EVENT_REQUESTS)('writes in %s the CUDE eventCude gives over the written values, and the tree recomputes it', (code, request) => {
    const r = built(request, 'EV');
    const root = readUbl(r.xml);
    if (!root.ok) throw new Error(root.message);
    const t = root.root;
    const expected = eventCude({
      id: 'EV7',
      issueDate: '2024-05-10',
      issueTime: '10:00:00-05:00',
      senderCompanyId: String(request.identification_number),
      receiverCompanyId: DIAN_EVENTS[code].receiver === 'dian' ? '800197268' : request.receiver_party!.identification_number,
      responseCode: code,
      documentReferenceId: INVOICE_REF.number,
      documentReferenceTypeCode: '01',
      softwarePin: EVENT_CONTEXT.software.pin,
    });
    expect(r.cude).toBe(expected.hash);
    expect(r.cudePreimage).toBe(expected.preimage);
    expect(textAt(t, 'cbc:UUID')).toBe(expected.hash);
    expect(attr(at(t, 'cbc:UUID'), 'schemeName')).toBe('CUDE-SHA384');
    expect(attr(at(t, 'cbc:UUID'), 'schemeID')).toBe('2');
    const codes = computeDocumentCodes(t, { pin: EVENT_CONTEXT.software.pin });
    expect(codes).toMatchObject({ ok: true, kind: 'eventCude', hash: expected.hash, matches: true, schemeMatches: true, securityCode: { matches: true } });
    const dian = 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions';
    expect(textAt(t, `${dian}/sts:SoftwareSecurityCode`)).toBe(
      softwareSecurityCode({ softwareId: EVENT_CONTEXT.software.id, softwarePin: EVENT_CONTEXT.software.pin, number: 'EV7' }).hash,
    );
    expect(textAt(t, `${dian}/sts:QRCode`)).toBe(qrUrl(INVOICE_REF.uuid, '2'));
  });

  it('writes the 031 claim concept as listID and its name, and the sender and receiver NITs with their check digits', () => {
    const t = built(eventRequest('031')).tree;
    const rc = at(t, 'cac:DocumentResponse/cac:Response/cbc:ResponseCode')!;
    expect(rc.attrs).toEqual([
      ['name', 'Mercancía entregada parcialmente'],
      ['listID', '03'],
    ]);
    const sender = at(t, 'cac:SenderParty/cac:PartyTaxScheme/cbc:CompanyID')!;
    expect([attr(sender, 'schemeID'), attr(sender, 'schemeName')]).toEqual([nitCheckDigit('900108281'), '31']);
    expect(attr(at(t, 'cac:ReceiverParty/cac:PartyTaxScheme/cbc:CompanyID'), 'schemeID')).toBe('9');
    // the person: a cédula carries no check digit
    expect(at(t, 'cac:DocumentResponse/cac:IssuerParty/cac:Person/cbc:ID')!.attrs).toEqual([['schemeName', '13']]);
  });

  it('writes the context company as the sender when the request has no sender_party', () => {
    const { sender_party: _, ...rest } = eventRequest('030');
    const t = built(rest).tree;
    expect(textAt(t, 'cac:SenderParty/cac:PartyTaxScheme/cbc:RegistrationName')).toBe(EVENT_CONTEXT.company.name);
    expect(textAt(t, 'cac:SenderParty/cac:PartyTaxScheme/cac:TaxScheme/cbc:Name')).toBe('IVA');
  });

  it('the 034 receiver is DIAN (NIT 800197268, DV 4) without the request naming it', () => {
    const t = built(eventRequest('034')).tree;
    const id = at(t, 'cac:ReceiverParty/cac:PartyTaxScheme/cbc:CompanyID')!;
    expect([id.text, attr(id, 'schemeID'), attr(id, 'schemeName')]).toEqual(['800197268', '4', '31']);
  });

  it('the same request and clock give the same bytes', () => {
    expect(built(eventRequest('032')).xml).toBe(built(eventRequest('032')).xml);
  });
});

describe('nitCheckDigit', () => {
  it("gives DIAN's own DV and those of the project's fixtures, and refuses what is not a NIT", () => {
    expect(nitCheckDigit('800197268')).toBe('4'); // DIAN, as every sample writes it
    expect(nitCheckDigit('900508908')).toBe('9'); // provider_dv of the builder fixtures
    expect(nitCheckDigit('901458732')).toBe('8'); // provider_dv of examples/dian/context.json
    expect(nitCheckDigit('900108281')).toBe('3'); // the customer dv of the builder fixtures
    for (const bad of ['', '90050890-8', '1234567890123456', 'abc']) expect(nitCheckDigit(bad), bad).toBeNull();
  });
});

describe('event rules (Spanish messages at the field path)', () => {
  it('034 refuses a receiver other than DIAN', () => {
    const bad: DianEventRequest = { ...eventRequest('034'), receiver_party: eventRequest('030').receiver_party! };
    expect(issuesOf(bad)).toEqual([
      {
        path: 'receiver_party.identification_number',
        message: 'en el evento 034 (aceptación tácita) el receptor es la DIAN (NIT 800197268); omita receiver_party',
        ruleId: 'DIAN-EVT-RECEIVER-DIAN',
      },
    ]);
    // naming DIAN itself is accepted
    const dian = { identification_type_code: 31, identification_number: '800197268', name: 'DIAN' };
    expect(buildDianEvent({ ...eventRequest('034'), receiver_party: dian }, EVENT_CONTEXT).ok).toBe(true);
  });

  it('034 requires the sworn-statement note', () => {
    const { notes: _, ...bare } = eventRequest('034');
    const expected = {
      path: 'notes',
      message:
        'es obligatoria en el evento 034 (aceptación tácita): una nota con la declaración bajo juramento de que pasaron tres días hábiles desde la recepción sin aceptación expresa, rechazo ni reclamo',
      ruleId: 'DIAN-EVT-NOTE',
    };
    expect(issuesOf(bare)).toEqual([expected]);
    expect(issuesOf({ ...bare, notes: [] })).toEqual([expected]);
    // other events take no note
    const { notes: __, ...bare030 } = eventRequest('030');
    expect(buildDianEvent(bare030, EVENT_CONTEXT).ok).toBe(true);
  });

  it('031 requires a claim concept 01–04; other events refuse one', () => {
    const { rejection_concept_code: _, ...bare } = eventRequest('031');
    const list = '01 (documento con inconsistencias), 02 (mercancía no entregada), 03 (mercancía entregada parcialmente), 04 (servicio no prestado)';
    expect(issuesOf(bare)).toEqual([{ path: 'rejection_concept_code', message: `es obligatorio en el reclamo (031): ${list}`, ruleId: 'DIAN-EVT-CONCEPT' }]);
    expect(issuesOf({ ...bare, rejection_concept_code: '05' })).toEqual([
      { path: 'rejection_concept_code', message: `debe ser uno de ${list}`, ruleId: 'DIAN-EVT-CONCEPT' },
    ]);
    expect(issuesOf({ ...eventRequest('033'), rejection_concept_code: '01' })).toEqual([
      { path: 'rejection_concept_code', message: 'solo aplica al reclamo (031), no al evento 033', ruleId: 'DIAN-EVT-CONCEPT' },
    ]);
    // an integer concept is its two-digit code
    const r = built({ ...bare, rejection_concept_code: 4 });
    expect(attr(at(r.tree, 'cac:DocumentResponse/cac:Response/cbc:ResponseCode'), 'listID')).toBe('04');
  });

  it('030–033 require the receiver (the invoice issuer)', () => {
    const { receiver_party: _, ...bare } = eventRequest('032');
    expect(issuesOf(bare)).toEqual([
      {
        path: 'receiver_party',
        message: 'es obligatorio en el evento 032 (recibo del bien o prestación del servicio): el emisor de la factura',
        ruleId: 'DIAN-EVT-RECEIVER',
      },
    ]);
  });

  it('collects every problem of a bad request, each at its path', () => {
    const r = buildDianEvent(
      {
        event_code: '035',
        number: -1,
        identification_number: 'abc',
        sender_party: { identification_type_code: 31, identification_number: '90A', name: '' },
        document_reference: { number: 'SETP 1', uuid: 'XYZ' },
        person: { identification_type_code: 13, identification_number: '1' },
        notes: [{ text: ' ' }],
        colour: 'red',
      },
      EVENT_CONTEXT,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.path)).toEqual([
      'colour',
      'event_code',
      'number',
      'identification_number',
      'sender_party.identification_number',
      'sender_party.name',
      'document_reference.number',
      'document_reference.uuid',
      'person.first_name',
      'person.family_name',
      'notes.0.text',
    ]);
    expect(r.issues.every((i) => i.severity === 'error' && /^[a-záéíóúñ]/.test(i.message))).toBe(true);
    expect(r.body.event.statusCode).toBe(13);
    expect(r.body.event.detailedErrors['document_reference.uuid']).toEqual(['debe ser el CUFE de la factura: 96 caracteres hexadecimales en minúscula']);
  });

  it('refuses a sender_party that is not the company generating the event, and a context without clock', () => {
    const req = { ...eventRequest('030'), identification_number: 900508908 };
    expect(issuesOf(req)).toEqual([
      {
        path: 'sender_party.identification_number',
        message: 'debe ser igual a identification_number: el emisor del evento es la empresa que lo genera',
        ruleId: 'DIAN-EVT-SENDER',
      },
    ]);
    const withNit = { ...EVENT_CONTEXT, company: { ...EVENT_CONTEXT.company, nit: '900508908' } };
    const r1 = buildDianEvent(eventRequest('030'), withNit);
    expect(r1.ok ? [] : r1.issues.map((i) => [i.path, i.message, i.ruleId])).toEqual([
      ['identification_number', 'debe ser el NIT de la empresa del contexto (900508908)', 'DIAN-EVT-COMPANY'],
    ]);
    const { now: _, ...noClock } = EVENT_CONTEXT;
    const r = buildDianEvent(eventRequest('030'), noClock);
    expect(r.ok ? [] : r.issues.map((i) => i.path)).toEqual(['context.now']);
  });
});

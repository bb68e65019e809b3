/**
 * The local DIAN over real loopback HTTP with the DIAN client: invoices accepted (a signed ApplicationResponse that
 * verifies, reads as validated and goes into an AttachedDocument that validates), rejected with DIAN's rule codes
 * (wrong CUFE, out of range, FAU14 amounts, a scenario), notifications on a valid answer, duplicates (Regla 90).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAttachedDocument, parseDianApplicationResponse } from '../../../src/dian/index.js';
import { signDianXml, verifyDianXml } from '../../../src/dian/sign/index.js';
import { startDianSimulator, type DianSimulator } from '../../../src/dian/simulator/index.js';
import type { DianClient } from '../../../src/dian/transport/index.js';
import { createDianSchemaValidator } from '../../../src/dian/xsd/index.js';
import { dianXsdDir } from '../helpers/env.js';
import { BUYER, client, clock, ISSUER, RANGE, signedCreditNote, signedInvoice, signer, zip1 } from './fixtures.js';

let sim: DianSimulator;
let dian: DianClient;
const validator = createDianSchemaValidator(dianXsdDir());

beforeAll(async () => {
  sim = await startDianSimulator({ xsdDir: dianXsdDir(), clock, companies: [ISSUER, BUYER], ranges: [RANGE] });
  dian = client(sim.url);
});
afterAll(async () => {
  await dian.close();
  await sim.close();
});

const rules = (messages: { rule: string | null; kind: string | null }[]) => messages.map((m) => `${m.rule}/${m.kind}`);

describe('local DIAN: documents', () => {
  it('accepts a valid invoice: 00, its CUFE, a signed ApplicationResponse (02) that makes an AttachedDocument the XSD accepts', async () => {
    const inv = await signedInvoice(990000001);
    const r = await dian.sendBillSync('z1.zip', zip1(inv.xml));
    expect(r).toMatchObject({ isValid: true, statusCode: '00', xmlDocumentKey: inv.cufe, messages: [] });
    const ar = Buffer.from(r.xmlBase64Bytes!, 'base64').toString('utf8');
    expect(verifyDianXml(ar).valid).toBe(true);
    const parsed = parseDianApplicationResponse(ar);
    expect(parsed).toMatchObject({
      ok: true,
      isValid: true,
      responseCode: '02',
      documentKey: inv.cufe,
      documentId: inv.id,
      senderId: '800197268',
      receiverId: ISSUER.nit,
    });
    expect(validator.validate(ar, 'ApplicationResponse').violations).toEqual([]);
    const attached = buildAttachedDocument({
      signedXml: inv.xml,
      applicationResponseXml: ar,
      environment: '2',
      id: 'AD-1',
      issueDate: '2024-05-10',
      issueTime: '10:05:00-05:00',
    });
    if (!attached.ok) throw new Error(attached.message);
    const signedAttached = await signDianXml(attached.xml, signer, { clock });
    if (!signedAttached.ok) throw new Error(signedAttached.message);
    expect(validator.validate(signedAttached.xml, 'AttachedDocument').violations).toEqual([]);
    expect(verifyDianXml(signedAttached.xml).valid).toBe(true);
    expect(await dian.getStatus(inv.cufe)).toMatchObject({ isValid: true, statusCode: '00', xmlDocumentKey: inv.cufe });
  });

  it('resending an accepted invoice answers Regla: 90 and keeps the first verdict', async () => {
    const inv = await signedInvoice(990000002);
    expect((await dian.sendBillSync('z.zip', zip1(inv.xml))).isValid).toBe(true);
    const again = await dian.sendBillSync('z.zip', zip1(inv.xml));
    expect(again).toMatchObject({ isValid: false, statusCode: '99', xmlDocumentKey: inv.cufe });
    expect(again.messages).toEqual([{ rule: '90', kind: 'Rechazo', text: 'Documento procesado anteriormente' }]);
    expect((await dian.getStatus(inv.cufe)).isValid).toBe(true);
  });

  it('two copies of one invoice sent at once: one is accepted, the other answered Regla 90', async () => {
    const inv = await signedInvoice(990000008);
    const other = client(sim.url);
    const answers = await Promise.all([dian.sendBillSync('z.zip', zip1(inv.xml)), other.sendBillSync('z.zip', zip1(inv.xml))]);
    await other.close();
    expect(answers.map((a) => a.isValid).sort()).toEqual([false, true]);
    expect(answers.find((a) => !a.isValid)!.messages.map((m) => m.rule)).toEqual(['90']);
  });

  it('a credit note on an accepted invoice: its CUDE checked with the PIN, accepted, listed by GetReferenceNotes; another PIN is CAD06', async () => {
    const inv = await signedInvoice(990000009);
    expect((await dian.sendBillSync('z.zip', zip1(inv.xml))).isValid).toBe(true);
    const note = await signedCreditNote(1, inv);
    sim.addCompany({ ...ISSUER, pin: '00000' });
    try {
      const wrong = await dian.sendBillSync('z.zip', zip1(note.xml, 'nc.xml'));
      expect(rules(wrong.messages)).toContain('CAD06/Rechazo');
    } finally {
      sim.addCompany(ISSUER);
    }
    const r = await dian.sendBillSync('z.zip', zip1(note.xml, 'nc.xml'));
    expect(r).toMatchObject({ isValid: true, statusCode: '00', xmlDocumentKey: note.cude });
    expect(parseDianApplicationResponse(Buffer.from(r.xmlBase64Bytes!, 'base64').toString('utf8'))).toMatchObject({
      ok: true,
      documentKeyScheme: 'CUDE-SHA384',
    });
    const notes = await dian.getReferenceNotes(inv.cufe);
    expect(notes.messages.map((m) => m.text)).toEqual([`Nota ${note.id}: ${note.cude}`]);
  });

  it('rejects a CUFE not made with the range technical key (FAD06), with a signed 04 ApplicationResponse listing it', async () => {
    sim.addRange({ ...RANGE, technicalKey: 'otra-clave-tecnica' });
    try {
      const inv = await signedInvoice(990000003);
      const r = await dian.sendBillSync('z.zip', zip1(inv.xml));
      expect(r).toMatchObject({ isValid: false, statusCode: '99', xmlDocumentKey: inv.cufe });
      expect(rules(r.messages)).toEqual(['FAD06/Rechazo']);
      const ar = Buffer.from(r.xmlBase64Bytes!, 'base64').toString('utf8');
      expect(verifyDianXml(ar).valid).toBe(true);
      const parsed = parseDianApplicationResponse(ar);
      expect(parsed.ok && [parsed.isValid, parsed.responseCode, parsed.messages.filter((m) => m.kind === 'Rechazo').map((m) => m.rule)]).toEqual([
        false,
        '04',
        ['FAD06'],
      ]);
    } finally {
      sim.addRange(RANGE);
    }
  });

  it('rejects a number outside the range DIAN handed out (FAD05c), whatever the document declares', async () => {
    sim.addRange({ ...RANGE, to: '990000010' });
    try {
      const inv = await signedInvoice(990000011);
      const r = await dian.sendBillSync('z.zip', zip1(inv.xml));
      expect(r.isValid).toBe(false);
      expect(rules(r.messages)).toContain('FAD05c/Rechazo');
    } finally {
      sim.addRange(RANGE);
    }
  });

  it('rejects a payable amount that does not add up (FAU14) and accepts the corrected resend of the same number', async () => {
    const bad = await signedInvoice(990000004, (r) => {
      (r.legal_monetary_totals as Record<string, number>).payable_amount = 120000;
    });
    const r = await dian.sendBillSync('z.zip', zip1(bad.xml));
    expect(r.isValid).toBe(false);
    expect(rules(r.messages)).toContain('FAU14/Rechazo');
    const good = await signedInvoice(990000004);
    expect((await dian.sendBillSync('z.zip', zip1(good.xml))).isValid).toBe(true);
  });

  it('a notification travels with a valid answer (FAD09c on a document dated and signed 7 days ago)', async () => {
    const old = new Date(clock().getTime() - 7 * 86_400_000);
    const inv = await signedInvoice(990000005, undefined, old);
    const r = await dian.sendBillSync('z.zip', zip1(inv.xml));
    expect(r).toMatchObject({ isValid: true, statusCode: '00' });
    expect(rules(r.messages)).toEqual(['FAD09c/Notificación']);
    const parsed = parseDianApplicationResponse(Buffer.from(r.xmlBase64Bytes!, 'base64').toString('utf8'));
    expect(parsed.ok && parsed.messages.map((m) => [m.rule, m.kind])).toContainEqual(['FAD09c', 'Notificación']);
  });

  it('a scenario forces a rule rejection on one number', async () => {
    sim.setScenarios([{ number: 'SETP990000006', rule: 'FAJ43b', kind: 'Rechazo', text: 'Forzado' }]);
    try {
      const r = await dian.sendBillSync('z.zip', zip1((await signedInvoice(990000006)).xml));
      expect(r.isValid).toBe(false);
      expect(r.messages).toEqual([{ rule: 'FAJ43b', kind: 'Rechazo', text: 'Forzado' }]);
    } finally {
      sim.setScenarios([]);
    }
  });

  it('a document whose signature was broken after signing is rejected (ZE02); a zip with no XML is refused as a value', async () => {
    const inv = await signedInvoice(990000007);
    const r = await dian.sendBillSync('z.zip', zip1(inv.xml.replace('Servicio de consultoría', 'Servicio de consultoria')));
    expect(rules(r.messages)).toContain('ZE02/Rechazo');
    const empty = await dian.sendBillSync('z.zip', new Uint8Array([1, 2, 3]));
    expect(empty).toMatchObject({ isValid: false, statusCode: '99' });
    expect(empty.messages[0]!.rule).toBe('SIMZIP01');
  });
});

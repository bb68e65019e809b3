/**
 * Payroll through the local DIAN over loopback HTTP: every payroll example (102, 103 replace and delete) built by
 * the SDK, signed and zipped, is accepted by SendNominaSync with its CUNE recomputed from the XML by the core's
 * payroll reader and the employer software's PIN; a total changed before signing is rejected (SIMCUNE01), a
 * resend is Regla 90, GetStatus finds the CUNE, and a PIN the simulator does not hold rejects. The annex's
 * arithmetic: a total within DIAN's ±2.00 travels as a notification, beyond it is a rejection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDianPayroll, type PayrollKindId, type PayrollRequest } from '../../../src/dian/index.js';
import { signDianXml } from '../../../src/dian/sign/index.js';
import { startDianSimulator, type DianSimulator } from '../../../src/dian/simulator/index.js';
import { payrollRuleMessages } from '../../../src/dian/simulator/payroll.js';
import type { DianClient } from '../../../src/dian/transport/index.js';
import { dianXsdDir } from '../helpers/env.js';
import { example, PAYROLL_CONTEXT, PAYROLL_EXAMPLES } from '../payroll/fixtures.js';
import { client, clock, signer, zip1 } from './fixtures.js';

const EMPLOYER = (example('payroll-min').employer as { nit: string }).nit;
let sim: DianSimulator;
let dian: DianClient;

beforeAll(async () => {
  sim = await startDianSimulator({
    xsdDir: dianXsdDir(),
    clock,
    companies: [{ nit: EMPLOYER, softwareId: PAYROLL_CONTEXT.software.id, pin: PAYROLL_CONTEXT.software.pin }],
  });
  dian = client(sim.url);
});
afterAll(async () => {
  await dian.close();
  await sim.close();
});

async function signedPayroll(kind: PayrollKindId, request: PayrollRequest, edit?: (xml: string) => string, pin?: string) {
  const context = pin ? { ...PAYROLL_CONTEXT, software: { ...PAYROLL_CONTEXT.software, pin } } : PAYROLL_CONTEXT;
  const built = buildDianPayroll(kind, request, context);
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  const signed = await signDianXml(edit ? edit(built.xml) : built.xml, signer, { clock });
  if (!signed.ok) throw new Error(signed.message);
  return { xml: signed.xml, cune: built.codes.cune };
}

describe('local DIAN: payroll (SendNominaSync)', () => {
  it.each(PAYROLL_EXAMPLES)('%s is accepted with its CUNE; a resend is Regla 90; GetStatus finds it', async (_name, kind, request) => {
    const doc = await signedPayroll(kind, request);
    const r = await dian.sendNominaSync(zip1(doc.xml, 'nie.xml'));
    expect(r).toMatchObject({ isValid: true, statusCode: '00', xmlDocumentKey: doc.cune, messages: [] });
    const again = await dian.sendNominaSync(zip1(doc.xml, 'nie.xml'));
    expect(again.messages.map((m) => `${m.rule}/${m.kind}`)).toEqual(['90/Rechazo']);
    expect(await dian.getStatus(doc.cune)).toMatchObject({ isValid: true, xmlDocumentKey: doc.cune });
  });

  it('a total changed before signing no longer matches the CUNE: rejected with SIMCUNE01', async () => {
    const request = example('payroll-min');
    (request.sequence as { consecutive: number }).consecutive += 1000;
    const doc = await signedPayroll('payroll', request, (xml) =>
      xml.replace(/<ComprobanteTotal>([0-9.]+)</, (_m, v: string) => `<ComprobanteTotal>${(Number(v) + 1).toFixed(2)}<`),
    );
    const r = await dian.sendNominaSync(zip1(doc.xml, 'nie.xml'));
    expect(r.isValid).toBe(false);
    expect(r.statusCode).toBe('99');
    expect(r.messages.map((m) => m.rule)).toContain('SIMCUNE01');
  });

  it('a CUNE hashed with a PIN the simulator does not hold for that software is rejected', async () => {
    const request = example('payroll-min');
    (request.sequence as { consecutive: number }).consecutive += 2000;
    const doc = await signedPayroll('payroll', request, undefined, '99999');
    const r = await dian.sendNominaSync(zip1(doc.xml, 'nie.xml'));
    expect(r.messages.map((m) => m.rule)).toEqual(['SIMCUNE01']);
  });

  it('a total off by 1.50 (within ±2.00) is accepted with a notification (DIAN-NOM-EARNINGS-TOTAL)', async () => {
    const request = example('payroll-min') as Record<string, unknown>;
    (request.sequence as { consecutive: number }).consecutive += 3000;
    request.earnings_total = (request.earnings_total as number) + 1.5;
    request.voucher_total = (request.voucher_total as number) + 1.5;
    const doc = await signedPayroll('payroll', request as PayrollRequest);
    const r = await dian.sendNominaSync(zip1(doc.xml, 'nie.xml'));
    expect(r.isValid).toBe(true);
    expect(r.messages.map((m) => `${m.rule}/${m.kind}`)).toEqual(['DIAN-NOM-EARNINGS-TOTAL/Notificación']);
  });
});

describe('payrollRuleMessages', () => {
  it('a total beyond ±2.00 is a Rechazo with the rule and the path; an exact document has none', async () => {
    const doc = await signedPayroll('payroll', example('payroll-min'));
    expect(payrollRuleMessages(doc.xml)).toEqual([]);
    const off = doc.xml.replace(/<DevengadosTotal>([0-9.]+)</, (_m, v: string) => `<DevengadosTotal>${(Number(v) + 5).toFixed(2)}<`);
    const messages = payrollRuleMessages(off);
    expect(messages.map((m) => `${m.rule}/${m.kind}`)).toContain('DIAN-NOM-EARNINGS-TOTAL/Rechazo');
    expect(messages.find((m) => m.rule === 'DIAN-NOM-EARNINGS-TOTAL')!.text).toContain('earnings_total');
  });
});

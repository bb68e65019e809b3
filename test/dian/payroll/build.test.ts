/**
 * Payroll 102 and 103 (replace, delete): build → valid against DIAN's payroll XSDs → signed → verified by
 * verifyDianXml and xmlsec1; the CUNE recomputed from the XML; parse(build(x)) = x; DIAN's file names.
 */
import { describe, expect, it } from 'vitest';
import {
  buildDianPayroll,
  computePayrollCodes,
  cune,
  dianFileNames,
  parseDianPayroll,
  payrollCuneInputs,
  readUbl,
  softwareSecurityCode,
  type PayrollKindId,
  type PayrollRequest,
} from '../../../src/dian/index.js';
import { createSelfSignedIdentity, signDianXml, verifyDianXml } from '../../../src/dian/sign/index.js';
import { createDianSchemaValidator, detectDianSchemaId } from '../../../src/dian/xsd/index.js';
import { dianXsdDir } from '../helpers/env.js';
import { xmlsec1Verify } from '../sign/xmlsec.js';
import { example, NOW, PAYROLL_CONTEXT, PAYROLL_EXAMPLES } from './fixtures.js';

const validator = createDianSchemaValidator(dianXsdDir());
const identity = createSelfSignedIdentity({ commonName: 'Empleador de prueba' });
const SCHEMA = { payroll: 'NominaIndividual', 'payroll-adjustment': 'NominaIndividualDeAjuste' } as const;

function build(kind: PayrollKindId, request: PayrollRequest) {
  const r = buildDianPayroll(kind, request, PAYROLL_CONTEXT);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r;
}

describe('payroll documents and the payroll XSDs', () => {
  it.each(PAYROLL_EXAMPLES)(
    '%s: unsigned valid (signature place filled in memory), signed valid as sent, verified by ours and xmlsec1',
    async (_n, kind, request) => {
      const { xml } = build(kind, request);
      expect(detectDianSchemaId(xml)).toBe(SCHEMA[kind]);
      expect(validator.validate(xml, SCHEMA[kind], { unsigned: true })).toEqual({ valid: true, violations: [] });
      expect(validator.validate(xml, SCHEMA[kind]).valid).toBe(false); // the empty ExtensionContent
      const s = await signDianXml(xml, identity.signer, { clock: () => NOW, newId: () => 'nomina-1' });
      if (!s.ok) throw new Error(s.message);
      expect(s.xml).toContain('<ext:ExtensionContent><ds:Signature ');
      expect(validator.validate(s.xml, SCHEMA[kind])).toEqual({ valid: true, violations: [] });
      expect(verifyDianXml(s.xml)).toMatchObject({ valid: true, certificate: identity.signer.certificate });
      const x = xmlsec1Verify(s.xml, identity.certificatePem);
      expect(x.ok, x.output).toBe(true);
      const start = s.xml.indexOf('<ds:Signature ');
      const end = s.xml.indexOf('</ds:Signature>') + '</ds:Signature>'.length;
      expect(s.xml.slice(0, start) + s.xml.slice(end)).toBe(xml);
      // Tampering with a value after signing breaks the signature.
      // The signed document reads back as the request too (the signature is not part of it).
      const back = parseDianPayroll(s.xml);
      expect(back.ok && back.request).toEqual(request);
      const tampered = s.xml.replace('Consecutivo="', 'Consecutivo="9');
      expect(tampered).not.toBe(s.xml);
      expect(verifyDianXml(tampered).valid).toBe(false);
    },
  );

  it('an element out of XSD order is refused (the order the builder writes matters)', () => {
    const { xml } = build('payroll', example('payroll-min'));
    const swapped = xml.replace(/(<Periodo [^>]*><\/Periodo>)(<NumeroSecuenciaXML [^>]*><\/NumeroSecuenciaXML>)/, '$2$1');
    expect(swapped).not.toBe(xml);
    expect(validator.validate(swapped, 'NominaIndividual', { unsigned: true }).valid).toBe(false);
  });

  it('the same request and context give the same bytes; a clock stands in for a missing generation date and time', () => {
    const a = build('payroll', example('payroll-min')).xml;
    expect(build('payroll', example('payroll-min')).xml).toBe(a);
    const request = example('payroll-min');
    const general = request.general as Record<string, unknown>;
    delete general.generation_date;
    delete general.generation_time;
    const r = build('payroll', request);
    // 13:30Z is 08:30 in Bogotá.
    expect(r.xml).toContain('FechaGen="2026-04-01" HoraGen="08:30:00-05:00"');
    const noClock = buildDianPayroll('payroll', request, { ...PAYROLL_CONTEXT, now: undefined });
    expect(noClock.ok).toBe(false);
  });
});

describe('CUNE, security code and QR', () => {
  it.each(PAYROLL_EXAMPLES)('%s: the CUNE recomputed from the XML equals the written one', (_n, kind, request) => {
    const r = build(kind, request);
    const tree = readUbl(r.xml);
    if (!tree.ok) throw new Error(tree.message);
    const codes = computePayrollCodes(tree.root, { pin: PAYROLL_CONTEXT.software.pin });
    expect(codes).toMatchObject({ ok: true, codes: { cune: r.codes.cune, matches: true, securityCodeMatches: true } });
    expect(r.xml).toContain(`CUNE="${r.codes.cune}"`);
    expect(r.xml).toContain(`<CodigoQR>https://catalogo-vpfe-hab.dian.gov.co/document/searchqr?documentkey=${r.codes.cune}</CodigoQR>`);
    // Another PIN gives another CUNE: the check can fail.
    const other = computePayrollCodes(tree.root, { pin: '99999' });
    expect(other.ok && other.codes.matches).toBe(false);
  });

  it('the minimal 102: the CUNE is cune() over the values written (totals truncated to 2 decimals)', () => {
    const r = build('payroll', example('payroll-min'));
    const expected = cune({
      number: 'NOM1',
      generationDate: '2026-04-01',
      generationTime: '08:30:00-05:00',
      accruedTotal: '2000000.00',
      deductionsTotal: '140072.40',
      voucherTotal: '1859927.60',
      employerNit: '901458732',
      employeeDocument: '1020304050',
      documentType: '102',
      softwarePin: '12345',
      environment: '2',
    });
    expect(r.codes.cune).toBe(expected.hash);
    expect(expected.preimage).toBe('NOM12026-04-0108:30:00-05:002000000.00140072.401859927.609014587321020304050102123452');
    expect(r.codes.securityCode).toBe(softwareSecurityCode({ softwareId: PAYROLL_CONTEXT.software.id, softwarePin: '12345', number: 'NOM1' }).hash);
  });

  it('a money amount with more decimals is written rounded half-to-even, and the CUNE hashes the written value', () => {
    const request = example('payroll-min');
    (request.deductions as Record<string, Record<string, number>>).health!.deduction = 70036.205;
    request.deductions_total = 140072.405;
    const r = buildDianPayroll('payroll', request, PAYROLL_CONTEXT);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.xml).toContain('<Salud Porcentaje="4.00" Deduccion="70036.20">');
    expect(r.xml).toContain('<DeduccionesTotal>140072.40</DeduccionesTotal>');
    expect(r.warnings.map((w) => w.ruleId)).toContain('DIAN-NOM-DECIMALS');
    expect(r.codes.preimage).toContain('140072.40');
  });

  it('an Eliminar note hashes 0.00 totals and employee 0', () => {
    const r = build('payroll-adjustment', example('payroll-adjustment-delete'));
    const tree = readUbl(r.xml);
    if (!tree.ok) throw new Error(tree.message);
    const inputs = payrollCuneInputs(tree.root);
    expect(inputs).toMatchObject({
      ok: true,
      input: { accruedTotal: '0.00', deductionsTotal: '0.00', voucherTotal: '0.00', employeeDocument: '0', documentType: '103' },
    });
    expect(r.codes.preimage).toBe('NA22026-04-0311:00:00-05:000.000.000.009014587320103123452');
  });
});

describe('parsing payroll documents', () => {
  it.each(PAYROLL_EXAMPLES)('%s: parse(build(x)) = x, with the context and codes', (_n, kind, request) => {
    const r = build(kind, request);
    const p = parseDianPayroll(r.xml);
    if (!p.ok) throw new Error(p.message);
    expect(p.kind).toBe(kind);
    expect(p.request).toEqual(request);
    expect(p.context).toEqual({
      software: { id: PAYROLL_CONTEXT.software.id, provider_nit: PAYROLL_CONTEXT.software.provider_nit, provider_dv: PAYROLL_CONTEXT.software.provider_dv },
      environment: '2',
    });
    expect(p.codes).toEqual({ cune: r.codes.cune, securityCode: r.codes.securityCode, qr: r.codes.qr, number: r.codes.number });
  });

  it('refuses what is not a payroll document, with a Spanish message', () => {
    expect(parseDianPayroll('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>')).toMatchObject({
      ok: false,
      message: expect.stringContaining('No es un documento de nómina'),
    });
    expect(parseDianPayroll('<NominaIndividual')).toMatchObject({ ok: false, message: expect.stringContaining('bien formado') });
  });
});

describe('payroll file names (hex counter, no provider segment)', () => {
  it('names 102 nie… and 103 niae…, the zip z…, the twelfth file 0000000C', () => {
    expect(dianFileNames({ kind: 'payroll', nit: '800197268', year: 2020, counter: 12 })).toEqual({
      ok: true,
      value: { xml: 'nie0800197268200000000C.xml', zip: 'z0800197268200000000C.zip' },
    });
    expect(dianFileNames({ kind: 'payroll-adjustment', nit: '901458732', year: 26, counter: 255 })).toEqual({
      ok: true,
      value: { xml: 'niae090145873226000000FF.xml', zip: 'z090145873226000000FF.zip' },
    });
    expect(dianFileNames({ kind: 'payroll', nit: '901458732', provider: '000', year: 26, counter: 1 })).toMatchObject({ ok: false, field: 'provider' });
  });
});

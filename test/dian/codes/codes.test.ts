/**
 * DIAN codes (dian-protocol.md §3): the annex CUFE built from field values, and CUDE, CUDS, event CUDE, CUNE
 * and the software security code against pre-images written out by hand. Expected digests are computed here
 * with node:crypto from those literal pre-images, so the code under test (noble) is checked by another library.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cude, cuds, cufe, cune, type CufeInput, eventCude, softwareSecurityCode } from '../../../src/dian/index.js';
import { isEcfError } from '../../../src/shared/errors/ecf-error.js';
import { parseDec, type Dec } from '../../../src/shared/money/decimal.js';

const sha384 = (text: string): string => createHash('sha384').update(text, 'utf8').digest('hex');

/** Annex (FE v1.9) CUFE example, field by field. */
const ANNEX: CufeInput = {
  id: '323200000129',
  issueDate: '2019-01-16',
  issueTime: '10:53:10-05:00',
  lineExtensionAmount: '1500000.00',
  ivaTaxAmount: '285000.00',
  payableAmount: '1785000.00',
  supplierCompanyId: '700085371',
  customerCompanyId: '800199436',
  technicalKey: '693ff6f2a553c3646a063436fd4dd9ded0311471',
  environment: '1',
};
const ANNEX_PREIMAGE =
  '3232000001292019-01-1610:53:10-05:001500000.0001285000.00040.00030.001785000.00700085371800199436693ff6f2a553c3646a063436fd4dd9ded03114711';
const ANNEX_CUFE = '8bb918b19ba22a694f1da11c643b5e9de39adf60311cf179179e9b33381030bcd4c3c3f156c506ed5908f9276f5bd9b4';

function invalidArgument(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(isEcfError(e)).toBe(true);
    expect((e as { code: string }).code).toBe('invalid_argument');
    return (e as Error).message;
  }
  throw new Error('expected an invalid_argument error');
}

describe('cufe', () => {
  it('the annex example: pre-image and CUFE from the field values', () => {
    const { hash, preimage } = cufe(ANNEX);
    expect(preimage).toBe(ANNEX_PREIMAGE);
    expect(hash).toBe(ANNEX_CUFE);
  });

  it('absent INC and ICA are 0.00; an explicit zero or null gives the same CUFE', () => {
    expect(cufe({ ...ANNEX, incTaxAmount: '0', icaTaxAmount: null }).hash).toBe(ANNEX_CUFE);
    expect(cufe({ ...ANNEX, incTaxAmount: '0.000', icaTaxAmount: '0.00' }).hash).toBe(ANNEX_CUFE);
  });

  it('amounts are truncated, not rounded: 1500000.009 and 285000.999 hash like 1500000.00 and 285000.99', () => {
    const { preimage, hash } = cufe({ ...ANNEX, lineExtensionAmount: '1500000.009', ivaTaxAmount: '285000.999', payableAmount: '1785000' });
    const expected =
      '3232000001292019-01-1610:53:10-05:001500000.0001285000.99040.00030.001785000.00700085371800199436693ff6f2a553c3646a063436fd4dd9ded03114711';
    expect(preimage).toBe(expected);
    expect(hash).toBe(sha384(expected));
  });

  it('accepts exact decimals (Dec) as well as text', () => {
    const dec = (t: string): Dec => parseDec(t)!;
    expect(cufe({ ...ANNEX, lineExtensionAmount: dec('1500000'), ivaTaxAmount: dec('285000.004'), payableAmount: dec('1785000.00') }).hash).toBe(ANNEX_CUFE);
  });

  it('every tax slot is in its place: "01" IVA, "04" INC, "03" ICA', () => {
    const { preimage } = cufe({ ...ANNEX, ivaTaxAmount: '1.11', incTaxAmount: '2.22', icaTaxAmount: '3.33' });
    expect(preimage).toBe(
      '3232000001292019-01-1610:53:10-05:001500000.00011.11042.22033.331785000.00700085371800199436693ff6f2a553c3646a063436fd4dd9ded03114711',
    );
  });

  it('the environment is the last character; habilitación (2) changes the CUFE', () => {
    const hab = cufe({ ...ANNEX, environment: '2' });
    expect(hab.preimage).toBe(`${ANNEX_PREIMAGE.slice(0, -1)}2`);
    expect(hab.hash).toBe(sha384(hab.preimage));
    expect(hab.hash).not.toBe(ANNEX_CUFE);
  });
});

describe('misuse is an EcfError invalid_argument with a clear message', () => {
  it.each([
    ['a negative amount', { lineExtensionAmount: '-1.00' }, /cufe: lineExtensionAmount "-1.00" is negative/],
    ['a negative Dec', { payableAmount: -100000000n as Dec }, /cufe: payableAmount is negative/],
    ['a non-numeric amount', { ivaTaxAmount: 'abc' }, /cufe: ivaTaxAmount "abc" is not decimal text/],
    ['a comma decimal separator', { payableAmount: '1785000,00' }, /payableAmount "1785000,00" is not decimal text/],
    ['a thousands separator', { payableAmount: '1,785,000.00' }, /is not decimal text/],
    ['a JavaScript number', { payableAmount: 1785000 as unknown as string }, /payableAmount is a JavaScript number \(1785000\); pass decimal text/],
    ['a missing amount', { payableAmount: undefined as unknown as string }, /payableAmount is required/],
    ['an empty id', { id: '' }, /cufe: id is required/],
    ['surrounding whitespace', { supplierCompanyId: ' 700085371' }, /supplierCompanyId " 700085371" has surrounding whitespace/],
    ['a date in another format', { issueDate: '16/01/2019' }, /issueDate "16\/01\/2019" is not a date yyyy-MM-dd/],
    ['a time without offset', { issueTime: '10:53:10' }, /issueTime "10:53:10" is not a time HH:mm:ss with its UTC offset/],
    ['an unknown environment', { environment: '3' as '1' }, /environment must be "1" \(production\) or "2" \(habilitación\), got "3"/],
    ['a missing technical key', { technicalKey: undefined as unknown as string }, /cufe: technicalKey is required/],
  ])('%s', (_name, patch, message) => {
    expect(invalidArgument(() => cufe({ ...ANNEX, ...patch }))).toMatch(message);
  });
});

describe('cude (notes, contingency 03, POS): the CUFE formula with the software PIN', () => {
  it('hashes the hand-written pre-image', () => {
    const { hash, preimage } = cude({
      id: 'NC2001',
      issueDate: '2024-03-05',
      issueTime: '08:15:00-05:00',
      lineExtensionAmount: '100000',
      ivaTaxAmount: '19000.005',
      incTaxAmount: '8000',
      payableAmount: '127000.009',
      supplierCompanyId: '900123456',
      customerCompanyId: '222222222222',
      softwarePin: '12345',
      environment: '2',
    });
    const expected = 'NC20012024-03-0508:15:00-05:00100000.000119000.00048000.00030.00127000.0090012345622222222222212345' + '2';
    expect(preimage).toBe(expected);
    expect(hash).toBe(sha384(expected));
  });

  it('with the same values, the PIN in place of the technical key is the only difference from the CUFE', () => {
    const { technicalKey, ...fields } = ANNEX;
    expect(cude({ ...fields, softwarePin: technicalKey }).hash).toBe(ANNEX_CUFE);
    expect(invalidArgument(() => cude({ ...fields, softwarePin: '' }))).toMatch(/cude: softwarePin is required/);
  });
});

describe('cuds (support document 05, note 95): only the IVA pair, then the PIN', () => {
  it('hashes the hand-written pre-image', () => {
    const { hash, preimage } = cuds({
      id: 'DS100',
      issueDate: '2024-07-01',
      issueTime: '14:00:59-05:00',
      lineExtensionAmount: '250000.50',
      ivaTaxAmount: '47500.0999',
      payableAmount: '297500.6',
      supplierCompanyId: '1020304050',
      customerCompanyId: '900123456',
      softwarePin: '54321',
      environment: '1',
    });
    const expected = 'DS1002024-07-0114:00:59-05:00250000.500147500.09297500.601020304050900123456543211';
    expect(preimage).toBe(expected);
    expect(hash).toBe(sha384(expected));
  });

  it('no IVA: 01 then 0.00', () => {
    const { preimage } = cuds({
      id: 'DS101',
      issueDate: '2024-07-01',
      issueTime: '14:00:59-05:00',
      lineExtensionAmount: '10',
      payableAmount: '10',
      supplierCompanyId: '1',
      customerCompanyId: '2',
      softwarePin: 'p',
      environment: '2',
    });
    expect(preimage).toBe('DS1012024-07-0114:00:59-05:0010.00010.0010.0012p2');
  });
});

describe('eventCude (030–034)', () => {
  it('hashes the hand-written pre-image: no amounts, no environment suffix', () => {
    const { hash, preimage } = eventCude({
      id: 'EV-1',
      issueDate: '2024-02-10',
      issueTime: '09:00:00-05:00',
      senderCompanyId: '800199436',
      receiverCompanyId: '700085371',
      responseCode: '030',
      documentReferenceId: 'SETP990000002',
      documentReferenceTypeCode: '01',
      softwarePin: '75315',
    });
    const expected = 'EV-12024-02-1009:00:00-05:0080019943670008537103' + '0SETP9900000020175315';
    expect(preimage).toBe(expected);
    expect(hash).toBe(sha384(expected));
  });
});

describe('cune (payroll 102, 103)', () => {
  it('hashes the hand-written pre-image', () => {
    const { hash, preimage } = cune({
      number: 'NE1',
      generationDate: '2021-07-30',
      generationTime: '23:59:59-05:00',
      accruedTotal: '3500000.999',
      deductionsTotal: '280000',
      voucherTotal: '3220000.99',
      employerNit: '900373115',
      employeeDocument: '1020304',
      documentType: '102',
      softwarePin: '693',
      environment: '2',
    });
    const expected = 'NE12021-07-3023:59:59-05:003500000.99280000.003220000.9990037311510203041026932';
    expect(preimage).toBe(expected);
    expect(hash).toBe(sha384(expected));
  });

  it('an Eliminar adjustment: zero totals and employee document 0', () => {
    const { preimage } = cune({
      number: 'NA9',
      generationDate: '2021-08-01',
      generationTime: '10:00:00-05:00',
      accruedTotal: '0',
      deductionsTotal: '0',
      voucherTotal: '0',
      employerNit: '900373115',
      employeeDocument: '0',
      documentType: '103',
      softwarePin: '693',
      environment: '1',
    });
    expect(preimage).toBe('NA92021-08-0110:00:00-05:000.000.000.0090037311501036931');
  });

  it('refuses an unknown document type', () => {
    expect(
      invalidArgument(() =>
        cune({
          number: 'NE1',
          generationDate: '2021-07-30',
          generationTime: '23:59:59-05:00',
          accruedTotal: '1',
          deductionsTotal: '1',
          voucherTotal: '0',
          employerNit: '9',
          employeeDocument: '1',
          documentType: '101' as '102',
          softwarePin: '693',
          environment: '1',
        }),
      ),
    ).toMatch(/cune: documentType must be "102" \(payroll\) or "103" \(adjustment\), got "101"/);
  });
});

describe('softwareSecurityCode', () => {
  it('SHA-384(SoftwareID + PIN + number)', () => {
    const { hash, preimage } = softwareSecurityCode({ softwareId: '56f2ae4e-9812-4fad-9255-643fc0d28e33', softwarePin: '12345', number: 'SETP990000002' });
    const expected = '56f2ae4e-9812-4fad-9255-643fc0d28e3312345SETP990000002';
    expect(preimage).toBe(expected);
    expect(hash).toBe(sha384(expected));
  });

  it('refuses a missing software id', () => {
    expect(invalidArgument(() => softwareSecurityCode({ softwareId: '', softwarePin: '1', number: 'X1' }))).toMatch(
      /softwareSecurityCode: softwareId is required/,
    );
  });
});

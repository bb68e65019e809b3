/**
 * The AttachedDocument container: built from a signed invoice and DIAN's signed ApplicationResponse, it
 * validates against the official XSD, carries both documents byte for byte (their signatures still verify
 * after extraction), reads parties and references from the signed document, and refuses bad input as a value.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAttachedDocument, buildDianEvent, buildDianXml, DIAN_EVENT_CODES, readUbl, type AttachedDocumentInput } from '../../../src/dian/index.js';
import { createSelfSignedIdentity, signDianXml, verifyDianXml } from '../../../src/dian/sign/index.js';
import { all, at, attr, textAt } from '../../../src/dian/ubl/tree.js';
import { createDianSchemaValidator } from '../../../src/dian/xsd/index.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { dianXsdDir } from '../helpers/env.js';
import { minimalDianRequest } from '../helpers/requests.js';
import { EVENT_CONTEXT, eventRequest } from '../events/fixtures.js';
import { xmlsec1Verify } from '../sign/xmlsec.js';

const validator = createDianSchemaValidator(dianXsdDir());
const identity = createSelfSignedIdentity({ commonName: 'Proveedor de prueba' });
const options = { clock: () => new Date('2024-05-10T15:00:00Z'), newId: () => 'x' };

async function sign(xml: string): Promise<string> {
  const r = await signDianXml(xml, identity.signer, options);
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.xml;
}

async function signedInvoice(): Promise<string> {
  const built = buildDianXml('invoice', minimalDianRequest('invoice'), CONTEXT);
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  return sign(built.xml);
}

/** A DIAN-like ApplicationResponse (CRLF line ends, as DIAN's files have), signed into a second extension. */
async function signedResponse(): Promise<string> {
  const sample = readFileSync(resolve(import.meta.dirname, '../fixtures/toolbox/030-acuse-recibofev.xml'), 'utf8');
  expect(sample).toContain('\r\n');
  const text = sample
    .replace('</ext:UBLExtensions>', '<ext:UBLExtension><ext:ExtensionContent></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>')
    .replace('<cbc:RegistrationName>Pruebas</cbc:RegistrationName>', '<cbc:RegistrationName>Unidad Especial DIAN</cbc:RegistrationName>')
    .replace('<cbc:ResponseCode>030</cbc:ResponseCode>', '<cbc:ResponseCode>02</cbc:ResponseCode>');
  return sign(text);
}

const base = { environment: '2', id: 'AD-0001', issueDate: '2024-05-11', issueTime: '09:30:00-05:00' } as const;

function build(input: AttachedDocumentInput): string {
  const r = buildAttachedDocument(input);
  if (!r.ok) throw new Error(r.message);
  return r.xml;
}

function parse(xml: string) {
  const r = readUbl(xml);
  if (!r.ok) throw new Error(r.message);
  return r.root;
}

describe('buildAttachedDocument', () => {
  const invoicePromise = signedInvoice();
  const responsePromise = signedResponse();

  it('validates against the official AttachedDocument XSD, with and without the response', async () => {
    const signedXml = await invoicePromise;
    const applicationResponseXml = await responsePromise;
    for (const xml of [build({ ...base, signedXml, applicationResponseXml }), build({ ...base, signedXml })]) {
      expect(validator.validate(xml, 'AttachedDocument', { unsigned: true })).toEqual({ valid: true, violations: [] });
    }
  });

  it('carries both documents byte for byte, and their signatures still verify after extraction', async () => {
    const signedXml = await invoicePromise;
    const applicationResponseXml = await responsePromise;
    expect(verifyDianXml(signedXml).valid).toBe(true);
    expect(verifyDianXml(applicationResponseXml).valid).toBe(true);
    const root = parse(build({ ...base, signedXml, applicationResponseXml }));
    const doc = at(root, 'cac:Attachment/cac:ExternalReference/cbc:Description')?.text;
    const resp = at(root, 'cac:ParentDocumentLineReference/cac:DocumentReference/cac:Attachment/cac:ExternalReference/cbc:Description')?.text;
    expect(doc).toBe(signedXml);
    expect(resp).toBe(applicationResponseXml);
    expect(resp).toContain('\r\n');
    expect(verifyDianXml(doc!).valid).toBe(true);
    expect(verifyDianXml(resp!).valid).toBe(true);
  });

  it('writes the header literals, a single signature-only extension and the parties of the signed document', async () => {
    const signedXml = await invoicePromise;
    const inv = parse(signedXml);
    const xml = build({ ...base, signedXml, notes: ['nota'] });
    const root = parse(xml);
    expect(root.name).toBe('AttachedDocument');
    expect(root.children.map((c) => c.name)).toEqual([
      'ext:UBLExtensions',
      'cbc:UBLVersionID',
      'cbc:CustomizationID',
      'cbc:ProfileID',
      'cbc:ProfileExecutionID',
      'cbc:ID',
      'cbc:IssueDate',
      'cbc:IssueTime',
      'cbc:Note',
      'cbc:DocumentType',
      'cbc:ParentDocumentID',
      'cac:SenderParty',
      'cac:ReceiverParty',
      'cac:Attachment',
    ]);
    expect(xml).toContain('<ext:UBLExtensions><ext:UBLExtension><ext:ExtensionContent></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>');
    expect(all(root, 'ext:UBLExtensions/ext:UBLExtension')).toHaveLength(1);
    expect(textAt(root, 'cbc:CustomizationID')).toBe('Documentos adjuntos');
    expect(textAt(root, 'cbc:ProfileID')).toBe('Factura Electrónica de Venta');
    expect(textAt(root, 'cbc:ProfileExecutionID')).toBe('2');
    expect(textAt(root, 'cbc:ID')).toBe('AD-0001');
    expect(textAt(root, 'cbc:ParentDocumentID')).toBe(textAt(inv, 'cbc:ID'));
    for (const [mine, theirs] of [
      ['cac:SenderParty/cac:PartyTaxScheme', 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme'],
      ['cac:ReceiverParty/cac:PartyTaxScheme', 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme'],
    ] as const) {
      for (const f of ['cbc:RegistrationName', 'cbc:CompanyID', 'cbc:TaxLevelCode', 'cac:TaxScheme/cbc:ID', 'cac:TaxScheme/cbc:Name']) {
        expect(textAt(root, `${mine}/${f}`), f).toBe(textAt(inv, `${theirs}/${f}`));
      }
      const id = at(inv, `${theirs}/cbc:CompanyID`);
      expect(attr(id, 'schemeID')).toBeDefined();
      expect(at(root, `${mine}/cbc:CompanyID`)?.attrs).toEqual(id?.attrs);
    }
    expect(at(root, 'cac:ParentDocumentLineReference')).toBeUndefined();
  });

  it('references the document and DIAN’s verification read from the response', async () => {
    const signedXml = await invoicePromise;
    const inv = parse(signedXml);
    const root = parse(build({ ...base, signedXml, applicationResponseXml: await responsePromise }));
    expect(textAt(root, 'cac:ParentDocumentLineReference/cbc:LineID')).toBe('1');
    const ref = at(root, 'cac:ParentDocumentLineReference/cac:DocumentReference');
    expect(ref?.children.map((c) => c.name)).toEqual(['cbc:ID', 'cbc:UUID', 'cbc:IssueDate', 'cbc:DocumentType', 'cac:Attachment', 'cac:ResultOfVerification']);
    expect(textAt(ref, 'cbc:ID')).toBe(textAt(inv, 'cbc:ID'));
    expect(textAt(ref, 'cbc:UUID')).toBe(textAt(inv, 'cbc:UUID'));
    expect(attr(at(ref, 'cbc:UUID'), 'schemeName')).toBe('CUFE-SHA384');
    expect(textAt(ref, 'cbc:IssueDate')).toBe(textAt(inv, 'cbc:IssueDate'));
    expect(textAt(ref, 'cbc:DocumentType')).toBe('ApplicationResponse');
    expect(textAt(ref, 'cac:ResultOfVerification/cbc:ValidatorID')).toBe('Unidad Especial DIAN');
    expect(textAt(ref, 'cac:ResultOfVerification/cbc:ValidationResultCode')).toBe('02');
    expect(textAt(ref, 'cac:ResultOfVerification/cbc:ValidationDate')).toBe('2020-12-12');
    expect(textAt(ref, 'cac:ResultOfVerification/cbc:ValidationTime')).toBe('18:30:37-05:00');
  });

  it('can itself be signed into its single extension, and then verifies and validates', async () => {
    const signed = await sign(build({ ...base, signedXml: await invoicePromise, applicationResponseXml: await responsePromise }));
    expect(verifyDianXml(signed).valid).toBe(true);
    expect(validator.validate(signed, 'AttachedDocument')).toEqual({ valid: true, violations: [] });
  });

  it('refuses bad input as a value with a Spanish message', async () => {
    const signedXml = await invoicePromise;
    const cases: [AttachedDocumentInput, RegExp][] = [
      [{ ...base, signedXml: '' }, /Falta el documento firmado/],
      [{ ...base, signedXml: '<a' }, /No se pudo leer el documento firmado/],
      [{ ...base, signedXml: build({ ...base, signedXml }) }, /Invoice, CreditNote, DebitNote o ApplicationResponse \(evento\), no AttachedDocument/],
      [{ ...base, signedXml, environment: '3' as never }, /ambiente/],
      [{ ...base, signedXml, id: ' ' }, /número/],
      [{ ...base, signedXml, issueDate: '11/05/2024' }, /AAAA-MM-DD/],
      [{ ...base, signedXml, applicationResponseXml: signedXml }, /ApplicationResponse/],
      [{ ...base, signedXml: signedXml.replace(/<cac:AccountingCustomerParty>[\s\S]*<\/cac:AccountingCustomerParty>/, '') }, /adquiriente/],
    ];
    for (const [input, message] of cases) {
      const r = buildAttachedDocument(input);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    }
  });
});

/** The container of an event: the signed ApplicationResponse 030–034 and DIAN's ApplicationResponse answering it. */
describe('buildAttachedDocument for an event (ApplicationResponse 030–034)', () => {
  const responsePromise = signedResponse();

  async function signedEvent(code: (typeof DIAN_EVENT_CODES)[number]): Promise<string> {
    const built = buildDianEvent(eventRequest(code), EVENT_CONTEXT, { prefix: 'EV' });
    if (!built.ok) throw new Error(JSON.stringify(built.issues));
    return sign(built.xml);
  }

  it.each(DIAN_EVENT_CODES)('%s: XSD-valid unsigned and signed, the signature verifies (verifyDianXml and xmlsec1)', async (code) => {
    const signedXml = await signedEvent(code);
    const applicationResponseXml = await responsePromise;
    const xml = build({ ...base, signedXml, applicationResponseXml });
    expect(validator.validate(xml, 'AttachedDocument', { unsigned: true })).toEqual({ valid: true, violations: [] });
    const signed = await sign(xml);
    expect(validator.validate(signed, 'AttachedDocument')).toEqual({ valid: true, violations: [] });
    expect(verifyDianXml(signed).valid).toBe(true);
    const r = xmlsec1Verify(signed, identity.certificatePem);
    expect(r.ok, r.output).toBe(true);
  });

  it.each(DIAN_EVENT_CODES)('%s: wraps the event and DIAN’s answer byte for byte, parties and references read from the event', async (code) => {
    const signedXml = await signedEvent(code);
    const applicationResponseXml = await responsePromise;
    const ev = parse(signedXml);
    const root = parse(build({ ...base, signedXml, applicationResponseXml }));
    expect(at(root, 'cac:Attachment/cac:ExternalReference/cbc:Description')?.text).toBe(signedXml);
    const ref = at(root, 'cac:ParentDocumentLineReference/cac:DocumentReference');
    expect(at(ref, 'cac:Attachment/cac:ExternalReference/cbc:Description')?.text).toBe(applicationResponseXml);
    expect(verifyDianXml(at(root, 'cac:Attachment/cac:ExternalReference/cbc:Description')!.text!).valid).toBe(true);
    expect(textAt(root, 'cbc:ParentDocumentID')).toBe(textAt(ev, 'cbc:ID'));
    for (const [mine, theirs] of [
      ['cac:SenderParty/cac:PartyTaxScheme', 'cac:SenderParty/cac:PartyTaxScheme'],
      ['cac:ReceiverParty/cac:PartyTaxScheme', 'cac:ReceiverParty/cac:PartyTaxScheme'],
    ] as const) {
      for (const f of ['cbc:RegistrationName', 'cbc:CompanyID', 'cac:TaxScheme/cbc:ID', 'cac:TaxScheme/cbc:Name']) {
        expect(textAt(root, `${mine}/${f}`), `${mine}/${f}`).toBe(textAt(ev, `${theirs}/${f}`));
      }
      expect(textAt(root, `${mine}/cbc:CompanyID`)).toBeTruthy();
    }
    expect(textAt(ref, 'cbc:ID')).toBe(textAt(ev, 'cbc:ID'));
    expect(textAt(ref, 'cbc:UUID')).toBe(textAt(ev, 'cbc:UUID'));
    expect(attr(at(ref, 'cbc:UUID'), 'schemeName')).toBe('CUDE-SHA384');
    expect(textAt(ref, 'cbc:IssueDate')).toBe(textAt(ev, 'cbc:IssueDate'));
    expect(textAt(ref, 'cac:ResultOfVerification/cbc:ValidationResultCode')).toBe('02');
  });

  it('an event without one of its parties is refused as a value naming the event’s element', async () => {
    const signedXml = await signedEvent('031');
    const r = buildAttachedDocument({ ...base, signedXml: signedXml.replace(/<cac:ReceiverParty>[\s\S]*<\/cac:ReceiverParty>/, '') });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/receptor del evento \(ReceiverParty\)/);
  });
});

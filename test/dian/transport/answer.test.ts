/**
 * Reading DIAN's answers (src/dian/transport/answer.ts, dian-protocol.md §5.4–§5.5): the envelopes below
 * follow the shapes of §5.4 (DIAN's prefixes `s:`, `a:`, `b:`, `c:` and `i:nil`), with our own values.
 */
import { describe, expect, it } from 'vitest';
import { parseDianRuleMessage } from '../../../src/dian/rules/message.js';
import { readDianAnswer } from '../../../src/dian/transport/answer.js';

const envelope = (op: string, result: string) =>
  '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://www.w3.org/2005/08/addressing">' +
  `<s:Header><a:Action s:mustUnderstand="1">http://wcf.dian.colombia/IWcfDianCustomerServices/${op}Response</a:Action></s:Header>` +
  `<s:Body><${op}Response xmlns="http://wcf.dian.colombia">${result}</${op}Response></s:Body></s:Envelope>`;

const dianResponse = (inner: string) =>
  '<b:ErrorMessage xmlns:c="http://schemas.microsoft.com/2003/10/Serialization/Arrays">' +
  inner +
  '</b:ErrorMessage><b:IsValid>false</b:IsValid><b:StatusCode>99</b:StatusCode>' +
  '<b:StatusDescription>Validación contiene errores en campos mandatorios.</b:StatusDescription><b:StatusMessage>La Factura SETP990000001, ha sido rechazada.</b:StatusMessage>' +
  '<b:XmlBase64Bytes>PEFwcGxpY2F0aW9uUmVzcG9uc2UvPg==</b:XmlBase64Bytes><b:XmlBytes i:nil="true"/><b:XmlDocumentKey>' +
  'f'.repeat(96) +
  '</b:XmlDocumentKey><b:XmlFileName>fv09000000010000000000000001</b:XmlFileName>';

const RESULT_NS = 'xmlns:b="http://schemas.datacontract.org/2004/07/DianResponse" xmlns:i="http://www.w3.org/2001/XMLSchema-instance"';

describe('readDianAnswer', () => {
  it('reads a rejected DianResponse with its rule messages split', () => {
    const xml = envelope(
      'SendBillSync',
      `<SendBillSyncResult ${RESULT_NS}>${dianResponse(
        '<c:string>Regla: FAU04, Rechazo: Base gravable no corresponde</c:string><c:string>Regla: FAD09c, Notificación: Fecha de emisión anterior</c:string>',
      )}</SendBillSyncResult>`,
    );
    const read = readDianAnswer('SendBillSync', xml);
    expect(read).toMatchObject({
      kind: 'result',
      action: 'http://wcf.dian.colombia/IWcfDianCustomerServices/SendBillSyncResponse',
      result: {
        isValid: false,
        statusCode: '99',
        statusMessage: 'La Factura SETP990000001, ha sido rechazada.',
        messages: [
          { rule: 'FAU04', kind: 'Rechazo', text: 'Base gravable no corresponde' },
          { rule: 'FAD09c', kind: 'Notificación', text: 'Fecha de emisión anterior' },
        ],
        xmlBase64Bytes: 'PEFwcGxpY2F0aW9uUmVzcG9uc2UvPg==',
        xmlDocumentKey: 'f'.repeat(96),
      },
    });
  });

  it('reads an accepted answer with an empty ErrorMessage, and i:nil as null', () => {
    const xml = envelope(
      'GetStatus',
      `<GetStatusResult ${RESULT_NS}>${dianResponse('').replace('<b:IsValid>false', '<b:IsValid>true').replace('>99<', '>00<')}</GetStatusResult>`,
    );
    const read = readDianAnswer('GetStatus', xml);
    expect(read.kind === 'result' && read.result).toMatchObject({ isValid: true, statusCode: '00', messages: [] });
  });

  it('reads GetStatusZip as a list of DianResponse', () => {
    const one = `<b:DianResponse>${dianResponse('<c:string>Regla: 90, Rechazo: Documento procesado anteriormente.</c:string>')}</b:DianResponse>`;
    const xml = envelope('GetStatusZip', `<GetStatusZipResult ${RESULT_NS}>${one}${one.replace('>99<', '>00<')}</GetStatusZipResult>`);
    const read = readDianAnswer('GetStatusZip', xml);
    expect(read.kind).toBe('result');
    if (read.kind !== 'result') return;
    expect(read.result.map((r) => r.statusCode)).toEqual(['99', '00']);
    expect(read.result[0]!.messages[0]).toEqual({ rule: '90', kind: 'Rechazo', text: 'Documento procesado anteriormente.' });
  });

  it('reads an UploadDocumentResponse (ZipKey and items)', () => {
    const xml = envelope(
      'SendTestSetAsync',
      '<SendTestSetAsyncResult xmlns:b="http://schemas.datacontract.org/2004/07/UploadDocumentResponse" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">' +
        '<b:ErrorMessageList xmlns:c="http://schemas.datacontract.org/2004/07/XmlParamsResponseTrackId"><c:XmlParamsResponseTrackId><c:DocumentKey i:nil="true"/>' +
        '<c:ProcessedMessage>Documento con errores</c:ProcessedMessage><c:SenderCode>900000001</c:SenderCode><c:Success>false</c:Success>' +
        '<c:XmlFileName>fv1.xml</c:XmlFileName></c:XmlParamsResponseTrackId></b:ErrorMessageList><b:ZipKey>9a3c1e2f-0000-4000-8000-000000000001</b:ZipKey></SendTestSetAsyncResult>',
    );
    expect(readDianAnswer('SendTestSetAsync', xml)).toMatchObject({
      kind: 'result',
      result: {
        zipKey: '9a3c1e2f-0000-4000-8000-000000000001',
        items: [{ documentKey: null, processedMessage: 'Documento con errores', senderCode: '900000001', success: false, xmlFileName: 'fv1.xml' }],
      },
    });
  });

  it('reads numbering ranges with their technical keys', () => {
    const xml = envelope(
      'GetNumberingRange',
      '<GetNumberingRangeResult xmlns:b="http://schemas.datacontract.org/2004/07/NumberRangeResponseList"><b:OperationCode>100</b:OperationCode>' +
        '<b:OperationDescription>Se encontró la información solicitada.</b:OperationDescription><b:ResponseList xmlns:c="http://schemas.datacontract.org/2004/07/NumberRangeResponse">' +
        '<c:NumberRangeResponse><c:ResolutionNumber>18760000001</c:ResolutionNumber><c:ResolutionDate>2019-01-19</c:ResolutionDate><c:Prefix>SETP</c:Prefix>' +
        '<c:FromNumber>990000000</c:FromNumber><c:ToNumber>995000000</c:ToNumber><c:ValidDateFrom>2019-01-19</c:ValidDateFrom><c:ValidDateTo>2030-01-19</c:ValidDateTo>' +
        '<c:TechnicalKey>fc8eac422eba16e22ffd8c6f94b3f40a6e38162c</c:TechnicalKey></c:NumberRangeResponse></b:ResponseList></GetNumberingRangeResult>',
    );
    expect(readDianAnswer('GetNumberingRange', xml)).toMatchObject({
      kind: 'result',
      result: {
        operationCode: '100',
        ranges: [{ prefix: 'SETP', fromNumber: '990000000', toNumber: '995000000', technicalKey: 'fc8eac422eba16e22ffd8c6f94b3f40a6e38162c' }],
      },
    });
  });

  it('reads an EventResponse (GetXmlByDocumentKey)', () => {
    const xml = envelope(
      'GetXmlByDocumentKey',
      '<GetXmlByDocumentKeyResult xmlns:b="http://schemas.datacontract.org/2004/07/EventResponse"><b:Code>100</b:Code><b:Message>Accion completada OK</b:Message>' +
        '<b:ValidationDate>2026-03-02T10:00:00</b:ValidationDate><b:XmlBytesBase64>PEludm9pY2UvPg==</b:XmlBytesBase64></GetXmlByDocumentKeyResult>',
    );
    expect(readDianAnswer('GetXmlByDocumentKey', xml)).toMatchObject({ kind: 'result', result: { code: '100', xmlBytesBase64: 'PEludm9pY2UvPg==' } });
  });

  it('reads a SOAP Fault (code, subcode, reason)', () => {
    const xml =
      '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><s:Fault><s:Code><s:Value>s:Sender</s:Value>' +
      '<s:Subcode><s:Value xmlns:a="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">a:InvalidSecurity</s:Value></s:Subcode></s:Code>' +
      '<s:Reason><s:Text xml:lang="en-US">An error occurred when verifying security for the message.</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>';
    expect(readDianAnswer('GetStatus', xml)).toEqual({
      kind: 'fault',
      fault: { code: 's:Sender', subcode: 'a:InvalidSecurity', reason: 'An error occurred when verifying security for the message.' },
    });
  });

  it('says why an answer cannot be read: not XML, not SOAP 1.2, another operation', () => {
    expect(readDianAnswer('GetStatus', '<html><body>503 Service Unavailable')).toMatchObject({ kind: 'unreadable' });
    expect(readDianAnswer('GetStatus', '<Envelope/>')).toMatchObject({ kind: 'unreadable', reason: expect.stringContaining('SOAP 1.2') });
    const other = envelope('GetStatusZip', `<GetStatusZipResult ${RESULT_NS}/>`);
    expect(readDianAnswer('GetStatus', other)).toMatchObject({ kind: 'unreadable', reason: expect.stringContaining('GetStatusResponse') });
  });
});

describe('parseDianRuleMessage', () => {
  it('keeps free text whole when it is not a rule message', () => {
    expect(parseDianRuleMessage(' Documento con errores ')).toEqual({ rule: null, kind: null, text: 'Documento con errores' });
  });
  it('accepts Notificacion without the accent and text with commas and colons', () => {
    expect(parseDianRuleMessage('Regla: FAQ07, Notificacion: Descuento: mayor, que la base')).toEqual({
      rule: 'FAQ07',
      kind: 'Notificación',
      text: 'Descuento: mayor, que la base',
    });
  });
});

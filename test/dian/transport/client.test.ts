/**
 * The DIAN client (src/dian/transport/client.ts) over real loopback HTTP: a server in the test verifies each
 * request's WS-Security signature with the envelope verifier and answers as the scenario says (DIAN's answer
 * shapes, SOAP faults, HTML error pages, a dropped connection). The full local DIAN is src/dian/simulator.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAuthorityError } from '../../../src/shared/errors/authority-error.js';
import { isTransportError } from '../../../src/shared/errors/transport-error.js';
import { createSelfSignedIdentity } from '../../../src/shared/xmldsig/self-signed.js';
import { createDianClient, type DianClient } from '../../../src/dian/transport/client.js';
import { verifyDianEnvelope } from '../../../src/dian/transport/envelope.js';
import { parseXmlStrictly } from '../../../src/shared/xml/strict-parser.js';

const identity = createSelfSignedIdentity({ commonName: 'Emisor de prueba', serialNumber: '900000001' });

type Reply = { status: number; body: string; contentType?: string } | 'drop';
interface Seen {
  action: string | undefined;
  contentType: string | undefined;
  valid: boolean;
  body: string;
}

let server: Server;
let url: string;
let replies: Reply[] = [];
let seen: Seen[] = [];

const soap = (body: string) => `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body>${body}</s:Body></s:Envelope>`;
const dianResponse = (op: string, code: string, valid: boolean, messages = '') =>
  soap(
    `<${op}Response xmlns="http://wcf.dian.colombia"><${op}Result xmlns:b="http://schemas.datacontract.org/2004/07/DianResponse" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">` +
      `<b:ErrorMessage xmlns:c="http://schemas.microsoft.com/2003/10/Serialization/Arrays">${messages}</b:ErrorMessage><b:IsValid>${valid}</b:IsValid>` +
      `<b:StatusCode>${code}</b:StatusCode><b:StatusDescription>d</b:StatusDescription><b:StatusMessage>m</b:StatusMessage><b:XmlBase64Bytes i:nil="true"/>` +
      `<b:XmlBytes i:nil="true"/><b:XmlDocumentKey>${'c'.repeat(96)}</b:XmlDocumentKey><b:XmlFileName>f</b:XmlFileName></${op}Result></${op}Response>`,
  );
const fault = (code: string, subcode: string, reason: string) =>
  soap(
    `<s:Fault><s:Code><s:Value>${code}</s:Value><s:Subcode><s:Value xmlns:a="urn:x">${subcode}</s:Value></s:Subcode></s:Code><s:Reason><s:Text xml:lang="en-US">${reason}</s:Text></s:Reason></s:Fault>`,
  );

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const verified = verifyDianEnvelope(body);
      seen.push({ action: verified.action, contentType: req.headers['content-type'], valid: verified.valid, body });
      const reply = replies.shift() ?? { status: 500, body: fault('s:Receiver', 'a:InternalServiceFault', 'no scenario') };
      if (reply === 'drop') {
        req.socket.destroy();
        return;
      }
      if (!verified.valid) {
        res
          .writeHead(500, { 'Content-Type': 'application/soap+xml' })
          .end(fault('s:Sender', 'a:InvalidSecurity', 'An error occurred when verifying security for the message.'));
        return;
      }
      res.writeHead(reply.status, { 'Content-Type': reply.contentType ?? 'application/soap+xml; charset=utf-8' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/WcfDianCustomerServices.svc`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  replies = [];
  seen = [];
});

const sleeps: number[] = [];
function client(): DianClient {
  sleeps.length = 0;
  return createDianClient({
    signer: identity.signer,
    endpoint: url,
    retries: 2,
    backoffMs: 1,
    timeoutMs: 5_000,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
}

describe('DianClient over loopback HTTP', () => {
  it('sends a signed SendBillSync with the zip in base64 and reads the verdict', async () => {
    replies.push({ status: 200, body: dianResponse('SendBillSync', '99', false, '<c:string>Regla: FAU14, Rechazo: Valor a pagar</c:string>') });
    const dian = client();
    const verdict = await dian.sendBillSync('z1.zip', new Uint8Array([80, 75, 3, 4]));
    await dian.close();
    expect(verdict).toMatchObject({ isValid: false, statusCode: '99', messages: [{ rule: 'FAU14', kind: 'Rechazo', text: 'Valor a pagar' }] });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ valid: true, action: 'http://wcf.dian.colombia/IWcfDianCustomerServices/SendBillSync' });
    expect(seen[0]!.contentType).toContain('application/soap+xml');
    const doc = parseXmlStrictly(seen[0]!.body).doc!;
    expect(doc.getElementsByTagNameNS('http://wcf.dian.colombia', 'contentFile').item(0)!.textContent).toBe('UEsDBA==');
    expect(doc.getElementsByTagNameNS('http://wcf.dian.colombia', 'fileName').item(0)!.textContent).toBe('z1.zip');
  });

  it('draws new ids for every request (no two envelopes share a wsu:Id)', async () => {
    replies.push({ status: 200, body: dianResponse('GetStatus', '00', true) }, { status: 200, body: dianResponse('GetStatus', '00', true) });
    const dian = client();
    await dian.getStatus('a'.repeat(96));
    await dian.getStatus('a'.repeat(96));
    await dian.close();
    const ids = seen.map((s) => /wsu:Id="(ID-[^"]+)"/.exec(s.body)![1]);
    expect(new Set(ids).size).toBe(2);
  });

  it('a WS-Security fault is an AuthorityError "unauthorized", not retried', async () => {
    replies.push({ status: 500, body: fault('s:Sender', 'a:InvalidSecurity', 'An error occurred when verifying security for the message.') });
    const dian = client();
    const e = await failure(dian.getStatus('a'.repeat(96)));
    await dian.close();
    expect(isAuthorityError(e) && e.code).toBe('unauthorized');
    expect(seen).toHaveLength(1);
  });

  it('a receiver fault on an upload is a TransportError with an unknown outcome, never resent', async () => {
    replies.push({ status: 500, body: fault('s:Receiver', 'a:InternalServiceFault', 'The server was unable to process the request') });
    const dian = client();
    const e = await failure(dian.sendBillSync('z.zip', new Uint8Array([1])));
    await dian.close();
    expect(isTransportError(e) && { code: e.code, retryable: e.retryable, outcomeUnknown: e.outcomeUnknown }).toEqual({
      code: 'server_error',
      retryable: true,
      outcomeUnknown: true,
    });
    expect(seen).toHaveLength(1);
  });

  it('a query that meets an HTML 503 page is retried and then answered', async () => {
    replies.push({ status: 503, body: '<html><body><h1>Service Unavailable</h1></body></html>', contentType: 'text/html' });
    replies.push({ status: 200, body: dianResponse('GetStatus', '00', true) });
    const dian = client();
    const verdict = await dian.getStatus('a'.repeat(96));
    await dian.close();
    expect(verdict.isValid).toBe(true);
    expect(seen).toHaveLength(2);
  });

  it('an upload whose connection drops after sending has an unknown outcome (ask GetStatus before resending)', async () => {
    replies.push('drop');
    const dian = client();
    const e = await failure(dian.sendBillSync('z.zip', new Uint8Array([1])));
    await dian.close();
    expect(isTransportError(e) && { code: e.code, outcomeUnknown: e.outcomeUnknown }).toEqual({ code: 'network', outcomeUnknown: true });
    expect(seen).toHaveLength(1);
  });

  it('an answer that is not DIAN XML is a bad_response', async () => {
    replies.push({ status: 200, body: '<html>maintenance</html>', contentType: 'text/html' });
    const dian = client();
    const e = await failure(dian.getStatus('a'.repeat(96)));
    await dian.close();
    expect(isTransportError(e) && e.code).toBe('bad_response');
  });

  it('waitForStatus polls through 98 with growing intervals and returns the verdict', async () => {
    replies.push(
      { status: 200, body: dianResponse('GetStatus', '98', false) },
      { status: 200, body: dianResponse('GetStatus', '98', false) },
      { status: 200, body: dianResponse('GetStatus', '00', true) },
    );
    const dian = client();
    const verdict = await dian.waitForStatus('a'.repeat(96), { initialIntervalMs: 100, maxIntervalMs: 1_000 });
    await dian.close();
    expect(verdict.statusCode).toBe('00');
    expect(sleeps).toEqual([100, 160]);
  });

  it('waitForStatus gives up with the last 98 answer when its time runs out; 90 (not found) is returned as is', async () => {
    replies.push({ status: 200, body: dianResponse('GetStatus', '98', false) }, { status: 200, body: dianResponse('GetStatus', '98', false) });
    const dian = client();
    expect((await dian.waitForStatus('a'.repeat(96), { initialIntervalMs: 100, maxWaitMs: 100 })).statusCode).toBe('98');
    replies.push({ status: 200, body: dianResponse('GetStatus', '90', false) });
    expect((await dian.waitForStatus('b'.repeat(96))).statusCode).toBe('90');
    await dian.close();
  });
});

/** Who the `send: true` mail of an event goes to: the sending company and, when known here, the receiver. */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { type CompanyRecord, type EventNotice, mailNotices } from '../../../../src/dian/server/index.js';
import type { MailService } from '../../../../src/shared/mail/index.js';
import { PROFILE } from '../helpers.js';

const QUIET = { debug() {}, info() {}, warn() {}, error() {} };

function company(id: number, nit: string, email: string | undefined): CompanyRecord {
  return {
    id,
    nit,
    profile: { ...PROFILE, name: `Empresa ${nit}`, email },
    softwareId: 's',
    softwarePin: '1',
    providerNit: nit,
    providerDv: '0',
    environment: '2',
    certificate: null,
    createdAt: 0,
  };
}

function harness(known: CompanyRecord[]) {
  const accepted: { request: any; tenant: string }[] = [];
  const mail = {
    async accept(request: unknown, tenant: string) {
      accepted.push({ request, tenant });
      return { ok: true, status: 202, body: { status: 202, message: 'ok', message_id: 'm1', date: '2025-03-14 10:00:00' } };
    },
  } as unknown as MailService;
  const storage = { getCompanyByNit: async (nit: string) => known.find((c) => c.nit === nit) ?? null } as never;
  return { accepted, notices: mailNotices({ mail, storage, logger: QUIET, clock: () => new Date('2025-03-14T15:00:00Z') }) };
}

const sender = company(2, '900373076', 'compras@otra.example');
const issuer = company(1, '901458732', 'facturacion@ferreteria.example');
const notice = (receiverNit: string | null): EventNotice => ({
  company: sender,
  event: {
    id: 5,
    companyId: sender.id,
    code: '031',
    number: 1,
    requestHash: 'h',
    state: 'accepted',
    documentKey: 'a'.repeat(96),
    cude: 'c'.repeat(96),
    signedXml: '<x/>',
    zip: new Uint8Array([1, 2, 3]),
    dianAnswer: null,
    attachedDocument: '<AttachedDocument/>',
    response: null,
    createdAt: 0,
    updatedAt: 0,
  },
  receiverNit,
  zip: new Uint8Array([1, 2, 3]),
  zipName: 'z0900373076000250000000005.zip',
  applicationResponse: '<ApplicationResponse/>',
  attachedDocument: '<AttachedDocument/>',
});

describe('mailNotices: events', () => {
  it('mails the sending company and the receiver when it is a company of the service, under the sender’s tenant', async () => {
    const h = harness([sender, issuer]);
    await h.notices.notifyEventParties(notice(issuer.nit));
    expect(h.accepted).toHaveLength(1);
    const req = h.accepted[0]!.request;
    expect(req.personalizations[0].to.map((t: { email: string }) => t.email)).toEqual(['compras@otra.example', 'facturacion@ferreteria.example']);
    expect(req.personalizations[0].custom_args).toEqual({ message_uuid: 'c'.repeat(96), environment: '2' });
    expect(req.personalizations[0].dynamic_template_data.body.document_type).toBe('Reclamo de la Factura Electrónica de Venta');
    expect(req.attachments.map((a: { filename: string; mime: string }) => [a.filename, a.mime])).toEqual([
      ['z0900373076000250000000005.zip', 'application/zip'],
      ['respuesta-dian-1.xml', 'application/xml'],
      ['z09003730760002500000005.zip', 'application/zip'],
    ]);
    // The third file is the event's AttachedDocument zipped as a document's is (DIAN's `ad…` name inside).
    const ad = unzipSync(Buffer.from(req.attachments[2].content, 'base64'));
    expect(Object.entries(ad).map(([name, bytes]) => [name.slice(0, 2), Buffer.from(bytes).toString('utf8')])).toEqual([['ad', '<AttachedDocument/>']]);
    expect(h.accepted[0]!.tenant).toBe('dian-company-2');
  });

  it('a receiver outside the service gets nothing; no known address queues nothing', async () => {
    const h = harness([sender]);
    await h.notices.notifyEventParties(notice('800000001'));
    expect(h.accepted[0]!.request.personalizations[0].to).toEqual([{ email: 'compras@otra.example' }]);
    const none = harness([]);
    await none.notices.notifyEventParties({ ...notice(null), company: company(3, '900000009', undefined) });
    expect(none.accepted).toHaveLength(0);
  });
});

/**
 * `send: true` through the mail subsystem (src/shared/mail): the mail of an accepted document (to the request's
 * `customer.email`, its PDF and its zipped AttachedDocument) and of an accepted event (to the company that sent
 * it and to the receiver when it is a company of this service, the event's zip, DIAN's answer and the event's
 * zipped AttachedDocument). Each becomes
 * a `documentMailRequest` accepted into the durable outbox; the background sender delivers it.
 */
import { deflateRawSync } from 'node:zlib';
import { DIAN_EVENTS, DIAN_KINDS, type DianEventCode, dianDocumentZip } from '../index.js';
import { bogotaTime } from '../sign/index.js';
import { documentMailRequest, type MailFile, type MailService } from '../../shared/mail/index.js';
import type { Logger } from '../../shared/ports.js';
import { mailTenant } from './app/mail.js';
import type { CompanyRecord, CompanyStore } from './storage/types.js';
import type { EventNotice } from './use-cases/events.js';
import type { CustomerNotice } from './use-cases/ports.js';

/** The zips' deflater: node:zlib (about 3× fflate's pure-JS default on a signed invoice). */
const deflateRaw = (data: Uint8Array): Uint8Array => deflateRawSync(data);

const EMAIL = /^[^\s@;,]+@[^\s@;,]+\.[^\s@;,]+$/;

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function sender(company: CompanyRecord, from: string | undefined) {
  return { email: from ?? company.profile.email ?? `no-reply@${company.nit}.invalid`, name: company.profile.name };
}

function templateOf(company: CompanyRecord, documentType: string, number: string, uuid: string, customerName: string, year: string) {
  return {
    subject: `${company.profile.name}: ${documentType} ${number}`,
    header: { brand_name: company.profile.name },
    body: { customer_name: customerName, document_type: documentType, document_number: number, uuid },
    footer: { year, brand_name: company.profile.name, address: company.profile.address ?? '', telephone: company.profile.phone ?? '' },
  };
}

/** The AttachedDocument zipped under DIAN's `ad…` names (none when it cannot be zipped). */
function zippedAttached(company: CompanyRecord, counter: number, xml: string, stamp: string): MailFile[] {
  const zipped = dianDocumentZip({
    kind: 'attached-document',
    nit: company.nit,
    provider: '000',
    year: Number(stamp.slice(0, 4)),
    counter,
    xml,
    deflate: deflateRaw,
    date: stamp.slice(0, 10),
  });
  return zipped.ok ? [{ filename: zipped.value.names.zip, mime: 'application/zip', content: zipped.value.zip }] : [];
}

export interface MailNoticeOptions {
  mail: MailService;
  storage: CompanyStore;
  logger: Logger;
  clock: () => Date;
  /** The sender address; default the company's profile e-mail. */
  from?: string;
}

/** The `notifyCustomer` and `notifyEventParties` hooks over a mail service. A mail the service refuses is logged, never fails the issued document. */
export function mailNotices(options: MailNoticeOptions) {
  const { mail, logger } = options;
  const accept = async (company: CompanyRecord, request: unknown, what: string) => {
    const r = await mail.accept(request, mailTenant(company));
    if (r.ok) logger.info({ messageId: r.body.message_id, what }, 'send: true mail queued');
    else logger.warn({ what, errors: r.body.errors }, 'send: true mail refused by the mail service');
  };
  return {
    async notifyCustomer(n: CustomerNotice): Promise<void> {
      const to = (n.to ?? '')
        .split(';')
        .map((a) => a.trim())
        .filter((a) => EMAIL.test(a));
      const label = `${n.document.prefix}${n.document.number}`;
      if (to.length === 0) {
        logger.warn({ document: label }, 'send: true without a valid customer.email; no mail queued');
        return;
      }
      const stamp = bogotaTime(options.clock());
      const files: MailFile[] = [];
      if (n.pdf) files.push({ filename: `${label}.pdf`, mime: 'application/pdf', content: n.pdf });
      files.push(...zippedAttached(n.company, n.document.id, n.attachedDocument, stamp));
      const signed = n.document.signedXml ?? '';
      const customer = /<cac:AccountingCustomerParty>[\s\S]*?<cbc:RegistrationName>([^<]*)</.exec(signed)?.[1];
      const request = documentMailRequest({
        from: sender(n.company, options.from),
        to: to.map((email) => ({ email })),
        template: templateOf(n.company, DIAN_KINDS[n.document.kind].name, label, n.document.documentKey ?? '', unescapeXml(customer ?? ''), stamp.slice(0, 4)),
        customArgs: { message_uuid: n.document.documentKey ?? '', environment: n.company.environment },
        files,
      });
      await accept(n.company, request, label);
    },
    async notifyEventParties(n: EventNotice): Promise<void> {
      const row = DIAN_EVENTS[n.event.code as DianEventCode];
      const parties: CompanyRecord[] = [n.company];
      if (n.receiverNit) {
        const receiver = await options.storage.getCompanyByNit(n.receiverNit);
        if (receiver) parties.push(receiver);
      }
      const to = [...new Set(parties.map((p) => p.profile.email).filter((e): e is string => !!e && EMAIL.test(e)))];
      if (to.length === 0) {
        logger.warn({ event: n.event.number }, 'send: true on an event but no party e-mail is known; no mail queued');
        return;
      }
      const files: MailFile[] = [{ filename: n.zipName, mime: 'application/zip', content: n.zip }];
      if (n.applicationResponse)
        files.push({ filename: `respuesta-dian-${n.event.number}.xml`, mime: 'application/xml', content: new TextEncoder().encode(n.applicationResponse) });
      const stamp = bogotaTime(options.clock());
      files.push(...zippedAttached(n.company, n.event.id, n.attachedDocument, stamp));
      const request = documentMailRequest({
        from: sender(n.company, options.from),
        to: to.map((email) => ({ email })),
        template: templateOf(
          n.company,
          row.name,
          String(n.event.number),
          n.event.cude ?? '',
          parties[1]?.profile.name ?? n.company.profile.name,
          stamp.slice(0, 4),
        ),
        customArgs: { message_uuid: n.event.cude ?? '', environment: n.company.environment },
        files,
      });
      await accept(n.company, request, `event ${row.code} ${n.event.number}`);
    },
  };
}

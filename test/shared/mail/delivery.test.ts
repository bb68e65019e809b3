/**
 * The mail service end to end against a real SMTP server in process (smtp-server on 127.0.0.1), the messages
 * parsed back with mailparser: content, escaping, headers, byte-identical attachments; SMTP down then up;
 * crash safety across a restart on one SQLite file; the `.eml` fallback.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { simpleParser } from 'mailparser';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { documentMailRequest } from '../../../src/shared/mail/document-mail.js';
import { createMailService, createMailTransport } from '../../../src/shared/mail/service.js';
import { createSqliteMailStorage } from '../../../src/shared/mail/storage/kysely.js';
import type { MailStorage } from '../../../src/shared/mail/storage/types.js';
import { createSmtpTransport } from '../../../src/shared/mail/transport.js';
import { freePort, manualClock, startSmtp, validRequest } from './helpers.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'mail-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function openStorage(file = join(tempDir(), 'mail.sqlite')): Promise<MailStorage> {
  const s = createSqliteMailStorage({ file });
  await s.migrate();
  return s;
}

function logs() {
  const lines: { level: string; obj: object; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj, msg });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

async function pdfBytes(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('Factura', { x: 20, y: 100 });
  return doc.save({ useObjectStreams: false });
}

describe('delivery over SMTP', () => {
  it('delivers one message per personalization: subject, escaped HTML, text, X- headers, byte-identical attachments', async () => {
    const smtp = await startSmtp();
    const storage = await openStorage();
    const t = manualClock();
    const service = createMailService({ storage, transport: createSmtpTransport({ url: smtp.url }), clock: t.clock, newId: () => 'mail-1' });
    try {
      const pdf = await pdfBytes();
      const zip = zipSync({ 'ad-1.xml': new TextEncoder().encode('<AttachedDocument/>') });
      const template = validRequest().personalizations[0].dynamic_template_data;
      template.body.customer_name = 'Ana <script>alert(1)</script> & "Cía"';
      const request = documentMailRequest({
        from: { email: 'facturas@empresa.example', name: 'Mi Empresa' },
        to: [{ email: 'ana@example.com', name: 'Ana' }],
        template,
        customArgs: { message_uuid: 'cufe-abc', environment: '2', note: 'x\r\nBcc: victim@evil.example' },
        files: [
          { filename: 'FES-SETP990000001.pdf', mime: 'application/pdf', content: pdf },
          { filename: 'z-SETP990000001.zip', mime: 'application/zip', content: zip },
        ],
      });
      request.personalizations.push({ ...request.personalizations[0]!, to: [{ email: 'otro@example.com' }] });
      const accepted = await service.accept(request, 'tenant-a');
      expect(accepted).toEqual({
        ok: true,
        status: 202,
        body: { status: 202, message: 'Correo aceptado y en cola de envío.', message_id: 'mail-1', date: '2026-11-24 12:30:00' },
      });

      expect(await service.runOnce()).toBe(2);
      expect(smtp.received).toHaveLength(2);
      const byTo = Object.fromEntries(smtp.received.map((m) => [(m.to as { text: string }).text, m]));
      expect(Object.keys(byTo).sort()).toEqual(['"Ana" <ana@example.com>', 'otro@example.com']);
      const m = byTo['"Ana" <ana@example.com>']!;
      expect(m.subject).toBe('Factura SETP990000000');
      expect(m.messageId).toBe('<mail-1.0@empresa.example>');
      expect(byTo['otro@example.com']!.messageId).toBe('<mail-1.1@empresa.example>');
      expect(m.from!.text).toBe('"Mi Empresa" <facturas@empresa.example>');
      expect(m.html).toContain('Ana &lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;Cía&#34;');
      expect(m.html).not.toContain('<script>');
      expect(m.text).toContain('Ana <script>alert(1)</script> & "Cía"');
      expect(m.text).toContain('Código único: cufe-0');
      expect(m.headers.get('x-message-uuid')).toBe('cufe-abc');
      expect(m.headers.get('x-environment')).toBe('2');
      expect(m.headers.get('x-note')).toBe('x Bcc: victim@evil.example');
      expect(m.headers.has('bcc')).toBe(false);
      expect(m.attachments.map((a) => [a.filename, a.contentType])).toEqual([
        ['FES-SETP990000001.pdf', 'application/pdf'],
        ['z-SETP990000001.zip', 'application/zip'],
      ]);
      expect(Buffer.compare(m.attachments[0]!.content, Buffer.from(pdf))).toBe(0);
      expect(Buffer.compare(m.attachments[1]!.content, Buffer.from(zip))).toBe(0);

      const events = await service.events('mail-1', 'tenant-a');
      expect(events!.messages).toEqual([
        { personalization: 0, state: 'sent', attempts: 1 },
        { personalization: 1, state: 'sent', attempts: 1 },
      ]);
      expect(events!.events.filter((e) => e.type === 'sent').map((e) => e.detail)).toEqual([expect.stringMatching(/^250/), expect.stringMatching(/^250/)]);
      expect(await service.events('mail-1', 'tenant-b')).toBeNull();
      expect(await service.runOnce()).toBe(0);
    } finally {
      await service.stop();
      await storage.close();
      await smtp.close();
    }
  });

  it('answers 422 and stores nothing for an invalid request', async () => {
    const storage = await openStorage();
    const service = createMailService({ storage, transport: createMailTransport({ dataDir: tempDir() }), newId: () => 'bad-1' });
    const req = validRequest();
    req.attachments = [{ content: 'QUJD', mime: 7, filename: 'a.xml' }];
    const r = await service.accept(req, 't');
    expect(r).toEqual({
      ok: false,
      status: 422,
      body: { errors: [{ field: 'attachments.0.mime', message: expect.stringContaining('attachments.0.mime'), help: null }] },
    });
    expect(await service.events('bad-1', 't')).toBeNull();
    await service.stop();
    await storage.close();
  });

  it('SMTP down, then refusing (451), then up: each message delivered exactly once, the failures with their reasons', async () => {
    const port = await freePort();
    const storage = await openStorage();
    const t = manualClock();
    let n = 0;
    const service = createMailService({
      storage,
      transport: createSmtpTransport({ url: `smtp://127.0.0.1:${port}`, attemptTimeoutMs: 5000 }),
      clock: t.clock,
      newId: () => `m-${++n}`,
      retry: { baseMs: 1000, maxMs: 10_000, maxAttempts: 5 },
    });
    let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
    try {
      await service.accept(validRequest([['a@example.com'], ['b@example.com']]), 't');
      await service.accept(validRequest([['c@example.com']]), 't');

      expect(await service.runOnce()).toBe(3); // nothing listens: connection refused
      expect(await service.runOnce()).toBe(0); // not due before the backoff
      smtp = await startSmtp(port);
      smtp.refuse = { code: 451, text: 'Temporary local problem' };
      t.advance(1000);
      expect(await service.runOnce()).toBe(3);
      expect(smtp.received).toHaveLength(0);
      smtp.refuse = null;
      t.advance(1999);
      expect(await service.runOnce()).toBe(0); // second backoff is 2 s
      t.advance(1);
      expect(await service.runOnce()).toBe(3);
      t.advance(60_000);
      expect(await service.runOnce()).toBe(0);

      const to = smtp.received.map((m) => (m.to as { text: string }).text).sort();
      expect(to).toEqual(['"Ana Pérez" <a@example.com>', '"Ana Pérez" <b@example.com>', '"Ana Pérez" <c@example.com>']);
      const events = await service.events('m-1', 't');
      const first = events!.events.filter((e) => e.personalization === 0);
      expect(first.map((e) => [e.type, e.attempt])).toEqual([
        ['queued', 0],
        ['attempt_failed', 1],
        ['attempt_failed', 2],
        ['sent', 3],
      ]);
      expect(first[1]!.detail).toMatch(/ECONNREFUSED|ECONNECTION/);
      expect(first[2]!.detail).toMatch(/^SMTP 451: .*Temporary local problem/);
      expect(events!.messages.map((m) => m.state)).toEqual(['sent', 'sent']);
    } finally {
      await service.stop();
      await storage.close();
      await smtp?.close();
    }
  });

  it('a permanent refusal (550) fails the message at once, with the reason, without retrying', async () => {
    const smtp = await startSmtp();
    const storage = await openStorage();
    const service = createMailService({ storage, transport: createSmtpTransport({ url: smtp.url }), newId: () => 'p-1' });
    try {
      smtp.refuse = { code: 550, text: 'Mailbox unavailable' };
      await service.accept(validRequest(), 't');
      expect(await service.runOnce()).toBe(1);
      const events = await service.events('p-1', 't');
      expect(events!.messages).toEqual([{ personalization: 0, state: 'failed', attempts: 1 }]);
      expect(events!.events.map((e) => e.type)).toEqual(['queued', 'attempt_failed', 'failed']);
      expect(events!.events[2]!.detail).toMatch(/^SMTP 550: .*Mailbox unavailable/);
    } finally {
      await service.stop();
      await storage.close();
      await smtp.close();
    }
  });
  it('gives up after maxAttempts with the last reason, and the message is never attempted again', async () => {
    const port = await freePort();
    const storage = await openStorage();
    const t = manualClock();
    const service = createMailService({
      storage,
      transport: createSmtpTransport({ url: `smtp://127.0.0.1:${port}`, attemptTimeoutMs: 5000 }),
      clock: t.clock,
      newId: () => 'x-1',
      retry: { baseMs: 1000, maxMs: 1000, maxAttempts: 3 },
    });
    try {
      await service.accept(validRequest(), 't');
      for (let i = 0; i < 3; i++) {
        expect(await service.runOnce()).toBe(1);
        t.advance(1000);
      }
      t.advance(3_600_000);
      expect(await service.runOnce()).toBe(0);
      const events = await service.events('x-1', 't');
      expect(events!.messages).toEqual([{ personalization: 0, state: 'failed', attempts: 3 }]);
      expect(events!.events.map((e) => [e.type, e.attempt])).toEqual([
        ['queued', 0],
        ['attempt_failed', 1],
        ['attempt_failed', 2],
        ['attempt_failed', 3],
        ['failed', 3],
      ]);
      expect(events!.events[4]!.detail).toMatch(/ECONNREFUSED|ECONNECTION/);
    } finally {
      await service.stop();
      await storage.close();
    }
  });
});

describe('crash safety', () => {
  it('a row left sending by a dead sender is retried after its lease, with the same Message-ID, once', async () => {
    const smtp = await startSmtp();
    const storage = await openStorage();
    const t = manualClock();
    const service = createMailService({ storage, transport: createSmtpTransport({ url: smtp.url }), clock: t.clock, newId: () => 'c-1', leaseMs: 60_000 });
    try {
      await service.accept(validRequest(), 't');
      // A sender that claimed the row and died before sending.
      expect(await storage.claimDue(t.now, 'dead-sender', 60_000, 10)).toHaveLength(1);
      t.advance(59_999);
      expect(await service.runOnce()).toBe(0);
      t.advance(1);
      expect(await service.runOnce()).toBe(1);
      expect(smtp.received.map((m) => m.messageId)).toEqual(['<c-1.0@empresa.example>']);
      const events = await service.events('c-1', 't');
      expect(events!.messages).toEqual([{ personalization: 0, state: 'sent', attempts: 2 }]);
    } finally {
      await service.stop();
      await storage.close();
      await smtp.close();
    }
  });

  it('a message sent is never sent again by a new service instance on the same SQLite file', async () => {
    const smtp = await startSmtp();
    const file = join(tempDir(), 'mail.sqlite');
    const t = manualClock();
    const first = await openStorage(file);
    const a = createMailService({ storage: first, transport: createSmtpTransport({ url: smtp.url }), clock: t.clock, newId: () => 'r-1', pollIntervalMs: 10 });
    await a.accept(validRequest([['a@example.com'], ['b@example.com']]), 't');
    a.start();
    for (let i = 0; i < 200 && smtp.received.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    await a.stop();
    await first.close();
    expect(smtp.received).toHaveLength(2);

    const second = await openStorage(file);
    const b = createMailService({ storage: second, transport: createSmtpTransport({ url: smtp.url }), clock: t.clock });
    try {
      t.advance(24 * 3_600_000);
      expect(await b.runOnce()).toBe(0);
      expect(smtp.received).toHaveLength(2);
      expect((await b.events('r-1', 't'))!.messages.map((m) => m.state)).toEqual(['sent', 'sent']);
    } finally {
      await b.stop();
      await second.close();
      await smtp.close();
    }
  });

  it('the documented window: SMTP accepted but "sent" not recorded → sent again with the same Message-ID', async () => {
    const smtp = await startSmtp();
    const storage = await openStorage();
    const t = manualClock();
    let failOnce = true;
    const flaky: MailStorage = {
      ...storage,
      markSent: async (...args) => {
        if (failOnce) {
          failOnce = false;
          throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
        }
        return storage.markSent(...args);
      },
    };
    const { lines, logger } = logs();
    const service = createMailService({
      storage: flaky,
      transport: createSmtpTransport({ url: smtp.url }),
      clock: t.clock,
      newId: () => 'w-1',
      leaseMs: 60_000,
      logger,
    });
    try {
      await service.accept(validRequest(), 't');
      expect(await service.runOnce()).toBe(1);
      expect(lines.some((l) => l.msg === 'mail outcome not recorded')).toBe(true);
      t.advance(60_000);
      expect(await service.runOnce()).toBe(1);
      expect(smtp.received.map((m) => m.messageId)).toEqual(['<w-1.0@empresa.example>', '<w-1.0@empresa.example>']);
      expect((await service.events('w-1', 't'))!.messages).toEqual([{ personalization: 0, state: 'sent', attempts: 2 }]);
    } finally {
      await service.stop();
      await storage.close();
      await smtp.close();
    }
  });
});

describe('.eml fallback without SMTP_URL', () => {
  it('writes each message as a parseable .eml file in <dataDir>/mail and says so at start', async () => {
    const dataDir = tempDir();
    const storage = await openStorage(join(dataDir, 'db.sqlite'));
    const { lines, logger } = logs();
    const service = createMailService({ storage, transport: createMailTransport({ dataDir }), newId: () => 'e-1', logger, pollIntervalMs: 10 });
    try {
      const req = validRequest([['a@example.com'], ['b@example.com']]);
      req.attachments = [{ content: Buffer.from('<xml/>').toString('base64'), mime: 'text/xml', filename: 'ad.xml' }];
      await service.accept(req, 't');
      service.start();
      expect(lines.find((l) => l.msg?.startsWith('mail sender started'))!.msg).toBe(`mail sender started: mail goes to .eml files in ${join(dataDir, 'mail')}`);
      for (let i = 0; i < 200 && (await service.events('e-1', 't'))!.messages.some((m) => m.state !== 'sent'); i++) await new Promise((r) => setTimeout(r, 10));
      const files = readdirSync(join(dataDir, 'mail')).sort();
      expect(files).toEqual(['e-1.0_empresa.example.eml', 'e-1.1_empresa.example.eml']);
      const parsed = await simpleParser(readFileSync(join(dataDir, 'mail', files[1]!)));
      expect(parsed.messageId).toBe('<e-1.1@empresa.example>');
      expect(parsed.subject).toBe('Factura SETP990000001');
      expect((parsed.to as { text: string }).text).toBe('"Ana Pérez" <b@example.com>');
      expect(parsed.attachments[0]!.content.toString()).toBe('<xml/>');
    } finally {
      await service.stop();
      await storage.close();
    }
  });
});

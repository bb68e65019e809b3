/** Test helpers of the mail subsystem: a valid request, an in-process SMTP server that parses what it receives. */
import { createServer } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A valid request with one personalization per address list in `to`. */
export function validRequest(to: string[][] = [['ana@example.com']]): any {
  return {
    personalizations: to.map((list, i) => ({
      custom_args: { message_uuid: `cufe-${i}`, environment: '2' },
      to: list.map((email) => ({ email, name: 'Ana Pérez' })),
      dynamic_template_data: {
        subject: `Factura SETP99000000${i}`,
        header: { brand_name: 'Mi Empresa SAS' },
        body: { customer_name: 'Ana Pérez', document_type: 'Factura electrónica', document_number: `SETP99000000${i}`, uuid: `cufe-${i}` },
        footer: { year: '2026', brand_name: 'Mi Empresa SAS', address: 'Calle 1 # 2-3, Bogotá', telephone: '+57 601 000 0000' },
      },
    })),
    from: { email: 'facturas@empresa.example', name: 'Mi Empresa' },
    email_to_notify: [],
  };
}

/** A free TCP port on 127.0.0.1 (nothing listens on it when this returns). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export interface TestSmtp {
  port: number;
  url: string;
  /** Every message the server accepted, parsed, in order of arrival. */
  received: ParsedMail[];
  /** Raw bytes of each accepted message. */
  raw: Buffer[];
  /** When set, DATA is answered with this SMTP code and text (a temporary or permanent refusal). */
  refuse: { code: number; text: string } | null;
  /**
   * Connection errors the server met after it started (a client killed mid-conversation resets its socket); kept
   * here instead of crashing the test process as an unhandled 'error' event.
   */
  errors: Error[];
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 (`port`, or a free one) that accepts everything unless told to refuse. */
export async function startSmtp(port = 0): Promise<TestSmtp> {
  const state: TestSmtp = {
    port: 0,
    url: '',
    received: [],
    raw: [],
    refuse: null,
    errors: [],
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (state.refuse) {
          const err = Object.assign(new Error(state.refuse.text), { responseCode: state.refuse.code });
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks);
        state.raw.push(raw);
        state.received.push(await simpleParser(raw));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  server.on('error', (e: Error) => state.errors.push(e));
  state.port = (server.server.address() as { port: number }).port;
  state.url = `smtp://127.0.0.1:${state.port}`;
  state.close = () => new Promise<void>((r) => server.close(() => r()));
  return state;
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.UTC(2026, 10, 24, 17, 30, 0)) {
  let t = start;
  return {
    clock: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
    get now() {
      return t;
    },
  };
}

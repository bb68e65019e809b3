/**
 * `ecf dian send` and `ecf dian status`: talk to DIAN's web service (or the local DIAN) from the command line. A
 * thin adapter over `createDianClient` of `ecf-kit/dian/transport`: the zip `ecf dian zip` wrote goes out with the
 * operation its document's root calls for (invoices and notes SendBillSync, or with a test set SendTestSetAsync, as for payroll;
 * events SendEventUpdateStatus; payroll SendNominaSync), signed in the WS-Security header with the .p12; answers
 * and failures are printed as JSON on stdout.
 */
import { basename } from 'node:path';
import { parseFlags, UsageError, type CliCommand, type CliIo, optionalFlag } from '../../shared/cli/command.js';
import { readZip } from '../../shared/xsd/zip.js';
import type { DianClient, DianOperation } from '../transport/index.js';
import { detectDianSchemaId, type DianSchemaId } from '../xsd/index.js';
import { openSigner, password, rejectUnknown } from './sign.js';

const CONNECTION = ['endpoint', 'environment', 'p12', 'password-env', 'password-file', 'timeout-ms'] as const;
const CONNECTION_USAGE = '(--endpoint URL | --environment 1|2) --p12 FILE (--password-env VAR | --password-file FILE) [--timeout-ms N]';

/** The operation that sends each root (a test set turns SendBillSync into SendTestSetAsync). */
const SEND_BY_ROOT: Partial<Record<DianSchemaId, DianOperation>> = {
  Invoice: 'SendBillSync',
  CreditNote: 'SendBillSync',
  DebitNote: 'SendBillSync',
  ApplicationResponse: 'SendEventUpdateStatus',
  NominaIndividual: 'SendNominaSync',
  NominaIndividualDeAjuste: 'SendNominaSync',
};

type Flags = Record<string, string | true>;

/** The client the flags describe, or 2 after saying why not on stderr. */
async function connect(command: string, flags: Flags, io: CliIo): Promise<DianClient | 2> {
  const endpoint = optionalFlag(flags, 'endpoint');
  const environment = optionalFlag(flags, 'environment');
  if (endpoint === undefined && environment === undefined) throw new UsageError('missing --endpoint URL or --environment 1|2');
  if (environment !== undefined && environment !== '1' && environment !== '2') throw new UsageError('--environment must be 1 (production) or 2 (habilitación)');
  const timeout = optionalFlag(flags, 'timeout-ms');
  const timeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new UsageError('--timeout-ms must be a positive integer');
  const p12 = optionalFlag(flags, 'p12');
  if (p12 === undefined) throw new UsageError('missing --p12 (the certificate that signs the WS-Security header)');
  const signer = await openSigner(command, p12, await password(flags, io), io, () => new Date());
  if (signer === 2) return 2;
  const { createDianClient } = await import('../transport/index.js');
  return createDianClient({
    signer,
    ...(endpoint === undefined ? { environment: environment as '1' | '2' } : { endpoint }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

/** Runs one call: the answer as JSON (exit by `exit`), DIAN's or the network's refusal as `{error}` JSON (exit 1). */
async function call(client: DianClient, io: CliIo, run: () => Promise<unknown>, exit: (answer: unknown) => number): Promise<number> {
  const { isAuthorityError, isTransportError } = await import('../transport/index.js');
  try {
    const answer = await run();
    io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
    return exit(answer);
  } catch (e) {
    if (isAuthorityError(e)) {
      io.stdout(`${JSON.stringify({ error: { type: 'authority', code: e.code, status: e.status, message: e.message, mensajes: e.mensajes } }, null, 2)}\n`);
      return 1;
    }
    if (isTransportError(e)) {
      const error = { type: 'transport', code: e.code, status: e.status, message: e.message, retryable: e.retryable, outcomeUnknown: e.outcomeUnknown };
      io.stdout(`${JSON.stringify({ error }, null, 2)}\n`);
      if (e.outcomeUnknown) io.stderr('The answer was lost after sending: ask `ecf dian status` for the document key before sending it again.\n');
      return 1;
    }
    throw e;
  } finally {
    await client.close();
  }
}

const valid = (answer: unknown) => ((answer as { isValid?: boolean }).isValid === true ? 0 : 1);

/** A send command for the documents of `roots` (every root DIAN receives, or payroll only). */
function sendCommand(name: string, summary: string, roots: Partial<Record<DianSchemaId, DianOperation>>): CliCommand {
  const command = `ecf ${name}`;
  return {
    name,
    summary,
    usage: `${command} ${CONNECTION_USAGE} [--test-set ID] <file.zip>`,
    async run(args, io) {
      const { flags, positional } = parseFlags(args);
      rejectUnknown(flags, [...CONNECTION, 'test-set']);
      if (positional.length !== 1) throw new UsageError(positional.length === 0 ? 'missing the zip to send' : 'one zip per call');
      const file = positional[0]!;
      const bytes = await io.readFile(file).catch((e: Error) => e);
      if (bytes instanceof Error) {
        io.stderr(`${command}: cannot read ${file}: ${bytes.message}\n`);
        return 2;
      }
      let xml: string;
      try {
        const entries = readZip(Buffer.from(bytes)).filter((e) => !e.isDirectory);
        if (entries.length !== 1) throw new Error(`it holds ${entries.length} files; DIAN's synchronous operations take exactly one XML`);
        xml = entries[0]!.read().toString('utf8');
      } catch (e) {
        io.stderr(`${command}: ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
        return 2;
      }
      const root = detectDianSchemaId(xml);
      const operation = root ? roots[root] : undefined;
      if (!operation) {
        io.stderr(`${command}: ${file}: the XML is not a document this command sends (root ${root ?? 'unknown'}; it sends ${Object.keys(roots).join(', ')})\n`);
        return 2;
      }
      const testSet = optionalFlag(flags, 'test-set');
      if (testSet !== undefined && operation === 'SendEventUpdateStatus') throw new UsageError('--test-set applies to invoices, notes and payroll, not events');
      const client = await connect(command, flags, io);
      if (client === 2) return 2;
      const contentFile = Buffer.from(bytes).toString('base64');
      const fileName = basename(file);
      if (testSet !== undefined) {
        return call(
          client,
          io,
          () => client.call('SendTestSetAsync', { fileName, contentFile, testSetId: testSet }),
          (a) => ((a as { zipKey?: string }).zipKey ? 0 : 1),
        );
      }
      const params = operation === 'SendBillSync' ? { fileName, contentFile } : { contentFile };
      return call(client, io, () => client.call(operation, params), valid);
    },
  };
}

/** `ecf dian send`: exit 0 accepted (or an asynchronous upload taken), 1 rejected or refused, 2 usage or unreadable files. */
export const dianSendCommand = sendCommand(
  'dian send',
  "Send a zip from `ecf dian zip` to DIAN (or a local DIAN): the operation follows the document's root (invoice and notes SendBillSync, event SendEventUpdateStatus, payroll SendNominaSync; with --test-set, documents and payroll go by SendTestSetAsync); DIAN's answer as JSON on stdout. Exit 0 accepted or upload taken, 1 rejected or refused, 2 usage or unreadable file",
  SEND_BY_ROOT,
);

/** `ecf dian payroll send`: `ecf dian send` for payroll documents only (SendNominaSync). */
export const dianPayrollSendCommand = sendCommand(
  'dian payroll send',
  "Send a zipped payroll document (102 or 103) to DIAN (or a local DIAN) with SendNominaSync (SendTestSetAsync with --test-set); DIAN's answer as JSON on stdout. Exit 0 accepted, 1 rejected or refused, 2 usage or unreadable file",
  { NominaIndividual: 'SendNominaSync', NominaIndividualDeAjuste: 'SendNominaSync' },
);

/** `ecf dian status`: exit 0 valid (or verdicts listed), 1 not valid, still processing, or refused, 2 usage. */
export const dianStatusCommand: CliCommand = {
  name: 'dian status',
  summary:
    "Ask DIAN (or a local DIAN) for a document's verdict by its CUFE/CUDE/CUNE (GetStatus; --wait polls while DIAN answers 98), an event list (--events, GetStatusEvent) or an asynchronous zip's verdicts (--zip-key, GetStatusZip); the answer as JSON on stdout. Exit 0 valid, 1 not valid or refused, 2 usage",
  usage: `ecf dian status ${CONNECTION_USAGE} [--wait | --events | --zip-key] <key>`,
  async run(args, io) {
    const { flags, positional } = parseFlags(args, ['wait', 'events', 'zip-key']);
    rejectUnknown(flags, [...CONNECTION, 'wait', 'events', 'zip-key']);
    if (positional.length !== 1) throw new UsageError('give one key: a CUFE, CUDE or CUNE (or a ZipKey with --zip-key)');
    const modes = (['wait', 'events', 'zip-key'] as const).filter((m) => flags[m] !== undefined);
    if (modes.length > 1) throw new UsageError(`--${modes.join(' and --')} do not go together`);
    const key = positional[0]!;
    const client = await connect('ecf dian status', flags, io);
    if (client === 2) return 2;
    if (modes[0] === 'zip-key') {
      return call(
        client,
        io,
        () => client.getStatusZip(key),
        (a) => ((a as { isValid: boolean }[]).length > 0 && (a as { isValid: boolean }[]).every((r) => r.isValid) ? 0 : 1),
      );
    }
    if (modes[0] === 'events') return call(client, io, () => client.getStatusEvent(key), valid);
    if (modes[0] === 'wait') return call(client, io, () => client.waitForStatus(key), valid);
    return call(client, io, () => client.getStatus(key), valid);
  },
};

/** `ecf dian payroll status`: `ecf dian status` by a payroll document's CUNE. */
export const dianPayrollStatusCommand: CliCommand = {
  ...dianStatusCommand,
  name: 'dian payroll status',
  summary:
    "A payroll document's verdict by its CUNE (GetStatus; --wait polls while DIAN answers 98); the answer as JSON on stdout. Exit 0 valid, 1 not valid or refused, 2 usage",
  usage: `ecf dian payroll status ${CONNECTION_USAGE} [--wait] <CUNE>`,
};

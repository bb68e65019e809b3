/**
 * What every operation of the local DIAN shares: its context (state, clock, schemas, its DIAN signer), the zip
 * reader, and the verdict made from rule messages (with DIAN's signed ApplicationResponse).
 */
import { unzipSync } from 'fflate';
import type { Signer } from '../../shared/ports.js';
import { formatDianRuleMessage } from '../rules/message.js';
import { bogotaTime } from '../sign/sign.js';
import type { UblNode } from '../ubl/tree.js';
import type { DianXsdSchemaValidator } from '../xsd/validator.js';
import { signedAnswerDocument } from './answer-document.js';
import type { DianSimStore } from './store.js';
import type { DianSimVerdict } from './types.js';

/** The simulator's context, handed to every operation. */
export interface SimCore {
  store: DianSimStore;
  clock: () => Date;
  schemas: DianXsdSchemaValidator;
  /** The simulator's DIAN test identity (NIT 800197268). */
  signer: Signer;
  processingDelayMs: number;
  /** Schedules an asynchronous zip's processing after the delay. */
  schedule(zipKey: string): void;
  /**
   * Runs `task` after every task queued before it has finished: documents and events are processed one at a time,
   * so two copies of a document arriving together cannot both pass the duplicate check.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
}

/** A queue for {@link SimCore.exclusive}: each task starts when the previous one has settled. */
export function createExclusive(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** One rule message. */
export interface SimMessage {
  rule: string;
  kind: 'Rechazo' | 'Notificación';
  text: string;
}

/** Most files in one zip (§6.2: an asynchronous zip holds fewer than 51) and most bytes of one file. */
const MAX_FILES = 50;
const MAX_FILE_BYTES = 10 * 1024 * 1024;
/**
 * Most bytes of all the files of one zip together, as their headers declare them (fflate inflates a file into
 * its declared size and no further, so a header that lies cannot make it more). Without it, 50 files of 10 MB
 * of zeros (a 500 KB request) would inflate to 500 MB.
 */
const MAX_ZIP_BYTES = 20 * 1024 * 1024;

/** The XML files of a zip sent base64, or why not (Spanish). */
export function readZip(base64: string | undefined): { ok: true; files: { name: string; xml: string }[] } | { ok: false; reason: string } {
  if (!base64) return { ok: false, reason: 'No se envió el archivo (contentFile).' };
  if (!/^[A-Za-z0-9+/=\s]+$/.test(base64)) return { ok: false, reason: 'El contenido (contentFile) no es base64.' };
  let entries: Record<string, Uint8Array>;
  try {
    let tooBig = false;
    let lies = false;
    let count = 0;
    let total = 0;
    entries = unzipSync(Buffer.from(base64, 'base64'), {
      filter: (f) => {
        count++;
        total += f.originalSize;
        if (f.originalSize > MAX_FILE_BYTES) tooBig = true;
        // Deflate never grows data by more than 5 bytes per 64 KB stored block: more compressed bytes than that
        // means the declared size lies (fflate would inflate the whole stream into the declared size, for nothing).
        if (f.size > f.originalSize + 5 * Math.ceil(f.originalSize / 65_535) + 64) lies = true;
        return !tooBig && !lies && total <= MAX_ZIP_BYTES && count <= MAX_FILES && !f.name.endsWith('/');
      },
    });
    if (lies) return { ok: false, reason: 'El zip está dañado: un archivo declara un tamaño menor que su contenido comprimido.' };
    if (tooBig) return { ok: false, reason: `Un archivo del zip pasa de ${MAX_FILE_BYTES} bytes.` };
    if (total > MAX_ZIP_BYTES) return { ok: false, reason: `Los archivos del zip suman más de ${MAX_ZIP_BYTES} bytes.` };
    if (count > MAX_FILES) return { ok: false, reason: `El zip tiene más de ${MAX_FILES} archivos.` };
  } catch (e) {
    return { ok: false, reason: `El zip está dañado o no es un zip (${e instanceof Error ? e.message : String(e)}).` };
  }
  const files = Object.entries(entries)
    .filter(([name]) => name.toLowerCase().endsWith('.xml'))
    .map(([name, bytes]) => ({ name, xml: new TextDecoder('utf-8').decode(bytes) }));
  if (files.length === 0) return { ok: false, reason: 'El zip no contiene archivos XML.' };
  return { ok: true, files };
}

/** `Regla: X, Kind: text`. */
export function messageString(m: SimMessage): string {
  return formatDianRuleMessage(m);
}

/** A verdict without an ApplicationResponse (the document could not be read, or was not a document). */
export function unreadVerdict(messages: SimMessage[], fileName: string | null, key: string | null = null): DianSimVerdict {
  return {
    isValid: false,
    statusCode: '99',
    statusDescription: 'Validación contiene errores en campos mandatorios.',
    statusMessage: 'Documento con errores en campos mandatorios.',
    messages: messages.map(messageString),
    applicationResponse: null,
    documentKey: key,
    fileName,
  };
}

/** What a verdict on a read document needs. */
export interface VerdictInput {
  messages: SimMessage[];
  fileName: string | null;
  /** The document: number, key, scheme, environment, sender's PartyTaxScheme; the label of the closing line. */
  number: string;
  key: string;
  scheme: string;
  environment: string;
  sender: UblNode | undefined;
  label: string;
}

/** The verdict: valid when no message is a Rechazo; DIAN's signed ApplicationResponse either way. */
export async function verdictOf(core: SimCore, input: VerdictInput): Promise<DianSimVerdict> {
  const valid = !input.messages.some((m) => m.kind === 'Rechazo');
  const state = core.store.state;
  state.responseCounter += 1;
  core.store.changed();
  const closing = valid ? `${input.label} ${input.number}, ha sido autorizada.` : `${input.label} ${input.number}, ha sido rechazada.`;
  const applicationResponse = await signedAnswerDocument(
    {
      valid,
      environment: input.environment || '2',
      id: String(state.responseCounter),
      documentId: input.number,
      documentKey: input.key,
      documentKeyScheme: input.scheme,
      receiver: input.sender,
      messages: input.messages.map((m) => ({ rule: m.rule, text: messageString(m) })),
      closing,
      now: core.clock(),
    },
    core.signer,
  );
  return {
    isValid: valid,
    statusCode: valid ? '00' : '99',
    statusDescription: valid ? 'Procesado Correctamente.' : 'Validación contiene errores en campos mandatorios.',
    statusMessage: closing,
    messages: input.messages.map(messageString),
    applicationResponse,
    documentKey: input.key,
    fileName: input.fileName,
  };
}

/** `yyyy-MM-dd` in Bogotá: the rules' `today`. */
export function bogotaDate(now: Date): string {
  return bogotaTime(now).slice(0, 10);
}

/** Adds messages not already present (same rule and text). */
export function addMessages(into: SimMessage[], more: readonly SimMessage[]): void {
  for (const m of more) if (!into.some((x) => x.rule === m.rule && x.text === m.text)) into.push(m);
}

/**
 * What the answers may be: the documented status codes of each operation (read from the app's own OpenAPI
 * document, the one `GET /api/v1/openapi.json` serves), the inbound services' codes (src/ecf/server/inbound), and
 * the shape of error bodies (the spec's envelope, a Spanish message, no internals).
 *
 * A 500 is never acceptable here even where it is documented: every request a fuzzer sends is the client's
 * fault or a legitimate request, so an internal error is a bug.
 */
import { expect } from 'vitest';
import { openApiDocument } from '../../../../src/ecf/server/app/index.js';

interface Operation {
  method: string;
  template: string;
  re: RegExp;
  codes: Set<number>;
}

const OPERATIONS: Operation[] = (() => {
  const doc = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  const ops: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries(methods)) {
      ops.push({ method: method.toUpperCase(), template, re, codes: new Set(Object.keys(op.responses).map(Number)) });
    }
  }
  return ops;
})();

/** Statuses the documentation allows for `method path` (the unknown-route 404 and 401 when no operation matches). */
export function documentedApiStatuses(method: string, pathname: string): { operation: string; codes: Set<number> } {
  const op = OPERATIONS.find((o) => o.method === method.toUpperCase() && o.re.test(pathname));
  if (op) return { operation: `${op.method} ${op.template}`, codes: new Set([...op.codes].filter((c) => c !== 500)) };
  // docs/server.md: every path under /api/v1 needs the token (401) and an unknown route is a 404.
  return { operation: `unknown route ${method} ${pathname}`, codes: new Set([401, 404]) };
}

export type InboundService = 'semilla' | 'validacioncertificado' | 'recepcion' | 'aprobacioncomercial';

/**
 * Inbound services (src/ecf/server/inbound): 200; 400 refused input; 401 token or seed refused (or a token of
 * another RNC than the document's sender); 404 unknown tenant prefix; 405 wrong method; 409 a buyer's
 * different second decision on a document; 413 body over the limit; 429 the sender's daily quota. (503 is only
 * for a receptor without a usable signer, never the case here.)
 */
export const INBOUND_STATUSES: Record<InboundService, Set<number>> = {
  semilla: new Set([200, 404, 405]),
  validacioncertificado: new Set([200, 400, 401, 404, 405, 413]),
  recepcion: new Set([200, 400, 401, 404, 405, 413, 429]),
  aprobacioncomercial: new Set([200, 400, 401, 404, 405, 409, 413]),
};

/** Words that only a Spanish sentence of this service carries (at least one must appear). */
const SPANISH =
  /\b(el|la|los|las|de|del|no|un|una|es|debe|en|con|para|por|que|se|al|ya|mal|formad[oa]|requerid[oa]|inválid[oa]s?|válid[oa]|límite|cuerpo|solicitud|emisor|tipo|campo|rango|token|recurso|encontrado|contenido|formulario|certificado|elemento|atributos?|documento|número|fecha|monto|secuencia|firmad[oa]|esquema|texto|admite|existe|corresponde)\b|[áéíóúñ¿¡]/i;
/** What must never leak into a message: JavaScript errors, stack frames, source paths, database errors. */
const INTERNALS =
  /\b(TypeError|RangeError|SyntaxError|ReferenceError|SqliteError|Cannot read propert|is not a function|is not iterable|\[object Object\]|at \S+ \(\/|node_modules|\.ts:\d+:\d+|SQLITE_|Maximum call stack)/;

export function expectSpanishMessage(message: unknown, where: string): void {
  expect(typeof message, `${where}: message is a string`).toBe('string');
  const m = message as string;
  expect(m.trim().length, `${where}: message is not empty`).toBeGreaterThan(0);
  expect(SPANISH.test(m), `${where}: message in Spanish: ${m.slice(0, 200)}`).toBe(true);
  expect(INTERNALS.test(m), `${where}: message without internals: ${m.slice(0, 300)}`).toBe(false);
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  json: any;
}

export async function read(res: Response): Promise<Answer> {
  // In process, a run of requests can be one long chain of microtasks (SQLite is synchronous): yield to the
  // event loop so the test runner's own messages get through (else vitest reports an RPC timeout).
  await new Promise((r) => setImmediate(r));
  const contentType = res.headers.get('content-type') ?? '';
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = contentType.includes('pdf') ? '' : new TextDecoder().decode(bytes);
  let json: any = null;
  if (contentType.includes('json') && text !== '') json = JSON.parse(text);
  return { status: res.status, contentType, text, json };
}

/** An /api/v1 answer: a documented status, and on errors the spec's envelope with a Spanish message. */
export function expectApiAnswer(method: string, pathname: string, a: Answer, label: string): void {
  const { operation, codes } = documentedApiStatuses(method, pathname);
  expect(codes.has(a.status), `${label}: ${operation} answered ${a.status}, documented ${[...codes].join(', ')}; body ${a.text.slice(0, 400)}`).toBe(true);
  if (a.status < 400) return;
  expect(a.contentType, `${label}: error body is JSON`).toMatch(/^application\/json/);
  const body = a.json;
  expect(body && typeof body === 'object' && !Array.isArray(body), `${label}: envelope is an object`).toBe(true);
  expect(body.status, `${label}: envelope status`).toBe('error');
  expectSpanishMessage(body.message, label);
  expect('document' in body, `${label}: envelope has document`).toBe(true);
  expect(body.document === null || (typeof body.document === 'object' && !Array.isArray(body.document)), `${label}: document is null or an object`).toBe(true);
  const extra = Object.keys(body).filter((k) => !['status', 'message', 'document', 'data'].includes(k));
  expect(extra, `${label}: envelope members`).toEqual([]);
  if (body.document && Array.isArray(body.document.errors)) {
    for (const e of body.document.errors.slice(0, 20)) expectSpanishMessage(e, `${label} errors[]`);
  }
}

/** An inbound answer: a documented status; errors as `{estado: 'Error', mensaje, mensajes}` (JSON or XML). */
export function expectInboundAnswer(service: InboundService, a: Answer, label: string): void {
  const codes = INBOUND_STATUSES[service];
  expect(codes.has(a.status), `${label}: ${service} answered ${a.status}, documented ${[...codes].join(', ')}; body ${a.text.slice(0, 400)}`).toBe(true);
  if (a.status < 400) return;
  if (a.contentType.startsWith('application/json')) {
    expect(a.json.estado, `${label}: estado`).toBe('Error');
    expectSpanishMessage(a.json.mensaje, label);
    expect(Array.isArray(a.json.mensajes), `${label}: mensajes[]`).toBe(true);
  } else {
    expect(a.contentType, `${label}: error body is JSON or XML`).toMatch(/^application\/xml/);
    expect(a.text).toMatch(/<RespuestaError><Estado>Error<\/Estado><Mensaje>/);
    expectSpanishMessage(/<Mensaje>([^<]*)<\/Mensaje>/.exec(a.text)?.[1], label);
  }
}

/** Fixed by default for reproducibility; `FC_SEED` overrides. Printed so a failure can be replayed. */
export function fuzzSeed(file: string): number {
  const env = process.env.FC_SEED;
  const seed = env !== undefined && /^-?\d+$/.test(env) ? Number(env) : 20_260_401;
  console.log(`[${file}] fast-check seed ${seed} (set FC_SEED to change it)`);
  return seed;
}

/** Keeps the slowest cases of a property (label and milliseconds) for the log: a diagnostic, never an assertion. */
export class Slowest {
  private readonly cases: { ms: number; what: string }[] = [];
  constructor(private readonly keep = 3) {}
  async time<T>(what: () => string, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.cases.push({ ms: performance.now() - t0, what: what() });
      this.cases.sort((a, b) => b.ms - a.ms);
      this.cases.length = Math.min(this.cases.length, this.keep);
    }
  }
  toString(): string {
    return this.cases.map((c) => `${Math.round(c.ms)} ms ${c.what.slice(0, 160)}`).join(' | ');
  }
}

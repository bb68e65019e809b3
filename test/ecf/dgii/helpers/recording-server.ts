/**
 * A loopback HTTP server for transport tests: records every request (method, path, query, headers,
 * raw body, multipart parts) and answers from a per-test script. Routes match the path
 * case-insensitively (as DGII does); each route holds a queue of replies (the last one repeats) or
 * a function. Unmatched requests get 404.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface MultipartPart {
  name: string | null;
  fileName: string | null;
  contentType: string | null;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Raw query string (without `?`). */
  rawQuery: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Header names in the order and case they arrived. */
  rawHeaderNames: string[];
  body: Buffer;
  parts: MultipartPart[];
}

export type Reply =
  | { status?: number; headers?: Record<string, string>; body?: string | Buffer; json?: unknown; delayMs?: number }
  /** Close the connection after reading the request, before any answer. */
  | { drop: true }
  /** Send headers and part of the body, then close the connection. */
  | { dropMidBody: true }
  /** Never answer (until the server closes). */
  | { hang: true };

export type Handler = (req: RecordedRequest) => Reply | Promise<Reply>;

export interface RecordingServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests to one path (case-insensitive). */
  requestsTo(path: string): RecordedRequest[];
  /** Sets the script of a route: a handler, or replies served in order (the last one repeats). */
  route(method: string, path: string, script: Handler | Reply | Reply[]): void;
  close(): Promise<void>;
}

export async function startRecordingServer(options: { port?: number } = {}): Promise<RecordingServer> {
  const routes = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const key = (method: string, path: string) => `${method.toUpperCase()} ${path.toLowerCase()}`;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks);
      const rawHeaderNames: string[] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) rawHeaderNames.push(req.rawHeaders[i]!);
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        rawQuery: url.search.replace(/^\?/, ''),
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        rawHeaderNames,
        body,
        parts: parseMultipart(req.headers['content-type'], body),
      };
      requests.push(recorded);
      const handler = routes.get(key(recorded.method, recorded.path));
      Promise.resolve(handler ? handler(recorded) : { status: 404, body: 'Not Found' })
        .then((reply) => send(res, reply))
        .catch((e) => send(res, { status: 599, body: String(e) }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path.toLowerCase() === path.toLowerCase()),
    route(method, path, script) {
      if (typeof script === 'function') {
        routes.set(key(method, path), script);
        return;
      }
      const queue = Array.isArray(script) ? [...script] : [script];
      routes.set(key(method, path), () => (queue.length > 1 ? queue.shift()! : queue[0]!));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function send(res: ServerResponse, reply: Reply): Promise<void> {
  if ('drop' in reply) {
    res.socket?.destroy();
    return;
  }
  if ('hang' in reply) return;
  if ('dropMidBody' in reply) {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
    res.write('{"trackId":"');
    setTimeout(() => res.socket?.destroy(), 20);
    return;
  }
  if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
  const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? '');
  const headers: Record<string, string> = { ...(reply.json !== undefined ? { 'Content-Type': 'application/json; charset=utf-8' } : {}), ...reply.headers };
  res.writeHead(reply.status ?? 200, headers);
  res.end(body);
}

/** Parses multipart/form-data (enough for tests: no nested multiparts). */
export function parseMultipart(contentType: string | undefined, body: Buffer): MultipartPart[] {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  if (!m || !/^multipart\/form-data/i.test(contentType ?? '')) return [];
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: MultipartPart[] = [];
  let pos = body.indexOf(boundary);
  while (pos >= 0) {
    const start = pos + boundary.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(boundary, start);
    if (next < 0) break;
    // Part: CRLF, headers, CRLF CRLF, content, CRLF (before the next boundary).
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const headerText = part.subarray(0, split).toString('utf8');
    const content = part.subarray(split + 4);
    const headers: Record<string, string> = {};
    for (const line of headerText.split('\r\n')) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const disposition = headers['content-disposition'] ?? '';
    parts.push({
      name: /\bname="([^"]*)"/.exec(disposition)?.[1] ?? null,
      fileName: /\bfilename="([^"]*)"/.exec(disposition)?.[1] ?? null,
      contentType: headers['content-type'] ?? null,
      headers,
      body: Buffer.from(content),
      text: content.toString('utf8'),
    });
    pos = next;
  }
  return parts;
}

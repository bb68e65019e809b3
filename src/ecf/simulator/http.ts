/** The thin node:http adapter: IncomingMessage → Request, outcome → answer or destroyed socket. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Outcome } from './handler.js';

// Hop-by-hop and framing headers describe the connection, not the request the handler sees.
const SKIP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'expect']);

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!SKIP.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1]!);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
  return new Request(new URL(req.url ?? '/', origin), { method, headers, body });
}

export interface Listening {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Serves `handle` on host:port (0 = random). */
export function listen(handle: (req: Request) => Promise<Outcome>, host: string, port: number): Promise<Listening> {
  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? `${host}:${port}`}`;
    void (async () => {
      let outcome: Outcome;
      try {
        outcome = await handle(await toRequest(req, origin));
      } catch (e) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`Error interno del simulador: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      // A dropped connection: no status line at all, the client sees the socket close.
      if ('dropBefore' in outcome || outcome.dropAfter) {
        req.socket.destroy();
        return;
      }
      const { response } = outcome;
      const body = Buffer.from(await response.arrayBuffer());
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => {
        headers[k] = v;
      });
      headers['content-length'] = String(body.length);
      res.writeHead(response.status, headers);
      res.end(body);
    })();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const actual = (server.address() as AddressInfo).port;
      resolve({
        server,
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/**
 * Raw loopback sockets for connection-level tests (slow senders, connection caps): what a client writes
 * and when, byte by byte, which fetch cannot express.
 */
import { connect, type Socket } from 'node:net';

export interface RawClient {
  socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves true when the server closed the connection within `ms`, false otherwise. */
  closed(ms: number): Promise<boolean>;
  /** Writes every `everyMs` the next piece from `pieces` until they run out or the socket closes. */
  trickle(pieces: string[], everyMs: number): void;
  destroy(): void;
}

export function rawConnect(url: string): Promise<RawClient> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let data = '';
    let isClosed = false;
    const timers: NodeJS.Timeout[] = [];
    const closedWaiters: (() => void)[] = [];
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      isClosed = true;
      for (const t of timers) clearInterval(t);
      for (const w of closedWaiters.splice(0)) w();
    });
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => data,
        closed: (ms) =>
          new Promise<boolean>((done) => {
            if (isClosed) return done(true);
            const t = setTimeout(() => done(false), ms);
            closedWaiters.push(() => {
              clearTimeout(t);
              done(true);
            });
          }),
        trickle(pieces, everyMs) {
          let i = 0;
          const t = setInterval(() => {
            if (isClosed || i >= pieces.length) return clearInterval(t);
            socket.write(pieces[i++]!);
          }, everyMs);
          timers.push(t);
        },
        destroy() {
          for (const t of timers) clearInterval(t);
          socket.destroy();
        },
      }),
    );
    socket.once('error', reject);
  });
}

/**
 * A private PostgreSQL 15 cluster in a temporary directory, for tests that must stop or restart the database
 * under load (the shared cluster on 5432 is never touched). initdb runs as the `postgres` user (we run as root),
 * the server listens on 127.0.0.1 on a random free port with its socket in the temp dir, fsync on.
 *
 * `stop()` stops it and removes the directory; a process exit handler does the same if a test dies first.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onProcessEnd } from './processes.js';

/** The server binaries (Debian keeps them out of PATH): the newest /usr/lib/postgresql/N/bin. */
function serverBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL server binaries under ${root} (apt-get install postgresql)`);
  return join(root, versions[0]!, 'bin');
}

export interface PrivateCluster {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` */
  url: string;
  port: number;
  dir: string;
  /** `pg_ctl restart` with the given shutdown mode; resolves once the server accepts connections again. */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops the server (immediate) and removes the directory. Idempotent. */
  stop(): void;
  /** The server log, for failure messages. */
  log(): string;
}

/** A free TCP port on 127.0.0.1 (bind to 0, read, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function ids(user: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function asPostgres(args: string[], timeoutMs = 60_000): { status: number | null; output: string } {
  const r = spawnSync('runuser', ['-u', 'postgres', '--', ...args], { encoding: 'utf8', timeout: timeoutMs });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/** initdb + start. Throws with initdb's / pg_ctl's output when something fails. */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  const BIN = serverBin();
  const dir = mkdtempSync(join(tmpdir(), 'ecf-pg-'));
  const { uid, gid } = ids('postgres');
  chownSync(dir, uid, gid);
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const init = asPostgres([join(BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-instructions']);
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed:\n${init.output}`);
  }

  let port = 0;
  let started = false;
  let lastOutput = '';
  for (let attempt = 0; attempt < 3 && !started; attempt++) {
    port = await freePort();
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200`;
    const r = asPostgres([join(BIN, 'pg_ctl'), '-D', data, '-o', opts, '-l', logFile, '-w', '-t', '60', 'start']);
    started = r.status === 0;
    lastOutput = r.output;
  }
  if (!started) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`pg_ctl start failed:\n${lastOutput}\n${log}`);
  }

  let stopped = false;
  const cluster: PrivateCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    async restart(mode = 'fast') {
      // pg_ctl blocks until the server is up again (-w); run it off the event loop so the test keeps posting.
      await new Promise<void>((resolve, reject) => {
        const args = ['-u', 'postgres', '--', join(BIN, 'pg_ctl'), '-D', data, '-l', logFile, '-m', mode, '-w', '-t', '60', 'restart'];
        const child = spawn('runuser', args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout!.on('data', (d) => (out += String(d)));
        child.stderr!.on('data', (d) => (out += String(d)));
        child.once('error', reject);
        child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl restart -m ${mode} exited with ${code}:\n${out}`))));
      });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      asPostgres([join(BIN, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  };
  // A test that dies (timeout, crash, the runner stopping it) must not leave a postmaster behind.
  onProcessEnd(() => cluster.stop());
  return cluster;
}

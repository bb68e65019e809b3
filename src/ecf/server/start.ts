/**
 * Process entry of the reference server: `tsx src/ecf/server/start.ts` (or `node dist/server-start.js`).
 * Configuration comes from the environment (see config.ts); SIGINT/SIGTERM stop it gracefully.
 */
import { ConfigError, loadConfig } from './config.js';
import { runServer } from './main.js';

const io = { stdout: (s: string) => void process.stdout.write(s), stderr: (s: string) => void process.stderr.write(s) };

try {
  process.exitCode = await runServer(loadConfig(process.env), io);
} catch (e) {
  io.stderr(`${e instanceof ConfigError ? e.message : `ecf-kit server failed to start: ${e instanceof Error ? e.message : String(e)}`}\n`);
  process.exitCode = 1;
}

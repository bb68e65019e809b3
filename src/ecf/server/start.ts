/**
 * Process entry of the e-CF reference server alone: `tsx src/ecf/server/start.ts` (the package ships it as `ecf serve`;
 * `npm start` runs src/start-main.ts, both products on one port).
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

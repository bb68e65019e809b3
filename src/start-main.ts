/** Process entry of `npm start` (src/start.ts): both products on one port, `ECF_PRODUCTS` to switch either off. */
import { runProducts } from './start.js';

const io = { stdout: (s: string) => void process.stdout.write(s), stderr: (s: string) => void process.stderr.write(s) };

try {
  process.exitCode = await runProducts(process.env, io);
} catch (e) {
  io.stderr(`ecf-kit failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}

/**
 * Runs a DGII simulator in a process of its own (the soak test's authority, so that its work runs on
 * another core, as a real authority would): `SimulatorOptions` as JSON in argv[2]; prints
 * `{"url": …}` on stdout once listening; stops when its stdin closes (the parent finished or died)
 * or on SIGTERM. Controlled over HTTP (`/_simulator/*`).
 *
 * Started with `node --import tsx test/ecf/integration/simulator-process.ts '{"xsdDir":…}'`.
 */
import { startSimulator, type SimulatorOptions } from '../../../src/ecf/simulator/index.js';

const options = JSON.parse(process.argv[2] ?? '{}') as SimulatorOptions;
const sim = await startSimulator(options);
process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  void sim.close().finally(() => process.exit(0));
}
process.stdin.on('end', stop).on('close', stop).resume();
process.on('SIGTERM', stop);

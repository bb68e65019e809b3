/**
 * `ecf-kit/simulator`: a local DGII. One HTTP port serves the paths of both hosts (`ecf.dgii.gov.do` and
 * `fc.dgii.gov.do`, under `/testecf`, `/certecf` or `/ecf`), the `statusecf` paths, and DGII's
 * emisor–receptor test service, with DGII's shapes (JSON with `Accept: application/json`, otherwise XML
 * with PascalCase tags and US-style dates) and real checks: seed signatures, tokens, XSD, XMLDSig,
 * duplicates, references, voided ranges, security codes. Verdicts can be steered with scenarios and the
 * transport disturbed with faults (latency, 500/503, dropped connections before or after processing).
 *
 * Answers the simulator defines where DGII's documentation is silent (clients should not depend on more):
 * - reception: `{trackId, error, mensaje}`; rejections before a track id: HTTP 400 `{trackId: null, error, mensajes:[{codigo, valor}]}`
 *   (`codigo` 3243 for a file name of the wrong length, null where DGII's code is unknown);
 * - commercial approval: HTTP 200 `{mensaje:[…], estado: "Aprobación comercial aprobada" | "Aprobación comercial rechazada", codigo: "1" | "2"}`;
 * - voiding: HTTP 200 `{rnc, codigo: "1" | "2", nombre: "Aceptado" | "Rechazado", mensajes:[…]}`;
 * - 401 without a live token; 404 (an HTML page) for unknown paths.
 *
 * @example
 * const sim = await startSimulator({ xsdDir: process.env.ECF_XSD_DIR!, processingDelayMs: 20 });
 * const client = createDgiiClient({ environment: 'testecf', baseUrl: sim.url });
 * await sim.close();
 */
import { createSelfSignedIdentity, type SelfSignedIdentity } from '../../shared/xmldsig/self-signed.js';
import { createSchemaValidator } from '../xsd/validator.js';
import type { SimContext } from './context.js';
import type { ControlTarget } from './control.js';
import { normalizeEntry, upsertEntry } from './directory.js';
import { normalizeFaults, seededRng } from './faults.js';
import { createHandler } from './handler.js';
import { listen } from './http.js';
import { resolveSubmission } from './reception.js';
import { SIMULATOR_RNC } from './samples.js';
import { normalizeScenarios } from './scenarios.js';
import { openStore } from './store.js';
import type { DirectoryEntry, FaultSettings, ScenarioSettings, Simulator, SimulatorOptions, SimulatorStats } from './types.js';

export type { DirectoryEntry, FaultSettings, ForcedState, MaintenanceWindow, ScenarioSettings, Simulator, SimulatorOptions, SimulatorStats } from './types.js';
export { SIMULATOR_RNC, RECEPTOR_TYPES } from './samples.js';

let sharedIdentity: SelfSignedIdentity | null = null;
// One key per process: creating it costs ~0.5 s, and every simulator in a process may sign with it.
function simulatorIdentity(): SelfSignedIdentity {
  return (sharedIdentity ??= createSelfSignedIdentity({ commonName: 'DGII SIMULADOR DE PRUEBAS', serialNumber: SIMULATOR_RNC, days: 3650 }));
}

/**
 * Starts a simulator on `host:port` (default 127.0.0.1, a random port).
 *
 * @throws SchemaError when `xsdDir` does not hold the official XSD set; Error when `dataFile` is unreadable
 */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const schemas = createSchemaValidator(options.xsdDir);
  const logger = options.logger;
  const store = openStore(
    options.dataFile,
    logger ? (err) => logger.warn({ err, dataFile: options.dataFile }, 'simulator: saving the state failed; will retry') : undefined,
  );
  const host = options.host ?? '127.0.0.1';
  const timers = new Map<string, NodeJS.Timeout>();
  let baseUrl = '';
  let closed = false;

  const ctx: SimContext = {
    clock: options.clock ?? (() => new Date()),
    store,
    schemas,
    processingDelayMs: options.processingDelayMs ?? 200,
    tokenTtlMs: options.tokenTtlMs ?? 3_600_000,
    faults: { settings: normalizeFaults(options.faults), injected: 0 },
    scenarios: normalizeScenarios(options.scenarios),
    rng: seededRng(options.seed ?? Math.floor(Math.random() * 2 ** 32)),
    identity: simulatorIdentity,
    ...(options.controlToken !== undefined ? { controlToken: options.controlToken } : {}),
    baseUrl: () => baseUrl,
    schedule(trackId) {
      if (closed || timers.has(trackId)) return;
      const t = setTimeout(() => {
        timers.delete(trackId);
        resolveSubmission(ctx, trackId);
      }, ctx.processingDelayMs);
      t.unref();
      timers.set(trackId, t);
    },
  };

  // e-CF left in process (a restart, or a scenario that held them) get their timer again.
  const reschedulePending = () => {
    for (const s of Object.values(store.state.submissions)) if (s.xml !== undefined && s.verdict.estado === 'En Proceso') ctx.schedule(s.trackId);
  };

  const target: ControlTarget = {
    faults: () => structuredClone(ctx.faults.settings),
    setFaults(f) {
      ctx.faults = { settings: normalizeFaults(f), injected: 0 };
    },
    scenarios: () => structuredClone(ctx.scenarios),
    setScenarios(s) {
      ctx.scenarios = normalizeScenarios(s);
      reschedulePending();
    },
    stats: () => structuredClone(store.state.stats),
    addDirectoryEntry: (e) => upsertEntry(ctx, normalizeEntry(e)),
    directory: () => structuredClone(store.state.directory),
  };
  const handle = createHandler(ctx, target);
  const listening = await listen(handle, host, options.port ?? 0);
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  baseUrl = `http://${urlHost}:${listening.port}`;

  // The simulator's own receptor is in the directory, so a client can find it like any taxpayer's.
  const receptor = `${baseUrl}/testecf/emisorreceptor/fe`;
  upsertEntry(ctx, {
    nombre: 'DGII SIMULADOR DE PRUEBAS SRL',
    rnc: SIMULATOR_RNC,
    urlRecepcion: `${receptor}/recepcion/api/ecf`,
    urlAceptacion: `${receptor}/aprobacioncomercial/api/ecf`,
    urlOpcional: `${receptor}/autenticacion/api/semilla`,
  });
  for (const e of options.directory ?? []) upsertEntry(ctx, normalizeEntry(e));
  reschedulePending();

  return {
    url: baseUrl,
    port: listening.port,
    async handler(req: Request): Promise<Response> {
      const outcome = await handle(req);
      if ('dropBefore' in outcome) throw new TypeError('fetch failed (simulated connection drop before processing)');
      if (outcome.dropAfter) throw new TypeError('fetch failed (simulated connection drop after processing)');
      return outcome.response;
    },
    setFaults: (f: FaultSettings) => target.setFaults(f),
    setScenarios: (s: ScenarioSettings) => target.setScenarios(s),
    addDirectoryEntry: (e: DirectoryEntry) => target.addDirectoryEntry(e),
    stats: (): SimulatorStats => target.stats(),
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await listening.close();
      store.close();
    },
  };
}

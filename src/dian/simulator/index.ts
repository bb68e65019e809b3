/**
 * `ecf-kit/dian/simulator`: a local DIAN. It speaks DIAN's `WcfDianCustomerServices` (SOAP 1.2, WS-Addressing,
 * WS-Security) on `…/WcfDianCustomerServices.svc`, so the DIAN client and everything on it run offline:
 * WS-Security verified first (unsigned, bad signature → Sender fault `wsse:InvalidSecurity`; a timestamp expired
 * or from the future beyond the skew → `wsu:MessageExpired`; an Action that is not the Body's operation → Sender
 * fault), then one handler per operation of DIAN_OPERATIONS (./operations.ts). Documents are checked as DIAN does
 * (XSD, XAdES, CUFE/CUDE/CUDS with the seeded technical key or PIN, numbering, the annex rules, duplicates) and
 * answered with an ApplicationResponse signed by the simulator's own DIAN test identity (NIT 800197268).
 * Companies, ranges, scenarios, faults and an outage switch are set through `/control` (./control.ts); the state
 * is kept in `dataDir`. Any certificate that signs the envelope is accepted: trust is not simulated.
 *
 * @example
 * const sim = await startDianSimulator({ xsdDir: '../shared/dian-xsd', companies: [DIAN_SIM_EXAMPLE_COMPANY], ranges: [DIAN_SIM_EXAMPLE_RANGE] });
 * const dian = createDianClient({ signer, endpoint: sim.url });
 * await sim.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { seededRng } from '../../shared/random.js';
import { createSelfSignedIdentity, type SelfSignedIdentity } from '../../shared/xmldsig/self-signed.js';
import { verifyDianEnvelope } from '../transport/envelope.js';
import { ACTION_PREFIX, type DianOperation } from '../transport/operations.js';
import { createDianSchemaValidator } from '../xsd/validator.js';
import { control, normalizeCompany, normalizeFaults, normalizeRange, normalizeScenarios } from './control.js';
import { createExclusive, type SimCore } from './core.js';
import { HANDLERS, processZip } from './operations.js';
import {
  ACTION_MISMATCH,
  BAD_REQUEST,
  INTERNAL_FAULT,
  INVALID_SECURITY,
  MESSAGE_EXPIRED,
  readDianRequest,
  UNAVAILABLE_PAGE,
  writeDianAnswer,
  writeFault,
} from './soap.js';
import { openDianSimStore } from './store.js';
import type { DianSimCompany, DianSimFaults, DianSimOutage, DianSimRange, DianSimTestSet, DianSimulator, DianSimulatorOptions, DianSimStats } from './types.js';

/** The simulator's options, seed records, stats and handle. */
export type {
  DianSimCompany,
  DianSimRange,
  DianSimScenario,
  DianSimFaults,
  DianSimOutage,
  DianSimStats,
  DianSimulator,
  DianSimulatorOptions,
} from './types.js';
/** The checks the simulator makes beyond the annex rules (codes, sources, texts) and the event order it enforces. */
export { SIM_RULES, EVENT_PREREQUISITES } from './rules.js';

/** DIAN's NIT: the simulator's signing identity names it. */
export const DIAN_SIM_NIT = '800197268';

/** A company matching examples/dian/context.json (its software id and PIN), with a test set: what the CLI seeds. */
export const DIAN_SIM_EXAMPLE_COMPANY: DianSimCompany = {
  nit: '901458732',
  name: 'Ferretería Ejemplo Andina S.A.S.',
  softwareId: '00000000-0000-4000-8000-000000000000',
  pin: '12345',
  testSetId: '11111111-2222-4333-8444-555555555555',
};

/** The numbering range of examples/dian/context.json, for {@link DIAN_SIM_EXAMPLE_COMPANY}. */
export const DIAN_SIM_EXAMPLE_RANGE: DianSimRange = {
  nit: '901458732',
  softwareId: '00000000-0000-4000-8000-000000000000',
  prefix: 'SETP',
  from: '990000000',
  to: '995000000',
  technicalKey: 'clave-tecnica-de-ejemplo-no-valida',
  resolutionNumber: '18760000001',
  resolutionDate: '2025-01-01',
  validFrom: '2025-01-01',
  validTo: '2026-12-31',
};

const SERVICE_PATH = '/WcfDianCustomerServices.svc';
const MAX_BODY = 60 * 1024 * 1024;

let sharedIdentity: SelfSignedIdentity | null = null;
// One key per process: creating it costs ~0.5 s, and every simulator in a process may sign with it.
function simulatorIdentity(): SelfSignedIdentity {
  return (sharedIdentity ??= createSelfSignedIdentity({ commonName: 'DIAN SIMULADOR DE PRUEBAS', serialNumber: DIAN_SIM_NIT, days: 3650 }));
}

type FaultAction = 'none' | 'dropBefore' | 'http500' | 'http503' | 'dropAfter';

/**
 * Starts a local DIAN on `host:port` (default 127.0.0.1, a free port).
 *
 * @throws SchemaError when `xsdDir` does not hold DIAN's XSD set; Error when `dataDir/state.json` is not the simulator's
 */
export async function startDianSimulator(options: DianSimulatorOptions): Promise<DianSimulator> {
  const schemas = createDianSchemaValidator(options.xsdDir);
  const store = openDianSimStore(options.dataDir);
  const state = store.state;
  const clock = options.clock ?? (() => new Date());
  const skew = options.timestampSkewMs ?? 60_000;
  const rng = seededRng(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  let faults: DianSimFaults = normalizeFaults(options.faults);
  let injected = 0;
  let outage: DianSimOutage = 'off';
  let outageTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const timers = new Map<string, NodeJS.Timeout>();
  const hanging = new Set<Socket>();

  const core: SimCore = {
    store,
    clock,
    schemas,
    signer: simulatorIdentity().signer,
    processingDelayMs: options.processingDelayMs ?? 200,
    exclusive: createExclusive(),
    schedule(zipKey) {
      if (closed || timers.has(zipKey)) return;
      const t = setTimeout(() => {
        timers.delete(zipKey);
        void processZip(core, zipKey);
      }, core.processingDelayMs);
      t.unref();
      timers.set(zipKey, t);
    },
  };

  const addCompany = (c: DianSimCompany) => {
    const n = normalizeCompany(c);
    state.companies = [...state.companies.filter((x) => !(x.nit === n.nit && x.softwareId === n.softwareId)), n];
    store.changed();
  };
  const addRange = (r: DianSimRange) => {
    const n = normalizeRange(r);
    state.ranges = [...state.ranges.filter((x) => !(x.nit === n.nit && x.softwareId === n.softwareId && x.prefix === n.prefix)), n];
    store.changed();
  };
  for (const c of options.companies ?? []) addCompany(c);
  for (const r of options.ranges ?? []) addRange(r);
  const target = {
    addCompany,
    addRange,
    setScenarios(s: unknown) {
      state.scenarios = normalizeScenarios(s);
      store.changed();
    },
    setFaults(f: unknown) {
      faults = normalizeFaults(f);
      injected = 0;
    },
    setOutage(m: DianSimOutage, forMs?: number) {
      clearTimeout(outageTimer);
      outageTimer = undefined;
      outage = m;
      if (forMs !== undefined && m !== 'off') {
        outageTimer = setTimeout(() => target.setOutage('off'), forMs);
        outageTimer.unref();
      }
      if (m !== 'hang') for (const s of hanging) s.destroy();
    },
    setProcessingDelay(ms: number) {
      core.processingDelayMs = ms;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      for (const z of Object.values(state.zips)) if (z.verdicts === null) core.schedule(z.zipKey);
    },
    read(what: string): unknown {
      const views: Record<string, () => unknown> = {
        stats: () => state.stats,
        companies: () => state.companies,
        ranges: () => state.ranges,
        scenarios: () => state.scenarios,
        'test-sets': () => state.testSets,
        faults: () => faults,
        outage: () => outage,
        processing: () => ({ delayMs: core.processingDelayMs }),
        received: () => state.received,
      };
      return structuredClone(views[what]!());
    },
  };

  function decideFault(operation: DianOperation): { latencyMs: number; action: FaultAction } {
    if (faults.operations?.length && !faults.operations.includes(operation)) return { latencyMs: 0, action: 'none' };
    let latencyMs = faults.latencyMs ?? 0;
    if (faults.jitterMs) latencyMs += rng() * faults.jitterMs;
    if (latencyMs > 0) state.stats.faults.latency++;
    if (faults.limit !== undefined && injected >= faults.limit) return { latencyMs, action: 'none' };
    const r = rng();
    let edge = 0;
    for (const action of ['dropBefore', 'http500', 'http503', 'dropAfter'] as const) {
      edge += faults[`${action}Rate`] ?? 0;
      if (r < edge) {
        state.stats.faults[action]++;
        injected++;
        return { latencyMs, action };
      }
    }
    return { latencyMs, action: 'none' };
  }

  const soap = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'application/soap+xml; charset=utf-8' }).end(body);
  };
  const refuse = (res: ServerResponse, kind: 'security' | 'expired' | 'badRequest', subcode: typeof INVALID_SECURITY, reason: string) => {
    state.stats.refused[kind]++;
    soap(res, 500, writeFault('Sender', subcode, reason));
  };

  async function service(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    if (outage === '503') {
      state.stats.outage++;
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' }).end(UNAVAILABLE_PAGE);
      return;
    }
    if (outage === 'hang') {
      state.stats.outage++;
      hanging.add(req.socket);
      req.socket.once('close', () => hanging.delete(req.socket));
      return;
    }
    const request = readDianRequest(body);
    if (request.ok) {
      state.stats.requests[request.operation] = (state.stats.requests[request.operation] ?? 0) + 1;
      const fault = decideFault(request.operation);
      if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
      if (fault.action === 'dropBefore') return void req.socket.destroy();
      if (fault.action === 'http500')
        return soap(res, 500, writeFault('Receiver', INTERNAL_FAULT, 'The server was unable to process the request due to an internal error.'));
      if (fault.action === 'http503') return void res.writeHead(503, { 'content-type': 'text/html; charset=utf-8' }).end(UNAVAILABLE_PAGE);
      const answer = await answerOf(res, body, request.operation, request.params, request.action);
      if (answer === undefined) return;
      if (fault.action === 'dropAfter') return void req.socket.destroy();
      return soap(res, 200, answer);
    }
    // Security first, as DIAN: an unsigned request is refused for its security before its content is looked at.
    const verified = verifyDianEnvelope(body);
    if (!verified.valid) return refuse(res, 'security', INVALID_SECURITY, 'Ocurrió un error al verificar la seguridad del mensaje.');
    refuse(res, 'badRequest', BAD_REQUEST, request.reason);
  }

  /** Verifies the envelope, then runs the operation; undefined when a fault was answered already. */
  async function answerOf(res: ServerResponse, body: string, operation: DianOperation, params: Record<string, string>, action: string | null) {
    const verified = verifyDianEnvelope(body);
    if (!verified.valid) {
      refuse(res, 'security', INVALID_SECURITY, `Ocurrió un error al verificar la seguridad del mensaje (${verified.code ?? 'firma'}).`);
      return undefined;
    }
    const now = clock().getTime();
    if (!verified.created || !verified.expires) {
      refuse(res, 'security', INVALID_SECURITY, 'El mensaje no tiene wsu:Timestamp con Created y Expires.');
      return undefined;
    }
    if (verified.created.getTime() > now + skew || verified.expires.getTime() < now - skew) {
      refuse(res, 'expired', MESSAGE_EXPIRED, 'El mensaje ha expirado o su marca de tiempo está en el futuro (wsu:Timestamp).');
      return undefined;
    }
    if (action !== `${ACTION_PREFIX}${operation}`) {
      refuse(res, 'badRequest', ACTION_MISMATCH, `wsa:Action (${action ?? 'ausente'}) no corresponde a la operación ${operation} del cuerpo.`);
      return undefined;
    }
    const handler = HANDLERS[operation] as (core: SimCore, p: Record<string, string>) => Promise<unknown>;
    const result = await handler(core, params);
    return writeDianAnswer(operation, result as never, clock());
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://simulator').pathname;
      void (async () => {
        try {
          if (path.startsWith('/control/')) {
            const out = control(target, (req.method ?? 'GET').toUpperCase(), path.slice('/control/'.length).replace(/\/$/, ''), body);
            res.writeHead(out.status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(out.body));
            return;
          }
          if (path.toLowerCase() !== SERVICE_PATH.toLowerCase()) {
            res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body><h1>404 Not Found</h1></body></html>');
            return;
          }
          if (req.method !== 'POST') {
            res.writeHead(405, { 'content-type': 'text/html; charset=utf-8', allow: 'POST' }).end('<html><body><h1>405 Method Not Allowed</h1></body></html>');
            return;
          }
          await service(req, res, body);
        } catch (e) {
          if (!res.headersSent)
            soap(res, 500, writeFault('Receiver', INTERNAL_FAULT, `Error interno del simulador: ${e instanceof Error ? e.message : String(e)}`));
        }
      })();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const base = `http://${urlHost}:${port}`;
  // Zips left in process by a restart get their timer again.
  for (const z of Object.values(state.zips)) if (z.verdicts === null) core.schedule(z.zipKey);

  return {
    url: `${base}${SERVICE_PATH}`,
    controlUrl: `${base}/control`,
    port,
    addCompany,
    addRange,
    setScenarios: (s) => target.setScenarios(s),
    setFaults: (f) => target.setFaults(f),
    setOutage: (m, forMs) => target.setOutage(m, forMs),
    setProcessingDelay: (ms) => target.setProcessingDelay(ms),
    stats: (): DianSimStats => structuredClone(state.stats),
    testSets: (): Record<string, DianSimTestSet> => structuredClone(state.testSets),
    received: (): Record<string, number> => structuredClone(state.received),
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(outageTimer);
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      for (const s of hanging) s.destroy();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      store.close();
    },
  };
}

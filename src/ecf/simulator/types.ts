/** Public types of the local DGII simulator (`ecf-kit/simulator`). */
import type { AuthorityState, DirectoryEntry } from '../dgii/types.js';
import type { Clock } from '../../shared/ports.js';

export type { DirectoryEntry } from '../dgii/types.js';

/**
 * Injected failures, decided per request with a seeded RNG (`SimulatorOptions.seed`). Rates are
 * probabilities in [0, 1]; one draw per request picks at most one of drop-before, 500, 503 and
 * drop-after (in that order of the cumulative rates). Control paths (`/_simulator/*`) never fail.
 */
export interface FaultSettings {
  /** Added to every matching request before it is processed (ms). */
  latencyMs?: number;
  /** Extra random latency, uniform in [0, jitterMs) (ms). */
  jitterMs?: number;
  /** Answer HTTP 500 (an IIS-style HTML page) without processing. */
  http500Rate?: number;
  /** Answer HTTP 503 (an HTML page, `Retry-After: 1`) without processing. */
  http503Rate?: number;
  /** Destroy the connection before processing: nothing happened. */
  dropBeforeRate?: number;
  /**
   * Process the request (it takes effect: track id issued, voiding recorded…), then destroy the
   * connection without answering: the caller cannot know the outcome.
   */
  dropAfterRate?: number;
  /**
   * Only requests whose path contains one of these strings (case-insensitive) get faults, e.g.
   * `['recepcion/api/facturaselectronicas']`. Absent or empty: every path.
   */
  paths?: string[];
  /** Only these HTTP methods (e.g. `['POST']`). Absent or empty: every method. */
  methods?: string[];
  /** Stop injecting failures (not latency) after this many. Absent: no limit. */
  limit?: number;
}

/** States a scenario can force on an e-NCF. */
export type ForcedState = Exclude<AuthorityState, 'No encontrado'>;

/** A maintenance window as `obtenerventanasmantenimiento` lists it. */
export interface MaintenanceWindow {
  ambiente: string;
  horaInicio: string;
  horaFin: string;
  dias: string[];
}

/** Switches that change verdicts for testing, on top of the real checks. */
export interface ScenarioSettings {
  /** e-NCF ending in one of these suffixes are rejected (when the real checks would accept them). */
  rejectEncfSuffixes?: string[];
  /** e-NCF ending in one of these suffixes are "Aceptado Condicional" (when the real checks would accept them). */
  conditionalEncfSuffixes?: string[];
  /**
   * Verdict forced per e-NCF (key: the e-NCF, or RNC + e-NCF), regardless of the checks. `En Proceso`
   * keeps an e-CF in process until the scenario changes.
   */
  forceState?: Record<string, ForcedState>;
  /** `obtenerestatus` shows these services (names as listed, or `*` for all) as "No Disponible"; `*` also makes `verificarestado` answer "No Disponible". */
  unavailableServices?: string[];
  /** What `obtenerventanasmantenimiento` lists. */
  maintenanceWindows?: MaintenanceWindow[];
  /** The simulator's own receptor (`/fe/recepcion/api/ecf`) answers every e-CF with this ARECF state (0 received, 1 not received + motivo). */
  receptorAcuse?: { estado: '0' } | { estado: '1'; motivo: '1' | '2' | '3' | '4' };
  /** The simulator's own `/fe/aprobacioncomercial/api/ecf` answers every ACECF with this HTTP status. */
  receptorApprovalStatus?: 200 | 400;
}

export interface SimulatorOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: a random free port). */
  port?: number;
  /** Official XSD directory (`ECF_XSD_DIR`). */
  xsdDir: string;
  /** Timestamps (reception dates, token and seed expiry, acknowledgment times). Default: system time. */
  clock?: Clock;
  /** Keep the state in this JSON file (written atomically) and load it at start. Default: memory only. */
  dataFile?: string;
  /** Time an e-CF stays "En Proceso" before its verdict (ms, default 200: DGII's stated average). */
  processingDelayMs?: number;
  /** Lifetime of authentication tokens (ms, default 1 hour, as DGII). */
  tokenTtlMs?: number;
  faults?: FaultSettings;
  scenarios?: ScenarioSettings;
  /** Seed of the fault RNG (default: random). */
  seed?: number;
  /** Directory entries served by `consultadirectorio` (added to the simulator's own test receptor). */
  directory?: DirectoryEntry[];
  /**
   * Require `Authorization: Bearer <controlToken>` on the control API (`/_simulator/*`). The server's
   * in-process simulator sets a random one per process, so other local processes cannot change faults,
   * scenarios or the directory. Default: open (the standalone development simulator on loopback).
   */
  controlToken?: string;
  /** Where failures to save `dataFile` are reported (they never end the process). Default: a line on stderr. */
  logger?: { warn(obj: { err: unknown; dataFile?: string }, msg?: string): void };
}

/** Counters since the state was created (persisted with `dataFile`). */
export interface SimulatorStats {
  /** Requests received, control paths excluded. */
  requests: number;
  /** e-CF uploads accepted for processing (a track id was issued), keyed `${rnc}${encf}`. */
  receptions: Record<string, number>;
  /** RFCE uploads that got a verdict, keyed `${rnc}${encf}`. */
  rfce: Record<string, number>;
  /** Commercial approvals (ACECF) answered, accepted or not. */
  approvals: number;
  /** Voiding requests (ANECF) answered, accepted or not. */
  voids: number;
  /** Tokens issued (DGII and the simulator's receptor). */
  tokens: number;
  faults: { latency: number; http500: number; http503: number; dropBefore: number; dropAfter: number };
  /** Emisor–receptor test service: e-CF delivered to taxpayers' receptors and ACECF sent to them. */
  emisorReceptor: { ecfSent: number; approvalsSent: number; ecfReceived: number; approvalsReceived: number };
}

export interface Simulator {
  /** `http://HOST:PORT`, no trailing slash: the base URL for the ecf, fc and statusecf paths alike. */
  url: string;
  port: number;
  /**
   * The same protocol in process (no socket). A simulated dropped connection rejects with a
   * `TypeError` (as `fetch` does); with drop-after the request has taken effect.
   */
  handler(req: Request): Promise<Response>;
  setFaults(f: FaultSettings): void;
  setScenarios(s: ScenarioSettings): void;
  addDirectoryEntry(e: DirectoryEntry): void;
  stats(): SimulatorStats;
  close(): Promise<void>;
}

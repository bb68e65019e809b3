/**
 * The simulator's state: plain JSON, kept in memory and, with `dataFile`, saved atomically (temporary
 * file + rename) shortly after each change and on close. Lookups by document go through in-memory
 * indexes rebuilt at load.
 *
 * A save that fails (a full disk: ENOSPC, EDQUOT, EIO, a read-only mount) never throws out of a timer, which
 * would end the process hosting the simulator (the embedded server): it is reported through `onSaveError`,
 * the state stays dirty in memory and the save is tried again with a growing delay (1 s doubling to 30 s).
 * The file is written with mode 0600 in a directory created 0700 (it holds tokens and documents).
 */
import { EcfError } from '../../shared/errors/ecf-error.js';
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuthorityMessage, AuthorityState, AuthorityStateCode, DirectoryEntry } from '../dgii/types.js';
import type { SimulatorStats } from './types.js';

/** Who a seed or token is for: DGII's services, or the simulator's own receptor (emisor–receptor). */
export type Audience = 'dgii' | 'receptor';

export interface SeedRecord {
  env: string;
  audience: Audience;
  issuedAt: string;
  used: boolean;
}

export interface TokenRecord {
  env: string;
  audience: Audience;
  issuedAt: string;
  expiresAt: string;
}

export interface Verdict {
  estado: AuthorityState;
  codigo: AuthorityStateCode;
  secuenciaUtilizada: boolean;
  mensajes: AuthorityMessage[];
}

/** What `consultaestado` reports of a document, as written in its XML. */
export interface FiscalFields {
  montoTotal: string | null;
  totalITBIS: string | null;
  fechaEmision: string | null;
  fechaFirma: string | null;
  rncComprador: string | null;
  codigoSeguridad: string | null;
  idExtranjero: string | null;
}

export interface EcfSubmission {
  trackId: string;
  env: string;
  rnc: string;
  encf: string;
  receivedAt: string;
  verdict: Verdict;
  /** Kept only while the e-CF is in process. */
  xml?: string;
  fields?: FiscalFields;
}

export interface RfceRecord {
  env: string;
  rnc: string;
  encf: string;
  receivedAt: string;
  verdict: Verdict;
  fields: FiscalFields;
}

export interface ApprovalRecord {
  env: string;
  rncEmisor: string;
  encf: string;
  rncComprador: string;
  estado: string;
  receivedAt: string;
}

export interface VoidRecord {
  env: string;
  rnc: string;
  tipo: string;
  desde: number;
  hasta: number;
  voidedAt: string;
}

/** An e-CF a taxpayer sent to the simulator's receptor (`/fe/recepcion/api/ecf`). */
export interface ReceivedEcf {
  rncEmisor: string;
  rncComprador: string | null;
  encf: string;
  fechaEmision: string | null;
  montoTotal: string | null;
  estado: '0' | '1';
  motivo: string | null;
  receivedAt: string;
}

/** An e-CF the emisor–receptor service built and delivered to a taxpayer's receptor. */
export interface EmittedEcf {
  rncComprador: string;
  encf: string;
  tipo: string;
  fechaEmision: string;
  montoTotal: string;
  sentAt: string;
  delivered: boolean;
  /** The taxpayer's ARECF, read from its answer. */
  acuse: { estado: string; codigoMotivoNoRecibido: string | null; fechaHoraAcuseRecibo: string | null; firmaValida: boolean } | null;
  mensajes: string[];
}

export interface SimState {
  version: 1;
  seeds: Record<string, SeedRecord>;
  tokens: Record<string, TokenRecord>;
  submissions: Record<string, EcfSubmission>;
  rfce: RfceRecord[];
  approvals: ApprovalRecord[];
  voids: VoidRecord[];
  directory: DirectoryEntry[];
  receptor: {
    received: ReceivedEcf[];
    emitted: EmittedEcf[];
    /** ACECF the simulator received at `/fe/aprobacioncomercial/api/ecf` (accepted or not). */
    approvalsReceived: { rncEmisor: string; encf: string; rncComprador: string; estado: string; accepted: boolean; receivedAt: string }[];
    /** Next sequence per e-CF type for the e-CF the simulator issues. */
    sequence: Record<string, number>;
  };
  stats: SimulatorStats;
}

export function emptyStats(): SimulatorStats {
  return {
    requests: 0,
    receptions: {},
    rfce: {},
    approvals: 0,
    voids: 0,
    tokens: 0,
    faults: { latency: 0, http500: 0, http503: 0, dropBefore: 0, dropAfter: 0 },
    emisorReceptor: { ecfSent: 0, approvalsSent: 0, ecfReceived: 0, approvalsReceived: 0 },
  };
}

function emptyState(): SimState {
  return {
    version: 1,
    seeds: {},
    tokens: {},
    submissions: {},
    rfce: [],
    approvals: [],
    voids: [],
    directory: [],
    receptor: { received: [], emitted: [], approvalsReceived: [], sequence: {} },
    stats: emptyStats(),
  };
}

/** Key of a document within an environment. */
export function docKey(env: string, rnc: string, encf: string): string {
  return `${env}|${rnc}|${encf}`;
}

export interface Store {
  readonly state: SimState;
  /** e-CF submissions of a document, oldest first. */
  submissionsOf(env: string, rnc: string, encf: string): EcfSubmission[];
  addSubmission(s: EcfSubmission): void;
  /** RFCE records of a document, oldest first. */
  rfceOf(env: string, rnc: string, encf: string): RfceRecord[];
  addRfce(r: RfceRecord): void;
  /** Marks the state changed: saved to `dataFile` shortly (coalesced). */
  changed(): void;
  /** Saves now (when there is a `dataFile` and unsaved changes). */
  flush(): void;
  close(): void;
}

// Saves are coalesced: under load the whole state is written at most every 100 ms, and on close.
const SAVE_DELAY_MS = 100;
/** After a failed save: first retry after 1 s, doubling up to 30 s. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * Opens the state: loads `dataFile` when it exists, else starts empty. `onSaveError` hears about each failed
 * save (default: one line on stderr).
 */
export function openStore(dataFile?: string, onSaveError: (err: unknown) => void = defaultSaveError): Store {
  const state = dataFile ? load(dataFile) : emptyState();
  const byDoc = new Map<string, EcfSubmission[]>();
  const rfceByDoc = new Map<string, RfceRecord[]>();
  const index = <T>(map: Map<string, T[]>, key: string, v: T) => {
    const list = map.get(key);
    if (list) list.push(v);
    else map.set(key, [v]);
  };
  const sorted = Object.values(state.submissions).sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
  for (const s of sorted) index(byDoc, docKey(s.env, s.rnc, s.encf), s);
  for (const r of state.rfce) index(rfceByDoc, docKey(r.env, r.rnc, r.encf), r);

  let dirty = false;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  const flush = () => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (!dataFile || !dirty) return;
    dirty = false;
    try {
      save(dataFile, state);
      failures = 0;
    } catch (err) {
      // Keep the changes in memory and try again later; never throw out of the timer.
      dirty = true;
      failures++;
      try {
        onSaveError(err);
      } catch {
        // a failing reporter must not end the process either
      }
      timer = setTimeout(flush, Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 10)));
      timer.unref();
    }
  };
  return {
    state,
    submissionsOf: (env, rnc, encf) => byDoc.get(docKey(env, rnc, encf)) ?? [],
    addSubmission(s) {
      state.submissions[s.trackId] = s;
      index(byDoc, docKey(s.env, s.rnc, s.encf), s);
    },
    rfceOf: (env, rnc, encf) => rfceByDoc.get(docKey(env, rnc, encf)) ?? [],
    addRfce(r) {
      state.rfce.push(r);
      index(rfceByDoc, docKey(r.env, r.rnc, r.encf), r);
    },
    changed() {
      if (!dataFile) return;
      dirty = true;
      timer ??= setTimeout(flush, SAVE_DELAY_MS);
    },
    flush,
    close() {
      flush();
      // A save that failed at close stays unsaved (reported above); no retry after close.
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

function defaultSaveError(err: unknown): void {
  process.stderr.write(`ecf-kit simulator: saving the state failed (${err instanceof Error ? err.message : String(err)}); will retry\n`);
}

function load(file: string): SimState {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return emptyState();
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new EcfError(`The simulator data file ${file} is not valid JSON (${(e as Error).message}); move it away to start empty.`, {
      code: 'invalid_state_file',
    });
  }
  if (!parsed || typeof parsed !== 'object' || (parsed as { version?: unknown }).version !== 1) {
    throw new EcfError(`The simulator data file ${file} is not a version 1 simulator state; move it away to start empty.`, { code: 'invalid_state_file' });
  }
  // Fill sections added after the file was written, so older files keep loading.
  const base = emptyState();
  const s = parsed as Partial<SimState>;
  return {
    ...base,
    ...s,
    receptor: { ...base.receptor, ...(s.receptor ?? {}) },
    stats: {
      ...base.stats,
      ...(s.stats ?? {}),
      faults: { ...base.stats.faults, ...(s.stats?.faults ?? {}) },
      emisorReceptor: { ...base.stats.emisorReceptor, ...(s.stats?.emisorReceptor ?? {}) },
    },
  } as SimState;
}

function save(file: string, state: SimState): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Write beside the target and rename over it: a reader (or a crash) never sees half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    // The mode given to open() is filtered by the umask, and an existing file keeps its mode: set it.
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (e) {
    try {
      // No half-written temporary file left to fill the disk further (only a plain file this code wrote).
      if (lstatSync(tmp).isFile()) unlinkSync(tmp);
    } catch {
      // not there
    }
    throw e;
  }
}

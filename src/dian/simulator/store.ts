/**
 * The local DIAN's state: in memory, and in `dataDir/state.json` when a directory is given. Changes are written
 * shortly after they happen and on close, always to a temporary file renamed over the old one, so a crash or a
 * reader never sees half a file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DianSimState, DianSimStats } from './types.js';

export function emptyStats(): DianSimStats {
  return {
    requests: {},
    refused: { security: 0, expired: 0, badRequest: 0 },
    documents: { accepted: 0, rejected: 0, duplicates: 0 },
    events: { accepted: 0, rejected: 0 },
    faults: { latency: 0, dropBefore: 0, http500: 0, http503: 0, dropAfter: 0 },
    outage: 0,
  };
}

function emptyState(): DianSimState {
  return {
    version: 1,
    companies: [],
    ranges: [],
    scenarios: [],
    documents: {},
    accepted: {},
    zips: {},
    testSets: {},
    responseCounter: 0,
    received: {},
    stats: emptyStats(),
  };
}

export interface DianSimStore {
  state: DianSimState;
  /** Marks the state changed; it is written within `delayMs` (default 50 ms). */
  changed(): void;
  /** Writes now (when there is a directory and something changed). */
  flush(): void;
  close(): void;
}

/**
 * Opens the state of `dataDir` (a fresh one when the directory or file does not exist yet).
 *
 * @throws Error when `state.json` exists but is not a state this simulator wrote
 */
export function openDianSimStore(dataDir: string | undefined, delayMs = 50): DianSimStore {
  const file = dataDir ? join(dataDir, 'state.json') : undefined;
  let state = emptyState();
  if (file) {
    mkdirSync(dataDir!, { recursive: true });
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (text !== undefined) {
      const read = JSON.parse(text) as Partial<DianSimState>;
      if (read.version !== 1) throw new Error(`${file} is not a state file of the DIAN simulator (version ${String(read.version)})`);
      state = { ...emptyState(), ...read, stats: { ...emptyStats(), ...read.stats } } as DianSimState;
    }
  }
  let dirty = false;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!file || !dirty) return;
    dirty = false;
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state));
    renameSync(tmp, file);
  };
  return {
    get state() {
      return state;
    },
    changed() {
      dirty = true;
      if (!file || timer) return;
      timer = setTimeout(flush, delayMs);
      timer.unref();
    },
    flush,
    close: flush,
  };
}

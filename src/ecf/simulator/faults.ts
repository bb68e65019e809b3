/** Fault injection: a seeded RNG and the per-request decision (latency plus at most one failure). */
import type { FaultSettings, SimulatorStats } from './types.js';

export type FaultAction = 'none' | 'dropBefore' | 'http500' | 'http503' | 'dropAfter';

export interface FaultDecision {
  latencyMs: number;
  action: FaultAction;
}

/** The seeded generator lives in the kernel (the other product's simulator uses it too). */
export { seededRng } from '../../shared/random.js';

/** Checks and copies fault settings; throws a RangeError with a clear message on nonsense. */
export function normalizeFaults(input: unknown): FaultSettings {
  if (input === null || input === undefined) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new RangeError('faults must be an object');
  const f = input as Record<string, unknown>;
  const out: FaultSettings = {};
  for (const k of ['latencyMs', 'jitterMs', 'limit'] as const) {
    if (f[k] === undefined) continue;
    const v = f[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new RangeError(`faults.${k} must be a number ≥ 0`);
    out[k] = v;
  }
  let total = 0;
  for (const k of ['dropBeforeRate', 'http500Rate', 'http503Rate', 'dropAfterRate'] as const) {
    if (f[k] === undefined) continue;
    const v = f[k];
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new RangeError(`faults.${k} must be a probability between 0 and 1`);
    out[k] = v;
    total += v;
  }
  if (total > 1 + 1e-9) throw new RangeError('the fault rates add up to more than 1');
  for (const k of ['paths', 'methods'] as const) {
    if (f[k] === undefined) continue;
    const v = f[k];
    if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new RangeError(`faults.${k} must be an array of strings`);
    out[k] = [...v];
  }
  return out;
}

/** Installed fault settings and the failures injected since they were installed (for `limit`). */
export interface FaultState {
  settings: FaultSettings;
  injected: number;
}

/** Decides what happens to one request; counts injected faults in `state` and `stats`. */
export function decideFault(state: FaultState, rng: () => number, method: string, path: string, stats: SimulatorStats): FaultDecision {
  const settings = state.settings;
  const lower = path.toLowerCase();
  if (settings.paths?.length && !settings.paths.some((p) => lower.includes(p.toLowerCase()))) return { latencyMs: 0, action: 'none' };
  if (settings.methods?.length && !settings.methods.some((m) => m.toUpperCase() === method.toUpperCase())) return { latencyMs: 0, action: 'none' };
  let latencyMs = settings.latencyMs ?? 0;
  if (settings.jitterMs) latencyMs += rng() * settings.jitterMs;
  if (latencyMs > 0) stats.faults.latency++;
  if (settings.limit !== undefined && state.injected >= settings.limit) return { latencyMs, action: 'none' };
  const r = rng();
  let edge = 0;
  for (const action of ['dropBefore', 'http500', 'http503', 'dropAfter'] as const) {
    edge += settings[`${action}Rate`] ?? 0;
    if (r < edge) {
      stats.faults[action]++;
      state.injected++;
      return { latencyMs, action };
    }
  }
  return { latencyMs, action: 'none' };
}

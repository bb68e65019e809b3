/** Scenario switches: validation of the settings and the verdicts they force. */
import type { AuthorityMessage, AuthorityState, AuthorityStateCode } from '../dgii/types.js';
import type { Verdict } from './store.js';
import type { ForcedState, ScenarioSettings } from './types.js';

export const STATE_CODES: Record<AuthorityState, AuthorityStateCode> = {
  'No encontrado': 0,
  Aceptado: 1,
  Rechazado: 2,
  'En Proceso': 3,
  'Aceptado Condicional': 4,
};

const FORCIBLE = new Set<string>(['Aceptado', 'Rechazado', 'En Proceso', 'Aceptado Condicional']);

/** A verdict with its numeric code. */
export function verdict(estado: AuthorityState, secuenciaUtilizada: boolean, mensajes: AuthorityMessage[] = []): Verdict {
  return { estado, codigo: STATE_CODES[estado], secuenciaUtilizada, mensajes };
}

/** States in which an e-NCF counts as accepted by DGII. */
export function isAccepted(v: Verdict): boolean {
  return v.estado === 'Aceptado' || v.estado === 'Aceptado Condicional';
}

/** Checks and copies scenario settings; throws a RangeError with a clear message on nonsense. */
export function normalizeScenarios(input: unknown): ScenarioSettings {
  if (input === null || input === undefined) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new RangeError('scenarios must be an object');
  const s = input as Record<string, unknown>;
  const out: ScenarioSettings = {};
  for (const k of ['rejectEncfSuffixes', 'conditionalEncfSuffixes', 'unavailableServices'] as const) {
    if (s[k] === undefined) continue;
    const v = s[k];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new RangeError(`scenarios.${k} must be an array of strings`);
    out[k] = [...v];
  }
  if (s.forceState !== undefined) {
    const f = s.forceState;
    if (!f || typeof f !== 'object' || Array.isArray(f)) throw new RangeError('scenarios.forceState must be an object');
    for (const [k, v] of Object.entries(f)) {
      if (typeof v !== 'string' || !FORCIBLE.has(v)) throw new RangeError(`scenarios.forceState.${k} must be one of ${[...FORCIBLE].join(', ')}`);
    }
    out.forceState = { ...(f as Record<string, ForcedState>) };
  }
  if (s.maintenanceWindows !== undefined) {
    if (!Array.isArray(s.maintenanceWindows)) throw new RangeError('scenarios.maintenanceWindows must be an array');
    out.maintenanceWindows = structuredClone(s.maintenanceWindows) as ScenarioSettings['maintenanceWindows'];
  }
  if (s.receptorAcuse !== undefined) {
    const a = s.receptorAcuse as { estado?: unknown; motivo?: unknown };
    const ok = a && (a.estado === '0' || (a.estado === '1' && ['1', '2', '3', '4'].includes(String(a.motivo))));
    if (!ok) throw new RangeError("scenarios.receptorAcuse must be { estado: '0' } or { estado: '1', motivo: '1'…'4' }");
    out.receptorAcuse = a.estado === '0' ? { estado: '0' } : { estado: '1', motivo: String(a.motivo) as '1' | '2' | '3' | '4' };
  }
  if (s.receptorApprovalStatus !== undefined) {
    if (s.receptorApprovalStatus !== 200 && s.receptorApprovalStatus !== 400) throw new RangeError('scenarios.receptorApprovalStatus must be 200 or 400');
    out.receptorApprovalStatus = s.receptorApprovalStatus;
  }
  return out;
}

/** The verdict a scenario forces on a document, if any (`forceState` by RNC + e-NCF, then by e-NCF). */
export function forcedVerdict(s: ScenarioSettings, rnc: string, encf: string): Verdict | null {
  const state = s.forceState?.[`${rnc}${encf}`] ?? s.forceState?.[encf];
  if (!state) return null;
  const mensajes = state === 'Aceptado' || state === 'En Proceso' ? [] : [{ codigo: null, valor: `Estado ${state} forzado por el escenario del simulador.` }];
  return verdict(state, state !== 'En Proceso', mensajes);
}

/** The verdict the suffix switches give a document the checks accepted, if any. */
export function suffixVerdict(s: ScenarioSettings, encf: string): Verdict | null {
  if (s.rejectEncfSuffixes?.some((x) => x !== '' && encf.endsWith(x))) {
    return verdict('Rechazado', true, [{ codigo: null, valor: 'Rechazado por el escenario del simulador (terminación del e-NCF).' }]);
  }
  if (s.conditionalEncfSuffixes?.some((x) => x !== '' && encf.endsWith(x))) {
    return verdict('Aceptado Condicional', true, [{ codigo: null, valor: 'Aceptado condicional por el escenario del simulador (terminación del e-NCF).' }]);
  }
  return null;
}

/**
 * The control API (JSON over HTTP under `/control`): seed companies and their software, numbering ranges,
 * scenarios (a forced rule finding for a document number), faults, the outage switch; read stats and test-set
 * counts. Never subject to faults or the outage. Bad input is a 400 with a Spanish message.
 *
 * - `POST /control/companies` `{nit, softwareId, pin, testSetId?, providerNit?, name?}` (or an array)
 * - `POST /control/ranges` `{nit, softwareId, prefix, from, to, technicalKey, resolutionNumber, resolutionDate, validFrom, validTo}` (or an array)
 * - `PUT /control/scenarios` `[{number, rule, kind: "Rechazo"|"Notificación", text}]`
 * - `PUT /control/faults` (see DianSimFaults), `PUT /control/outage` `{mode: "off"|"503"|"hang", forMs?}`: with `forMs`
 *   an outage window, back to `off` on its own after that many milliseconds
 * - `PUT /control/processing` `{delayMs}`: how long an asynchronous zip stays `98` (pending zips rescheduled from now)
 * - `GET /control/stats`, `GET /control/companies`, `GET /control/ranges`, `GET /control/test-sets`
 * - `GET /control/received`: per declared key (CUFE/CUDE), how many times a document or event carrying it was received
 */
import type { DianSimCompany, DianSimFaults, DianSimOutage, DianSimRange, DianSimScenario } from './types.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function obj(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RangeError(`${what} debe ser un objeto JSON`);
  return v as Record<string, unknown>;
}

function str(o: Record<string, unknown>, k: string, what: string, pattern?: RegExp): string {
  const v = o[k];
  if (typeof v !== 'string' || v.trim() === '' || (pattern && !pattern.test(v)))
    throw new RangeError(`${what}.${k} es obligatorio y debe ser texto${pattern ? ` con la forma ${pattern.source}` : ''}`);
  return v.trim();
}

function optStr(o: Record<string, unknown>, k: string, what: string): string | undefined {
  return o[k] === undefined ? undefined : str(o, k, what);
}

export function normalizeCompany(v: unknown): DianSimCompany {
  const o = obj(v, 'company');
  const c: DianSimCompany = { nit: str(o, 'nit', 'company', /^\d{5,15}$/), softwareId: str(o, 'softwareId', 'company'), pin: str(o, 'pin', 'company') };
  for (const k of ['testSetId', 'providerNit', 'name'] as const) {
    const s = optStr(o, k, 'company');
    if (s !== undefined) c[k] = s;
  }
  return c;
}

export function normalizeRange(v: unknown): DianSimRange {
  const o = obj(v, 'range');
  const r: DianSimRange = {
    nit: str(o, 'nit', 'range', /^\d{5,15}$/),
    softwareId: str(o, 'softwareId', 'range'),
    prefix: typeof o.prefix === 'string' ? o.prefix.trim() : str(o, 'prefix', 'range'),
    from: str(o, 'from', 'range', /^\d{1,18}$/),
    to: str(o, 'to', 'range', /^\d{1,18}$/),
    technicalKey: str(o, 'technicalKey', 'range'),
    resolutionNumber: str(o, 'resolutionNumber', 'range'),
    resolutionDate: str(o, 'resolutionDate', 'range', DATE),
    validFrom: str(o, 'validFrom', 'range', DATE),
    validTo: str(o, 'validTo', 'range', DATE),
  };
  if (BigInt(r.from) > BigInt(r.to)) throw new RangeError('range.from no puede ser mayor que range.to');
  return r;
}

export function normalizeScenarios(v: unknown): DianSimScenario[] {
  if (!Array.isArray(v)) throw new RangeError('scenarios debe ser una lista');
  return v.map((x) => {
    const o = obj(x, 'scenario');
    const kind = o.kind === undefined ? 'Rechazo' : o.kind;
    if (kind !== 'Rechazo' && kind !== 'Notificación') throw new RangeError('scenario.kind debe ser "Rechazo" o "Notificación"');
    return {
      number: str(o, 'number', 'scenario'),
      rule: str(o, 'rule', 'scenario'),
      kind,
      text: optStr(o, 'text', 'scenario') ?? 'Escenario forzado del simulador',
    };
  });
}

export function normalizeFaults(v: unknown): DianSimFaults {
  if (v === undefined || v === null) return {};
  const o = obj(v, 'faults');
  const out: DianSimFaults = {};
  for (const k of ['latencyMs', 'jitterMs', 'limit'] as const) {
    if (o[k] === undefined) continue;
    const n = o[k];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new RangeError(`faults.${k} debe ser un número ≥ 0`);
    out[k] = n;
  }
  let total = 0;
  for (const k of ['dropBeforeRate', 'http500Rate', 'http503Rate', 'dropAfterRate'] as const) {
    if (o[k] === undefined) continue;
    const n = o[k];
    if (typeof n !== 'number' || !(n >= 0 && n <= 1)) throw new RangeError(`faults.${k} debe ser una probabilidad entre 0 y 1`);
    out[k] = n;
    total += n;
  }
  if (total > 1 + 1e-9) throw new RangeError('las probabilidades de fallo suman más de 1');
  if (o.operations !== undefined) {
    if (!Array.isArray(o.operations) || !o.operations.every((s) => typeof s === 'string'))
      throw new RangeError('faults.operations debe ser una lista de textos');
    out.operations = [...(o.operations as string[])];
  }
  return out;
}

export function normalizeProcessing(v: unknown): number {
  const ms = obj(v, 'processing').delayMs;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 86_400_000)
    throw new RangeError('processing.delayMs debe ser un número entre 0 y 86400000');
  return ms;
}

export function normalizeOutage(v: unknown): { mode: DianSimOutage; forMs?: number } {
  const o = obj(v, 'outage');
  const mode = o.mode;
  if (mode !== 'off' && mode !== '503' && mode !== 'hang') throw new RangeError('outage.mode debe ser "off", "503" o "hang"');
  if (o.forMs === undefined) return { mode };
  const ms = o.forMs;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0 || ms > 86_400_000 || mode === 'off')
    throw new RangeError('outage.forMs debe ser un número entre 1 y 86400000, con mode "503" o "hang"');
  return { mode, forMs: ms };
}

/** What the control API acts on. */
export interface DianControlTarget {
  addCompany(c: DianSimCompany): void;
  addRange(r: DianSimRange): void;
  setScenarios(s: DianSimScenario[]): void;
  setFaults(f: DianSimFaults): void;
  /** With `forMs`, back to `off` on its own after that long (an outage window). */
  setOutage(m: DianSimOutage, forMs?: number): void;
  setProcessingDelay(ms: number): void;
  read(what: 'stats' | 'companies' | 'ranges' | 'test-sets' | 'scenarios' | 'faults' | 'outage' | 'processing' | 'received'): unknown;
}

/** Handles `/control/<name>`: status and JSON body. */
export function control(target: DianControlTarget, method: string, name: string, body: string): { status: number; body: unknown } {
  const many = <T>(f: (v: unknown) => T) => {
    const parsed = JSON.parse(body) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).map(f);
  };
  try {
    switch (`${method} ${name}`) {
      case 'POST companies':
        for (const c of many(normalizeCompany)) target.addCompany(c);
        return { status: 200, body: target.read('companies') };
      case 'POST ranges':
        for (const r of many(normalizeRange)) target.addRange(r);
        return { status: 200, body: target.read('ranges') };
      case 'PUT scenarios':
        target.setScenarios(normalizeScenarios(JSON.parse(body)));
        return { status: 200, body: target.read('scenarios') };
      case 'PUT faults':
        target.setFaults(normalizeFaults(JSON.parse(body)));
        return { status: 200, body: target.read('faults') };
      case 'PUT outage': {
        const o = normalizeOutage(JSON.parse(body));
        target.setOutage(o.mode, o.forMs);
        return { status: 200, body: { mode: target.read('outage'), ...(o.forMs === undefined ? {} : { forMs: o.forMs }) } };
      }
      case 'GET stats':
      case 'GET companies':
      case 'GET ranges':
      case 'GET test-sets':
      case 'GET scenarios':
      case 'GET faults':
      case 'GET received':
        return { status: 200, body: target.read(name as 'stats') };
      case 'GET outage':
        return { status: 200, body: { mode: target.read('outage') } };
      case 'PUT processing':
        target.setProcessingDelay(normalizeProcessing(JSON.parse(body)));
        return { status: 200, body: target.read('processing') };
      case 'GET processing':
        return { status: 200, body: target.read('processing') };
      default:
        return {
          status: 404,
          body: {
            error: `Ruta de control desconocida: ${method} /control/${name}. Disponibles: POST|GET companies, POST|GET ranges, PUT|GET scenarios, PUT|GET faults, PUT|GET outage, PUT|GET processing, GET stats, GET test-sets, GET received.`,
          },
        };
    }
  } catch (e) {
    if (e instanceof SyntaxError) return { status: 400, body: { error: `El cuerpo no es JSON válido: ${e.message}` } };
    if (e instanceof RangeError) return { status: 400, body: { error: e.message } };
    throw e;
  }
}

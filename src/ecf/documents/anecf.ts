/**
 * ANECF — anulación de rangos de e-NCF (ANF): voids unused sequence ranges. Up to 10 types per document and
 * 10,000 ranges per type; only consecutives are given, the 13-character e-NCF are composed here.
 */
import { EcfValidationError } from '../../shared/errors/validation-error.js';
import type { Issue } from '../../shared/issues.js';
import { composeEncf, MAX_CONSECUTIVE } from '../spec/encf.js';
import { ECF_TYPES } from '../spec/model.js';
import { ANECF_TABLE } from '../spec/other-tables.gen.js';
import { checkDocShape, parseDocXml, type ParsedDoc } from './generic.js';
import { renderXml } from '../xml/render.js';

/** Types per ANECF (`Anulacion` maxOccurs in the XSD). */
export const MAX_ANECF_TYPES = 10;
/** Ranges per type (`Secuencias` maxOccurs in the XSD). */
export const MAX_ANECF_RANGES = 10_000;

export interface AnecfRange {
  desde: number;
  hasta: number;
}

export interface AnecfInput {
  rnc_emisor: string;
  /** `dd-MM-yyyy HH:mm:ss`, GMT−4. */
  fecha_hora_anulacion_encf: string;
  anulaciones: { tipo_ecf: string; rangos: AnecfRange[] }[];
}

export { composeEncf, MAX_CONSECUTIVE };

/** What {@link checkAnecfRanges} found; `range` and `with` are positions in the list it was given. */
export type AnecfRangeFinding =
  | { kind: 'too_many_ranges'; count: number }
  | { kind: 'out_of_bounds'; range: number; bound: 'desde' | 'hasta' }
  | { kind: 'inverted'; range: number }
  /** `range` starts at or before the end of `with`, an earlier range (by start) reaching furthest. */
  | { kind: 'overlap'; range: number; with: number };

/**
 * The ANECF rules for the ranges of one type, as data (the callers word the messages): at most
 * {@link MAX_ANECF_RANGES} ranges, both bounds integers in 1 … {@link MAX_CONSECUTIVE}, none inverted, none
 * overlapping another. Findings come in this order: the limit, then per range its bounds and inversion, then
 * the overlaps by start. `count` is the number of e-NCF in the well-formed ranges.
 *
 * @example
 * checkAnecfRanges([{ desde: 1, hasta: 5 }, { desde: 5, hasta: 9 }]).findings //=> [{ kind: 'overlap', range: 1, with: 0 }]
 */
export function checkAnecfRanges(rangos: readonly AnecfRange[]): { findings: AnecfRangeFinding[]; count: number } {
  const findings: AnecfRangeFinding[] = [];
  if (rangos.length > MAX_ANECF_RANGES) findings.push({ kind: 'too_many_ranges', count: rangos.length });
  const valid: { d: number; h: number; j: number }[] = [];
  rangos.forEach((r, j) => {
    let ok = true;
    for (const k of ['desde', 'hasta'] as const) {
      const v = r?.[k];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_CONSECUTIVE) {
        findings.push({ kind: 'out_of_bounds', range: j, bound: k });
        ok = false;
      }
    }
    if (ok && r.desde > r.hasta) {
      findings.push({ kind: 'inverted', range: j });
      ok = false;
    }
    if (ok) valid.push({ d: r.desde, h: r.hasta, j });
  });
  // Sorted by start, a range overlaps an earlier one iff it starts at or before the furthest end so far.
  valid.sort((x, y) => x.d - y.d || x.j - y.j);
  let reach: { h: number; j: number } | null = null;
  let count = 0;
  for (const r of valid) {
    if (reach && r.d <= reach.h) findings.push({ kind: 'overlap', range: r.j, with: reach.j });
    if (!reach || r.h > reach.h) reach = { h: r.h, j: r.j };
    count += r.h - r.d + 1;
  }
  return { findings, count };
}

/** Checks the voiding request: types, bounds, inverted and overlapping ranges, limits. Paths point into `input`. */
export function checkAnecfInput(input: AnecfInput): Issue[] {
  const issues: Issue[] = [];
  const err = (path: string, message: string, code: Issue['code'] = 'rule') => issues.push({ code, path, message, severity: 'error' });
  if (!Array.isArray(input.anulaciones) || input.anulaciones.length === 0) {
    err('anulaciones', 'Debe indicar al menos un rango a anular.', 'required');
    return issues;
  }
  if (input.anulaciones.length > MAX_ANECF_TYPES) err('anulaciones', `Admite como máximo ${MAX_ANECF_TYPES} tipos de e-CF por solicitud.`, 'too_many');
  const seenTypes = new Set<string>();
  let total = 0;
  input.anulaciones.forEach((a, i) => {
    const p = `anulaciones.${i}`;
    if (!(ECF_TYPES as readonly string[]).includes(a?.tipo_ecf))
      err(`${p}.tipo_ecf`, `Tipo de e-CF inválido; valores permitidos: ${ECF_TYPES.join(', ')}.`, 'enum');
    else if (seenTypes.has(a.tipo_ecf)) err(`${p}.tipo_ecf`, `El tipo ${a.tipo_ecf} aparece más de una vez; agrupe sus rangos en una sola anulación.`);
    seenTypes.add(a?.tipo_ecf);
    if (!Array.isArray(a?.rangos) || a.rangos.length === 0) {
      err(`${p}.rangos`, 'Debe indicar al menos un rango.', 'required');
      return;
    }
    const checked = checkAnecfRanges(a.rangos);
    for (const f of checked.findings) {
      if (f.kind === 'too_many_ranges') err(`${p}.rangos`, `Admite como máximo ${MAX_ANECF_RANGES.toLocaleString('en-US')} rangos por tipo.`, 'too_many');
      else if (f.kind === 'out_of_bounds')
        err(`${p}.rangos.${f.range}.${f.bound}`, `Debe ser un entero entre 1 y ${MAX_CONSECUTIVE.toLocaleString('en-US')}.`, 'range');
      else if (f.kind === 'inverted')
        err(`${p}.rangos.${f.range}`, `Rango invertido: desde (${a.rangos[f.range]!.desde}) es mayor que hasta (${a.rangos[f.range]!.hasta}).`);
      else err(`${p}.rangos.${Math.max(f.range, f.with)}`, `El rango se solapa con el rango ${Math.min(f.range, f.with)} del mismo tipo.`);
    }
    total += checked.count;
  });
  if (total > MAX_CONSECUTIVE) {
    err('anulaciones', `La cantidad total de e-NCF anulados (${total}) excede ${MAX_CONSECUTIVE.toLocaleString('en-US')}: divida la solicitud.`, 'range');
  }
  return issues;
}

/**
 * Builds the unsigned ANECF XML (sign it with `signXml`). The e-NCF are composed from the
 * consecutives, `NoLinea` numbers the types, and both counts (`CantidadeNCFAnulados` per type and in
 * the header) are computed from the ranges.
 *
 * @throws EcfValidationError with every issue (Spanish messages, paths into `input`)
 * @example
 * buildAnecfXml({ rnc_emisor: '130000001', fecha_hora_anulacion_encf: '01-04-2026 10:00:00',
 *   anulaciones: [{ tipo_ecf: '31', rangos: [{ desde: 1, hasta: 5 }] }] })
 * //=> '…<SecuenciaeNCFDesde>E310000000001</SecuenciaeNCFDesde><SecuenciaeNCFHasta>E310000000005</SecuenciaeNCFHasta>…'
 */
export function buildAnecfXml(input: AnecfInput): string {
  const ruleIssues = checkAnecfInput(input);
  const model = anecfModel(input, ruleIssues.length === 0);
  // Shape issues of the header map back to the input's top-level names; those of the detail are
  // already covered by checkAnecfInput (the detail is only modelled once it passed).
  const shapeIssues = checkDocShape(ANECF_TABLE, model)
    .filter((i) => ruleIssues.length === 0 || !i.path.startsWith('anulacion'))
    .map((i) => ({ ...i, path: inputPath(i.path) }));
  const issues = [...shapeIssues, ...ruleIssues];
  if (issues.length) throw new EcfValidationError(issues);
  return renderXml(ANECF_TABLE, '*', model);
}

function anecfModel(input: AnecfInput, withDetail: boolean): Record<string, unknown> {
  let total = 0;
  const anulacion = withDetail
    ? input.anulaciones.map((a, i) => {
        const count = a.rangos.reduce((s, r) => s + (r.hasta - r.desde + 1), 0);
        total += count;
        return {
          no_linea: [i + 1],
          tipo_ecf: a.tipo_ecf,
          secuencias: a.rangos.map((r) => ({ secuencia_encf_desde: composeEncf(a.tipo_ecf, r.desde), secuencia_encf_hasta: composeEncf(a.tipo_ecf, r.hasta) })),
          cantidad_encf_anulados: count,
        };
      })
    : [];
  return {
    encabezado: { rnc_emisor: input.rnc_emisor, cantidad_encf_anulados: withDetail ? total : 1, fecha_hora_anulacion_encf: input.fecha_hora_anulacion_encf },
    anulacion,
  };
}

/** `encabezado.rnc_emisor` → `rnc_emisor`; `anulacion.0.tipo_ecf` → `anulaciones.0.tipo_ecf`. */
function inputPath(path: string): string {
  if (path.startsWith('encabezado.')) return path.slice('encabezado.'.length);
  return path.replace(/^anulacion\b/, 'anulaciones').replace(/\.secuencias\.(\d+)(?:\..*)?$/, '.rangos.$1');
}

/**
 * Parses an ANECF back into voided ranges (consecutives). `cantidad` is the header's
 * `CantidadeNCFAnulados`; `issues` also reports counts that do not match the ranges and e-NCF whose
 * type is not the `TipoeCF` of their line.
 */
export function parseAnecfXml(xml: string): ParsedDoc<AnecfInput> & { cantidad: number } {
  type Raw = {
    encabezado?: Record<string, unknown>;
    anulacion?: { tipo_ecf?: string; cantidad_encf_anulados?: number; secuencias?: { secuencia_encf_desde?: string; secuencia_encf_hasta?: string }[] }[];
  };
  const p = parseDocXml<Raw>(ANECF_TABLE, xml);
  const e = p.data.encabezado ?? {};
  const issues = [...p.issues];
  let total = 0;
  const anulaciones = (p.data.anulacion ?? []).map((a, i) => {
    const tipo = String(a.tipo_ecf ?? '');
    const base = `/ANECF/DetalleAnulacion/Anulacion[${i + 1}]`;
    const rangos = (a.secuencias ?? []).map((s, j) => {
      const desde = String(s.secuencia_encf_desde ?? '');
      const hasta = String(s.secuencia_encf_hasta ?? '');
      for (const v of [desde, hasta]) {
        if (v.slice(1, 3) !== tipo) {
          issues.push({
            code: 'rule',
            path: `${base}/TablaRangoSecuenciasAnuladaseNCF/Secuencias[${j + 1}]`,
            message: `El e-NCF ${v} no es del tipo ${tipo} de la línea.`,
            severity: 'error',
          });
        }
      }
      return { desde: Number(desde.slice(3)), hasta: Number(hasta.slice(3)) };
    });
    const count = rangos.reduce((s, r) => s + (r.hasta - r.desde + 1), 0);
    total += count;
    if (a.cantidad_encf_anulados !== count) {
      issues.push({
        code: 'totals',
        path: `${base}/CantidadeNCFAnulados`,
        message: `CantidadeNCFAnulados (${a.cantidad_encf_anulados}) no coincide con los rangos (${count}).`,
        severity: 'error',
      });
    }
    return { tipo_ecf: tipo, rangos };
  });
  const cantidad = Number(e.cantidad_encf_anulados ?? 0);
  if (cantidad !== total) {
    issues.push({
      code: 'totals',
      path: '/ANECF/Encabezado/CantidadeNCFAnulados',
      message: `CantidadeNCFAnulados (${cantidad}) no coincide con la suma de los rangos (${total}).`,
      severity: 'error',
    });
  }
  const data: AnecfInput = {
    rnc_emisor: String(e.rnc_emisor ?? ''),
    fecha_hora_anulacion_encf: String(e.fecha_hora_anulacion_encf ?? ''),
    anulaciones,
  };
  const out: ParsedDoc<AnecfInput> & { cantidad: number } = { data, signed: p.signed, issues, cantidad };
  if (p.version !== undefined) out.version = p.version;
  return out;
}

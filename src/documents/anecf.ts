/**
 * ANECF — anulación de rangos de e-NCF (ANF): voids unused sequence ranges. Up to 10 types per document and
 * 10,000 ranges per type; only consecutives are given, the 13-character e-NCF are composed here.
 */
import { EcfValidationError } from '../errors/validation-error.js';
import type { Issue } from '../issues.js';
import { ECF_TYPES } from '../spec/model.js';
import { ANECF_TABLE } from '../spec/other-tables.gen.js';
import { buildDocXml, parseDocXml, type ParsedDoc } from './generic.js';

export const MAX_CONSECUTIVE = 9_999_999_999;

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

/** Composes the 13-character e-NCF of a consecutive: `E` + type + 10 digits. */
export function composeEncf(tipo: string, consecutive: number): string {
  return `E${tipo}${String(consecutive).padStart(10, '0')}`;
}

/** Checks the voiding request: types, bounds, inverted and overlapping ranges, limits. */
export function checkAnecfInput(input: AnecfInput): Issue[] {
  const issues: Issue[] = [];
  const err = (path: string, message: string, code: Issue['code'] = 'rule') => issues.push({ code, path, message, severity: 'error' });
  if (!Array.isArray(input.anulaciones) || input.anulaciones.length === 0) {
    err('anulaciones', 'Debe indicar al menos un rango a anular.', 'required');
    return issues;
  }
  if (input.anulaciones.length > 10) err('anulaciones', 'Admite como máximo 10 tipos de e-CF por solicitud.', 'too_many');
  const seenTypes = new Set<string>();
  input.anulaciones.forEach((a, i) => {
    const p = `anulaciones.${i}`;
    if (!(ECF_TYPES as readonly string[]).includes(a.tipo_ecf)) err(`${p}.tipo_ecf`, 'Tipo de e-CF inválido.', 'enum');
    else if (seenTypes.has(a.tipo_ecf)) err(`${p}.tipo_ecf`, `El tipo ${a.tipo_ecf} aparece más de una vez; agrupe sus rangos.`);
    seenTypes.add(a.tipo_ecf);
    if (!Array.isArray(a.rangos) || a.rangos.length === 0) return err(`${p}.rangos`, 'Debe indicar al menos un rango.', 'required');
    if (a.rangos.length > 10_000) err(`${p}.rangos`, 'Admite como máximo 10,000 rangos por tipo.', 'too_many');
    const valid: { d: number; h: number; j: number }[] = [];
    a.rangos.forEach((r, j) => {
      const rp = `${p}.rangos.${j}`;
      let ok = true;
      for (const k of ['desde', 'hasta'] as const) {
        const v = r?.[k];
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_CONSECUTIVE) {
          err(`${rp}.${k}`, `Debe ser un entero entre 1 y ${MAX_CONSECUTIVE.toLocaleString('en-US')}.`, 'range');
          ok = false;
        }
      }
      if (ok && r.desde > r.hasta) {
        err(rp, `Rango invertido: desde (${r.desde}) es mayor que hasta (${r.hasta}).`);
        ok = false;
      }
      if (ok) valid.push({ d: r.desde, h: r.hasta, j });
    });
    valid.sort((x, y) => x.d - y.d);
    for (let k = 1; k < valid.length; k++) {
      if (valid[k]!.d <= valid[k - 1]!.h) {
        err(`${p}.rangos.${valid[k]!.j}`, `El rango se solapa con el rango ${valid[k - 1]!.j} del mismo tipo.`);
      }
    }
  });
  return issues;
}

/** Builds the unsigned ANECF XML. Counts are computed from the ranges. */
export function buildAnecfXml(input: AnecfInput): string {
  const issues = checkAnecfInput(input);
  if (issues.length) throw new EcfValidationError(issues);
  let total = 0;
  const anulacion = input.anulaciones.map((a, i) => {
    const count = a.rangos.reduce((s, r) => s + (r.hasta - r.desde + 1), 0);
    total += count;
    return {
      no_linea: [i + 1],
      tipo_ecf: a.tipo_ecf,
      secuencias: a.rangos.map((r) => ({ secuencia_encf_desde: composeEncf(a.tipo_ecf, r.desde), secuencia_encf_hasta: composeEncf(a.tipo_ecf, r.hasta) })),
      cantidad_encf_anulados: count,
    };
  });
  return buildDocXml(ANECF_TABLE, {
    encabezado: { rnc_emisor: input.rnc_emisor, cantidad_encf_anulados: total, fecha_hora_anulacion_encf: input.fecha_hora_anulacion_encf },
    anulacion,
  });
}

/** Parses an ANECF back into voided ranges (consecutives). */
export function parseAnecfXml(xml: string): ParsedDoc<AnecfInput> & { cantidad: number } {
  const p = parseDocXml<{ encabezado: Record<string, unknown>; anulacion: { tipo_ecf: string; secuencias: { secuencia_encf_desde: string; secuencia_encf_hasta: string }[] }[] }>(ANECF_TABLE, xml);
  const e = p.data.encabezado ?? {};
  const data: AnecfInput = {
    rnc_emisor: String(e.rnc_emisor ?? ''),
    fecha_hora_anulacion_encf: String(e.fecha_hora_anulacion_encf ?? ''),
    anulaciones: (p.data.anulacion ?? []).map((a) => ({
      tipo_ecf: String(a.tipo_ecf),
      rangos: (a.secuencias ?? []).map((s) => ({ desde: Number(s.secuencia_encf_desde.slice(3)), hasta: Number(s.secuencia_encf_hasta.slice(3)) })),
    })),
  };
  return { data, signed: p.signed, issues: p.issues, cantidad: Number(e.cantidad_encf_anulados ?? 0) };
}

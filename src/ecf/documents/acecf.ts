/**
 * ACECF — aprobación comercial: the buyer accepts (1) or rejects (2) the operation of a received e-CF
 * (ACF). Sent to the issuer's `/fe/aprobacioncomercial/api/ecf` and a copy to DGII. Not applicable to
 * types 32, 41, 43, 46 and 47 (DT p. 44/46).
 */
import { ACECF_TYPES } from '../spec/doc-types.js';
import { ACECF_TABLE } from '../spec/other-tables.gen.js';
import type { Issue } from '../../shared/issues.js';
import { buildDocXml, parseDocXml, type ParsedDoc } from './generic.js';

/** e-CF types that admit commercial approval (the registry's `admitsCommercialApproval` rows). */
export { ACECF_TYPES };

export interface AcecfInput {
  rnc_emisor: string;
  encf: string;
  fecha_emision: string;
  /** Written with exactly 2 decimals (`35400` → `35400.00`), as the ACECF XSD demands. */
  monto_total: number;
  rnc_comprador: string;
  /** '1' aprobado, '2' rechazado. */
  estado: '1' | '2';
  /** Required when rejecting (estado '2'), at most 250 characters; not allowed when approving. */
  detalle_motivo_rechazo?: string;
  fecha_hora_aprobacion_comercial: string;
}

const XML_BASE = '/ACECF/DetalleAprobacionComercial';

/**
 * The rules the table cannot express: a rejection reason if and only if `estado` is '2', and only
 * e-CF types 31, 33, 34, 44 and 45 admit commercial approval.
 */
export function checkAcecfRules(input: Partial<AcecfInput>, paths = { motivo: 'detalle_motivo_rechazo', encf: 'encf' }): Issue[] {
  const issues: Issue[] = [];
  if (input.estado === '2' && !input.detalle_motivo_rechazo) {
    issues.push({
      code: 'required',
      path: paths.motivo,
      message: 'El motivo de rechazo es requerido cuando el estado es 2 (rechazado).',
      severity: 'error',
      ruleId: 'ACECF-MOTIVO',
    });
  }
  if (input.estado === '1' && input.detalle_motivo_rechazo) {
    issues.push({
      code: 'not_allowed',
      path: paths.motivo,
      message: 'El motivo de rechazo solo se indica cuando el estado es 2 (rechazado).',
      severity: 'error',
      ruleId: 'ACECF-MOTIVO',
    });
  }
  const prefix = /^E(\d{2})/.exec(String(input.encf ?? ''))?.[1];
  if (prefix && !(ACECF_TYPES as readonly string[]).includes(prefix)) {
    issues.push({
      code: 'rule',
      path: paths.encf,
      message: `El tipo ${prefix} no admite aprobación comercial (solo ${ACECF_TYPES.join(', ')}).`,
      severity: 'error',
      ruleId: 'ACECF-TIPO',
    });
  }
  return issues;
}

/**
 * Builds the unsigned ACECF XML (sign it with `signXml`).
 *
 * @throws EcfValidationError with every issue (Spanish messages, paths into `input`)
 * @example
 * buildAcecfXml({ rnc_emisor: '130000001', encf: 'E310000000001', fecha_emision: '01-04-2026', monto_total: 35400,
 *   rnc_comprador: '131880738', estado: '1', fecha_hora_aprobacion_comercial: '02-04-2026 09:00:00' })
 * //=> '…<MontoTotal>35400.00</MontoTotal>…'
 */
export function buildAcecfXml(input: AcecfInput): string {
  return buildDocXml(ACECF_TABLE, { ...input }, checkAcecfRules(input));
}

/** Parses an ACECF (signed or not); `issues` also reports the rules of {@link checkAcecfRules}. */
export function parseAcecfXml(xml: string): ParsedDoc<AcecfInput> {
  const parsed = parseDocXml<AcecfInput>(ACECF_TABLE, xml);
  parsed.issues.push(...checkAcecfRules(parsed.data, { motivo: `${XML_BASE}/DetalleMotivoRechazo`, encf: `${XML_BASE}/eNCF` }));
  return parsed;
}

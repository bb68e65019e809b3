/**
 * ACECF — aprobación comercial: the buyer accepts (1) or rejects (2) the operation of a received e-CF
 * (ACF). Sent to the issuer's `/fe/aprobacioncomercial/api/ecf` and a copy to DGII. Not applicable to
 * types 32, 41, 43, 46 and 47 (DT p. 44/46).
 */
import { ACECF_TABLE } from '../spec/other-tables.gen.js';
import type { Issue } from '../issues.js';
import { buildDocXml, parseDocXml, type ParsedDoc } from './generic.js';

/** e-CF types that admit commercial approval. */
export const ACECF_TYPES = ['31', '33', '34', '44', '45'] as const;

export interface AcecfInput {
  rnc_emisor: string;
  encf: string;
  fecha_emision: string;
  /** Written with exactly 2 decimals, as the ACECF XSD demands. */
  monto_total: number;
  rnc_comprador: string;
  /** '1' aprobado, '2' rechazado. */
  estado: '1' | '2';
  /** Required when rejecting (estado '2'), at most 250 characters; not allowed when approving. */
  detalle_motivo_rechazo?: string;
  fecha_hora_aprobacion_comercial: string;
}

export function buildAcecfXml(input: AcecfInput): string {
  const extra: Issue[] = [];
  if (input.estado === '2' && !input.detalle_motivo_rechazo) {
    extra.push({ code: 'required', path: 'detalle_motivo_rechazo', message: 'El motivo de rechazo es requerido cuando el estado es 2 (rechazado).', severity: 'error' });
  }
  if (input.estado === '1' && input.detalle_motivo_rechazo) {
    extra.push({ code: 'not_allowed', path: 'detalle_motivo_rechazo', message: 'El motivo de rechazo solo se indica cuando el estado es 2 (rechazado).', severity: 'error' });
  }
  const prefix = /^E(\d{2})/.exec(String(input.encf))?.[1];
  if (prefix && !(ACECF_TYPES as readonly string[]).includes(prefix)) {
    extra.push({ code: 'rule', path: 'encf', message: `El tipo ${prefix} no admite aprobación comercial (solo ${ACECF_TYPES.join(', ')}).`, severity: 'error' });
  }
  return buildDocXml(ACECF_TABLE, { ...input }, extra);
}

export function parseAcecfXml(xml: string): ParsedDoc<AcecfInput> {
  return parseDocXml<AcecfInput>(ACECF_TABLE, xml);
}

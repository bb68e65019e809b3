/**
 * ARECF — acuse de recibo: the receiver's signed acknowledgment that an e-CF arrived (ARF). Returned
 * synchronously by the receiver's `/fe/recepcion/api/ecf`. Receipt is not acceptance.
 */
import { ARECF_TABLE } from '../spec/other-tables.gen.js';
import type { Issue } from '../issues.js';
import { buildDocXml, parseDocXml, type ParsedDoc } from './generic.js';

/** Estado: 0 = e-CF recibido, 1 = no recibido. */
export type ArecfEstado = '0' | '1';

/** Why an e-CF was not received (ARF p. 5). */
export const ARECF_MOTIVOS = {
  '1': 'Error de especificación',
  '2': 'Error de firma digital',
  '3': 'Envío duplicado',
  '4': 'RNC Comprador no corresponde',
} as const;
export type ArecfMotivo = keyof typeof ARECF_MOTIVOS;

export interface ArecfInput {
  rnc_emisor: string;
  rnc_comprador: string;
  encf: string;
  estado: ArecfEstado;
  /** Required when `estado` is '1' (not received); not allowed otherwise. */
  codigo_motivo_no_recibido?: ArecfMotivo;
  /** `dd-MM-yyyy HH:mm:ss`, GMT−4. */
  fecha_hora_acuse_recibo: string;
}

/** Builds the unsigned ARECF XML (sign it with `signXml`). */
export function buildArecfXml(input: ArecfInput): string {
  const extra: Issue[] = [];
  if (input.estado === '1' && !input.codigo_motivo_no_recibido) {
    extra.push({ code: 'required', path: 'codigo_motivo_no_recibido', message: 'Requerido cuando el estado es 1 (no recibido).', severity: 'error' });
  }
  if (input.estado === '0' && input.codigo_motivo_no_recibido) {
    extra.push({ code: 'not_allowed', path: 'codigo_motivo_no_recibido', message: 'Solo se indica cuando el estado es 1 (no recibido).', severity: 'error' });
  }
  return buildDocXml(ARECF_TABLE, { ...input }, extra);
}

export function parseArecfXml(xml: string): ParsedDoc<ArecfInput> {
  return parseDocXml<ArecfInput>(ARECF_TABLE, xml);
}

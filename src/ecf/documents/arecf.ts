/**
 * ARECF — acuse de recibo: the receiver's signed acknowledgment that an e-CF arrived (ARF). Returned
 * synchronously by the receiver's `/fe/recepcion/api/ecf`. Receipt is not acceptance.
 */
import { ARECF_TABLE } from '../spec/other-tables.gen.js';
import type { Issue } from '../../shared/issues.js';
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

const XML_PATH = '/ARECF/DetalleAcusedeRecibo/CodigoMotivoNoRecibido';

/** The rule the table cannot express: `codigo_motivo_no_recibido` if and only if `estado` is '1'. */
export function checkArecfRules(input: Partial<ArecfInput>, path = 'codigo_motivo_no_recibido'): Issue[] {
  if (input.estado === '1' && !input.codigo_motivo_no_recibido) {
    return [
      {
        code: 'required',
        path,
        message: 'El código de motivo es requerido cuando el estado es 1 (e-CF no recibido).',
        severity: 'error',
        ruleId: 'ARECF-MOTIVO',
      },
    ];
  }
  if (input.estado === '0' && input.codigo_motivo_no_recibido) {
    return [
      {
        code: 'not_allowed',
        path,
        message: 'El código de motivo solo se indica cuando el estado es 1 (e-CF no recibido).',
        severity: 'error',
        ruleId: 'ARECF-MOTIVO',
      },
    ];
  }
  return [];
}

/**
 * Builds the unsigned ARECF XML (sign it with `signXml`).
 *
 * @throws EcfValidationError with every issue (Spanish messages, paths into `input`)
 * @example
 * buildArecfXml({ rnc_emisor: '130000001', rnc_comprador: '131880738', encf: 'E310000000001', estado: '0',
 *   fecha_hora_acuse_recibo: '01-04-2026 10:00:00' })
 * //=> '<?xml version="1.0" encoding="utf-8"?><ARECF><DetalleAcusedeRecibo><Version>1.0</Version>…</ARECF>'
 */
export function buildArecfXml(input: ArecfInput): string {
  return buildDocXml(ARECF_TABLE, { ...input }, checkArecfRules(input));
}

/** Parses an ARECF (signed or not); `issues` also reports a motivo that contradicts `Estado`. */
export function parseArecfXml(xml: string): ParsedDoc<ArecfInput> {
  const parsed = parseDocXml<ArecfInput>(ARECF_TABLE, xml);
  parsed.issues.push(...checkArecfRules(parsed.data, XML_PATH));
  return parsed;
}

/**
 * The catalog of internal statuses of an issued e-CF (spec "States and transitions"). The spec fixes the
 * codes of `received` (1), `rejected_validation` (2) and `accepted_authority` (4); the other three codes are
 * ours and are stable from now on: clients may store them.
 */
import type { DocumentStatus } from './storage/types.js';

export interface StatusInfo {
  status: DocumentStatus;
  status_code: number;
  /** Spanish description for API clients. */
  description: string;
  /** True when the document never leaves this status again. */
  terminal: boolean;
}

export const STATUSES: readonly StatusInfo[] = Object.freeze(
  [
    { status: 'received', status_code: 1, description: 'Recibido, validado y en cola de transmisión; e-NCF asignado.', terminal: false },
    {
      status: 'rejected_validation',
      status_code: 2,
      description: 'No superó la validación previa a la transmisión; no se transmitió y el e-NCF no se consumió.',
      terminal: true,
    },
    { status: 'in_process_authority', status_code: 3, description: 'Transmitido a la autoridad tributaria; en espera del resultado.', terminal: false },
    { status: 'accepted_authority', status_code: 4, description: 'Aceptado por la autoridad tributaria; fiscalmente válido.', terminal: true },
    { status: 'rejected_authority', status_code: 5, description: 'Rechazado definitivamente por la autoridad tributaria; fiscalmente nulo.', terminal: true },
    { status: 'system_error', status_code: 6, description: 'Falla interna del servicio; se reintenta automáticamente.', terminal: false },
  ].map((s) => Object.freeze(s as StatusInfo)),
);

const BY_STATUS = new Map(STATUSES.map((s) => [s.status, s]));

/** The catalog entry of a status. */
export function statusInfo(status: DocumentStatus): StatusInfo {
  const s = BY_STATUS.get(status);
  if (!s) throw new Error(`unknown document status: ${String(status)}`);
  return s;
}

/** Every status name, in code order (for schemas and filters). */
export const STATUS_NAMES = STATUSES.map((s) => s.status) as [DocumentStatus, ...DocumentStatus[]];

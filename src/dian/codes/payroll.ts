/** The CUNE of an electronic payroll document (102) or its adjustment (103), dian-protocol.md §3.4. */
import { type Amount, type DianEnvironment, type HashedCode, hashAmount, invalid, hashDate, hashEnvironment, hashText, hashTime } from './inputs.js';
import { sha384Hex } from './sha384.js';

/** The payroll values the CUNE hashes, as in the built `NominaIndividual` / `NominaIndividualDeAjuste`. */
export interface CuneInput {
  /** `NumeroSecuenciaXML/@Numero` (prefix and consecutive). */
  number: string;
  /** `InformacionGeneral/@FechaGen`, `yyyy-MM-dd`. */
  generationDate: string;
  /** `InformacionGeneral/@HoraGen` with its offset, `HH:mm:ss-05:00`. */
  generationTime: string;
  /** `DevengadosTotal` (`0.00` for an `Eliminar` adjustment). */
  accruedTotal: Amount;
  /** `DeduccionesTotal` (`0.00` for an `Eliminar` adjustment). */
  deductionsTotal: Amount;
  /** `ComprobanteTotal` (`0.00` for an `Eliminar` adjustment). */
  voucherTotal: Amount;
  /** `Empleador/@NIT`, without check digit. */
  employerNit: string;
  /** `Trabajador/@NumeroDocumento` (`0` for an `Eliminar` adjustment). */
  employeeDocument: string;
  /** `InformacionGeneral/@TipoXML`: `102` payroll, `103` adjustment. */
  documentType: '102' | '103';
  /** The PIN of the software registered with DIAN. */
  softwarePin: string;
  /** `InformacionGeneral/@Ambiente`: `1` production, `2` habilitación. */
  environment: DianEnvironment;
}

/**
 * The CUNE: SHA-384(Numero + FechaGen + HoraGen + DevengadosTotal + DeduccionesTotal + ComprobanteTotal +
 * employer NIT + employee document + TipoXML + PIN + Ambiente), amounts truncated to 2 decimals.
 *
 * @throws EcfError `invalid_argument` for a missing, negative or non-decimal amount, or a malformed field
 */
export function cune(input: CuneInput): HashedCode {
  const fn = 'cune';
  const preimage =
    hashText(input.number, fn, 'number') +
    hashDate(input.generationDate, fn, 'generationDate') +
    hashTime(input.generationTime, fn, 'generationTime') +
    hashAmount(input.accruedTotal, fn, 'accruedTotal') +
    hashAmount(input.deductionsTotal, fn, 'deductionsTotal') +
    hashAmount(input.voucherTotal, fn, 'voucherTotal') +
    hashText(input.employerNit, fn, 'employerNit') +
    hashText(input.employeeDocument, fn, 'employeeDocument') +
    documentType(input.documentType, fn) +
    hashText(input.softwarePin, fn, 'softwarePin') +
    hashEnvironment(input.environment, fn);
  return { hash: sha384Hex(preimage), preimage };
}

function documentType(value: unknown, fn: string): string {
  if (value !== '102' && value !== '103') {
    throw invalid(fn, `documentType must be "102" (payroll) or "103" (adjustment), got ${typeof value === 'string' ? `"${value}"` : String(value)}.`);
  }
  return value;
}

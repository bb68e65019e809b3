/**
 * The payroll codes read from a document tree (built or received): the CUNE's inputs as the XML carries them,
 * the recomputed CUNE and software security code, and whether they match the declared ones. One function for a
 * built document and a received one, so the builder hashes the XML it wrote. Pure.
 */
import { isEcfError } from '../../shared/errors/ecf-error.js';
import { cune, type CuneInput } from '../codes/payroll.js';
import { softwareSecurityCode } from '../codes/security-code.js';
import { attr, child, type UblNode } from '../ubl/tree.js';

/** The element that holds the content: the root (102), or the `Reemplazar` / `Eliminar` of a 103. */
export function payrollBody(root: UblNode): UblNode | undefined {
  if (root.name === 'NominaIndividual') return root;
  if (root.name === 'NominaIndividualDeAjuste') return child(root, 'Reemplazar') ?? child(root, 'Eliminar');
  return undefined;
}

/** The CUNE's inputs without the PIN, or a Spanish message naming the missing value. */
export type PayrollCuneInputs =
  | { ok: true; input: Omit<CuneInput, 'softwarePin'>; declared: string | undefined }
  | { ok: false; message: string; path: string };

/** Reads the CUNE's values from a payroll tree (an `Eliminar` note hashes `0.00` totals and employee `0`). */
export function payrollCuneInputs(root: UblNode): PayrollCuneInputs {
  const body = payrollBody(root);
  if (!body) return { ok: false, message: 'No es una nómina individual ni una nota de ajuste con Reemplazar o Eliminar.', path: `/${root.name}` };
  const base = `/${root.name}${body === root ? '' : `/${body.name}`}`;
  const info = child(body, 'InformacionGeneral');
  const need = (node: UblNode | undefined, element: string, name: string): string | { missing: string } => {
    const v = attr(node, name);
    return v === undefined || v.trim() === '' ? { missing: `${base}/${element}/@${name}` } : v.trim();
  };
  const total = (name: string): string | { missing: string } => {
    if (body.name === 'Eliminar') return '0.00';
    const t = child(body, name)?.text?.trim();
    return t === undefined || t === '' ? { missing: `${base}/${name}` } : t;
  };
  const values = {
    number: need(child(body, 'NumeroSecuenciaXML'), 'NumeroSecuenciaXML', 'Numero'),
    generationDate: need(info, 'InformacionGeneral', 'FechaGen'),
    generationTime: need(info, 'InformacionGeneral', 'HoraGen'),
    accruedTotal: total('DevengadosTotal'),
    deductionsTotal: total('DeduccionesTotal'),
    voucherTotal: total('ComprobanteTotal'),
    employerNit: need(child(body, 'Empleador'), 'Empleador', 'NIT'),
    employeeDocument: body.name === 'Eliminar' ? '0' : need(child(body, 'Trabajador'), 'Trabajador', 'NumeroDocumento'),
    documentType: need(info, 'InformacionGeneral', 'TipoXML'),
    environment: need(info, 'InformacionGeneral', 'Ambiente'),
  };
  for (const v of Object.values(values)) {
    if (typeof v !== 'string') return { ok: false, message: `Falta el valor ${v.missing}, que entra en el CUNE.`, path: v.missing };
  }
  return { ok: true, input: values as Omit<CuneInput, 'softwarePin'>, declared: attr(info, 'CUNE') };
}

/** The recomputed payroll codes of a document. */
export interface PayrollCodes {
  cune: string;
  preimage: string;
  declared: string | undefined;
  matches: boolean;
  securityCode: string;
  declaredSecurityCode: string | undefined;
  securityCodeMatches: boolean;
}

/**
 * Recomputes the CUNE (with the software PIN) and `ProveedorXML/@SoftwareSC` (software id from the document unless
 * given) of a payroll tree. A missing value, or one without the formula's form (a time without offset, an amount
 * that is not decimal), is a value with a Spanish message, never a throw.
 */
export function computePayrollCodes(
  root: UblNode,
  keys: { pin: string; softwareId?: string },
): { ok: true; codes: PayrollCodes } | { ok: false; message: string; path: string } {
  const inputs = payrollCuneInputs(root);
  if (!inputs.ok) return inputs;
  let code: ReturnType<typeof cune>;
  try {
    code = cune({ ...inputs.input, softwarePin: keys.pin });
  } catch (e) {
    // A received document whose values do not have the formula's form (DIAN's templates carry placeholders).
    if (isEcfError(e)) return { ok: false, message: `Un valor del CUNE no tiene la forma esperada: ${e.message}`, path: 'InformacionGeneral' };
    throw e;
  }
  const provider = child(payrollBody(root), 'ProveedorXML');
  const softwareId = keys.softwareId ?? attr(provider, 'SoftwareID');
  if (!softwareId) return { ok: false, message: 'Falta ProveedorXML/@SoftwareID para el código de seguridad.', path: 'ProveedorXML/@SoftwareID' };
  const sc = softwareSecurityCode({ softwareId, softwarePin: keys.pin, number: inputs.input.number }).hash;
  const declaredSc = attr(provider, 'SoftwareSC');
  return {
    ok: true,
    codes: {
      cune: code.hash,
      preimage: code.preimage,
      declared: inputs.declared,
      matches: inputs.declared === code.hash,
      securityCode: sc,
      declaredSecurityCode: declaredSc,
      securityCodeMatches: declaredSc === sc,
    },
  };
}

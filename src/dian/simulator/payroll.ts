/**
 * A payroll document (102 NominaIndividual, 103 NominaIndividualDeAjuste) received by SendNominaSync: the checks of
 * dian-protocol.md §7 the simulator makes (the zip, the XSD of the payroll schemas, the XAdES signature), the
 * software (`ProveedorXML/@SoftwareID` registered for the employer's NIT), the CUNE recomputed with its PIN from
 * the XML's attributes and totals (§3.4), the duplicate check by CUNE, then the verdict with DIAN's signed
 * ApplicationResponse. Not here yet: the annex's payroll rules (NIE…) and the payroll reader (issue 22).
 */
import type { Element } from '@xmldom/xmldom';
import { parseXmlStrictly } from '../../shared/xml/strict-parser.js';
import { cune } from '../codes/payroll.js';
import { verifyDianXml } from '../sign/verify.js';
import { el } from '../ubl/tree.js';
import { detectDianSchemaId } from '../xsd/detect.js';
import { type SimCore, type SimMessage, unreadVerdict, verdictOf } from './core.js';
import { schemaDetail } from './documents.js';
import { rejection } from './rules.js';
import type { DianSimVerdict } from './types.js';

function find(el_: Element, local: string): Element | undefined {
  for (let n = el_.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const e = n as Element;
    if (e.localName === local) return e;
    const deeper = find(e, local);
    if (deeper) return deeper;
  }
  return undefined;
}

/** The CUNE recomputed from a payroll document's root with `pin`, next to the declared one; or why it cannot be. */
export function payrollCune(root: Element, pin: string): { ok: true; hash: string; declared: string } | { ok: false; message: string } {
  const info = find(root, 'InformacionGeneral');
  const total = (name: string) => (find(root, name)?.textContent ?? '').trim() || '0.00';
  const type = info?.getAttribute('TipoXML') ?? '';
  const environment = info?.getAttribute('Ambiente') ?? '';
  if (type !== '102' && type !== '103') return { ok: false, message: `InformacionGeneral/@TipoXML debe ser 102 o 103, no "${type}"` };
  if (environment !== '1' && environment !== '2') return { ok: false, message: `InformacionGeneral/@Ambiente debe ser 1 o 2, no "${environment}"` };
  try {
    const code = cune({
      number: find(root, 'NumeroSecuenciaXML')?.getAttribute('Numero') ?? '',
      generationDate: info?.getAttribute('FechaGen') ?? '',
      generationTime: info?.getAttribute('HoraGen') ?? '',
      accruedTotal: total('DevengadosTotal'),
      deductionsTotal: total('DeduccionesTotal'),
      voucherTotal: total('ComprobanteTotal'),
      employerNit: find(root, 'Empleador')?.getAttribute('NIT') ?? '',
      employeeDocument: find(root, 'Trabajador')?.getAttribute('NumeroDocumento') || '0',
      documentType: type,
      softwarePin: pin,
      environment,
    });
    return { ok: true, hash: code.hash, declared: info?.getAttribute('CUNE') ?? '' };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/** Processes one payroll file; stores its verdict by CUNE. */
export async function processPayroll(core: SimCore, fileName: string | null, xml: string): Promise<DianSimVerdict> {
  const state = core.store.state;
  const schema = detectDianSchemaId(xml);
  if (schema !== 'NominaIndividual' && schema !== 'NominaIndividualDeAjuste') {
    return unreadVerdict([rejection('schema', undefined, 'se esperaba NominaIndividual o NominaIndividualDeAjuste')], fileName);
  }
  const xsd = core.schemas.validate(xml, schema);
  if (!xsd.valid) return unreadVerdict([rejection('schema', undefined, schemaDetail(xsd.violations))], fileName);
  const root = parseXmlStrictly(xml).doc!.documentElement!;
  const key = find(root, 'InformacionGeneral')?.getAttribute('CUNE') ?? '';
  const number = find(root, 'NumeroSecuenciaXML')?.getAttribute('Numero') ?? '';
  const employer = find(root, 'Empleador')?.getAttribute('NIT') ?? '';
  if (!key) return unreadVerdict([rejection('documentKey', undefined, 'InformacionGeneral no tiene CUNE')], fileName);
  if (state.documents[key]?.verdict.isValid) {
    state.stats.documents.duplicates++;
    return unreadVerdict([rejection('duplicate', undefined)], fileName, key);
  }
  const messages: SimMessage[] = [];
  const signature = verifyDianXml(xml);
  if (!signature.valid) messages.push(rejection('signature', undefined, signature.reason ?? signature.code));
  const softwareId = find(root, 'ProveedorXML')?.getAttribute('SoftwareID') ?? '';
  const company = state.companies.find((c) => c.nit === employer && c.softwareId === softwareId);
  if (!company) messages.push(rejection('unknownSoftware', undefined, `NIT ${employer}, software ${softwareId || '(vacío)'}`));
  else {
    const code = payrollCune(root, company.pin);
    if (!code.ok) messages.push(rejection('payrollKey', undefined, code.message));
    else if (code.hash !== key) messages.push(rejection('payrollKey', undefined, `declarado ${key}, calculado ${code.hash}`));
  }
  const sender = { ...el('cac:PartyTaxScheme'), children: [el('cbc:CompanyID', employer, [['schemeName', '31']])] };
  const verdict = await verdictOf(core, {
    messages,
    fileName,
    number,
    key,
    scheme: 'CUNE-SHA384',
    environment: find(root, 'InformacionGeneral')?.getAttribute('Ambiente') ?? '2',
    sender,
    label: 'La Nómina Individual Electrónica',
  });
  state.documents[key] = {
    key,
    kind: 'payroll',
    number,
    nit: employer,
    customerNit: null,
    xml,
    verdict,
    receivedAt: core.clock().toISOString(),
    events: [],
    notes: [],
  };
  if (verdict.isValid) state.stats.documents.accepted++;
  else state.stats.documents.rejected++;
  core.store.changed();
  return verdict;
}

/**
 * A payroll document (102 NominaIndividual, 103 NominaIndividualDeAjuste) received by SendNominaSync: the checks of
 * dian-protocol.md §7 the simulator makes (the zip, the XSD of the payroll schemas, the XAdES signature), the
 * software (`ProveedorXML/@SoftwareID` registered for the employer's NIT), the CUNE recomputed with its PIN from
 * the XML by the core's payroll reader (`computePayrollCodes`, the one the builder hashes with), the duplicate
 * check by CUNE, the annex's arithmetic as the SDK checks it (`payrollRuleMessages`), the scenarios forced for the
 * number, then the verdict with DIAN's signed ApplicationResponse.
 */
import { computePayrollCodes, payrollBody, payrollCuneInputs } from '../payroll/codes.js';
import { parseDianPayroll } from '../payroll/parse.js';
import { validateDianPayroll } from '../payroll/validate.js';
import { verifyDianXml } from '../sign/verify.js';
import { readUbl } from '../ubl/read.js';
import { attr, child, el } from '../ubl/tree.js';
import { detectDianSchemaId } from '../xsd/detect.js';
import { type SimCore, type SimMessage, unreadVerdict, verdictOf } from './core.js';
import { schemaDetail } from './documents.js';
import { rejection } from './rules.js';
import type { DianSimVerdict } from './types.js';

/**
 * The payroll annex's arithmetic as the SDK checks it (`DIAN-NOM-*` rules of `validateDianPayroll` on the document
 * read back: totals within DIAN's ±2.00 tolerance, periods, exchange rate, negative amounts): an error is a Rechazo,
 * a warning (a difference within the tolerance) a Notificación. The rule ids are ours: DIAN's NIE codes for these
 * checks were not found.
 */
export function payrollRuleMessages(xml: string): SimMessage[] {
  const parsed = parseDianPayroll(xml);
  if (!parsed.ok) return [];
  return validateDianPayroll(parsed.kind, parsed.request)
    .issues.filter((i) => i.ruleId?.startsWith('DIAN-NOM-'))
    .map((i) => ({ rule: i.ruleId!, kind: i.severity === 'error' ? ('Rechazo' as const) : ('Notificación' as const), text: `${i.message} (${i.path})` }));
}

/** Processes one payroll file; stores its verdict by CUNE. */
export async function processPayroll(core: SimCore, fileName: string | null, xml: string): Promise<DianSimVerdict> {
  const state = core.store.state;
  const schema = detectDianSchemaId(xml);
  if (schema !== 'NominaIndividual' && schema !== 'NominaIndividualDeAjuste') {
    return unreadVerdict([rejection('schema', undefined, 'se esperaba NominaIndividual o NominaIndividualDeAjuste')], fileName);
  }
  // The reader's pre-scan first (no DOCTYPE, DIAN's size and depth bounds): libxml2 never sees what it refuses.
  const read = readUbl(xml);
  if (!read.ok) return unreadVerdict([rejection('schema', undefined, read.message)], fileName);
  const xsd = core.schemas.validate(xml, schema);
  if (!xsd.valid) return unreadVerdict([rejection('schema', undefined, schemaDetail(xsd.violations))], fileName);
  // the CUNE's values as the core reads them (an Eliminar note hashes 0.00 totals and employee 0)
  const inputs = payrollCuneInputs(read.root);
  if (!inputs.ok) return unreadVerdict([rejection('payrollKey', undefined, inputs.message)], fileName);
  const key = inputs.declared ?? '';
  const { number, employerNit: employer, environment } = inputs.input;
  if (!key) return unreadVerdict([rejection('documentKey', undefined, 'InformacionGeneral no tiene CUNE')], fileName);
  if (state.documents[key]?.verdict.isValid) {
    state.stats.documents.duplicates++;
    return unreadVerdict([rejection('duplicate', undefined)], fileName, key);
  }
  const messages: SimMessage[] = [];
  const signature = verifyDianXml(xml);
  if (!signature.valid) messages.push(rejection('signature', undefined, signature.reason ?? signature.code));
  const softwareId = attr(child(payrollBody(read.root)!, 'ProveedorXML'), 'SoftwareID') ?? '';
  const company = state.companies.find((c) => c.nit === employer && c.softwareId === softwareId);
  if (!company) messages.push(rejection('unknownSoftware', undefined, `NIT ${employer}, software ${softwareId || '(vacío)'}`));
  else {
    const codes = computePayrollCodes(read.root, { pin: company.pin, softwareId });
    if (!codes.ok) messages.push(rejection('payrollKey', undefined, codes.message));
    else if (!codes.codes.matches) messages.push(rejection('payrollKey', undefined, `declarado ${key}, calculado ${codes.codes.cune}`));
  }
  messages.push(...payrollRuleMessages(xml));
  // The scenarios forced for this number (prefix and consecutive), as for documents.
  messages.push(...state.scenarios.filter((s) => s.number === number).map((s) => ({ rule: s.rule, kind: s.kind, text: s.text })));
  const sender = { ...el('cac:PartyTaxScheme'), children: [el('cbc:CompanyID', employer, [['schemeName', '31']])] };
  const verdict = await verdictOf(core, {
    messages,
    fileName,
    number,
    key,
    scheme: 'CUNE-SHA384',
    environment,
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

/**
 * An event (ApplicationResponse 030–034) received by SendEventUpdateStatus: XSD, XAdES signature, the sender's
 * software and PIN, the event CUDE recomputed, the invoice it is about (it must be one DIAN validated), the
 * roles the event table's row names (who sends, who receives), the order of §9, and no second event of the same
 * code on one invoice (`LGC01`). Accepted events are kept on the invoice (GetStatusEvent lists them).
 */
import { computeDocumentCodes } from '../codes/from-tree.js';
import { DIAN_EVENTS, DIAN_PARTY, type DianEventRole } from '../events/table.js';
import { checkDianRules } from '../rules/check.js';
import { verifyDianXml } from '../sign/verify.js';
import { readUbl } from '../ubl/read.js';
import { at, textAt } from '../ubl/tree.js';
import { detectDianSchemaId } from '../xsd/detect.js';
import { addMessages, bogotaDate, type SimCore, type SimMessage, unreadVerdict, verdictOf } from './core.js';
import { schemaDetail } from './documents.js';
import { EVENT_PREREQUISITES, rejection } from './rules.js';
import type { DianSimDocument, DianSimVerdict } from './types.js';

const SOFTWARE_ID = 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions/sts:SoftwareProvider/sts:SoftwareID';

/** Processes one event file; stores its verdict and, when accepted, the event on its invoice. */
export async function processEvent(core: SimCore, fileName: string | null, xml: string): Promise<DianSimVerdict> {
  const state = core.store.state;
  if (detectDianSchemaId(xml) !== 'ApplicationResponse') {
    return unreadVerdict([rejection('schema', undefined, 'se esperaba un ApplicationResponse (evento 030–034)')], fileName);
  }
  // The reader's pre-scan first (no DOCTYPE, DIAN's size and depth bounds): libxml2 never sees what it refuses.
  const read = readUbl(xml);
  const xsd = read.ok ? core.schemas.validate(xml, 'ApplicationResponse') : { valid: false, violations: [] };
  if (!xsd.valid || !read.ok) return unreadVerdict([rejection('schema', undefined, read.ok ? schemaDetail(xsd.violations) : read.message)], fileName);
  const root = read.root;
  const code = textAt(root, 'cac:DocumentResponse/cac:Response/cbc:ResponseCode') ?? '';
  const row = Object.hasOwn(DIAN_EVENTS, code) ? DIAN_EVENTS[code as keyof typeof DIAN_EVENTS] : undefined;
  if (!row) return unreadVerdict([rejection('schema', root, `código de evento desconocido: ${code || '(vacío)'}`)], fileName);
  const number = textAt(root, 'cbc:ID') ?? '';
  const declared = textAt(root, 'cbc:UUID') ?? '';
  if (declared) {
    state.received[declared] = (state.received[declared] ?? 0) + 1;
    core.store.changed();
  }
  const senderNit = textAt(root, 'cac:SenderParty/cac:PartyTaxScheme/cbc:CompanyID') ?? '';
  const receiverNit = textAt(root, 'cac:ReceiverParty/cac:PartyTaxScheme/cbc:CompanyID') ?? '';
  const invoiceKey = textAt(root, 'cac:DocumentResponse/cac:DocumentReference/cbc:UUID') ?? '';
  const invoice: DianSimDocument | undefined = state.documents[invoiceKey];

  const messages: SimMessage[] = [];
  if (invoice?.events.some((e) => e.code === code)) messages.push(rejection('eventDuplicate', root, `evento ${code} sobre ${invoice.number}`));
  const signature = verifyDianXml(xml);
  if (!signature.valid) messages.push(rejection('signature', root, signature.reason ?? signature.code));

  const softwareId = textAt(root, SOFTWARE_ID) ?? '';
  const company = state.companies.find((c) => c.nit === senderNit && c.softwareId === softwareId);
  if (!company) messages.push(rejection('unknownSoftware', root, `NIT ${senderNit}, software ${softwareId || '(vacío)'}`));
  let key = declared;
  const codes = computeDocumentCodes(root, company ? { pin: company.pin } : {});
  if (codes.ok) {
    if (!declared) key = codes.hash;
    if (!codes.matches) messages.push(rejection('documentKey', root, `declarado ${declared || '(vacío)'}, calculado ${codes.hash}`));
  } else if (!codes.missingKey) {
    messages.push(rejection('documentKey', root, `${codes.path}: ${codes.message}`));
  }
  if (!key) return unreadVerdict([...messages, rejection('documentKey', root, 'el evento no tiene cbc:UUID')], fileName);

  if (invoice?.kind !== 'document' || !invoice.verdict.isValid) {
    messages.push(rejection('referenceNotFound', root, invoiceKey || '(sin cbc:UUID)'));
  } else {
    const nitOf: Record<DianEventRole, string | null> = { buyer: invoice.customerNit, issuer: invoice.nit, dian: DIAN_PARTY.nit };
    if (nitOf[row.sender] !== senderNit)
      messages.push(rejection('eventRole', root, `el emisor del evento ${code} debe ser ${nitOf[row.sender]} (${row.sender})`));
    if (nitOf[row.receiver] !== receiverNit)
      messages.push(rejection('eventRole', root, `el receptor del evento ${code} debe ser ${nitOf[row.receiver]} (${row.receiver})`));
    const before = EVENT_PREREQUISITES[code];
    if (before && !invoice.events.some((e) => e.code === before)) messages.push(rejection('eventOrder', root, `el evento ${code} exige el ${before}`));
  }
  addMessages(
    messages,
    checkDianRules(root, { today: bogotaDate(core.clock()) }).map((f) => ({
      rule: f.rule,
      kind: f.kind,
      text: f.detail ? `${f.message} (${f.detail})` : f.message,
    })),
  );
  addMessages(
    messages,
    state.scenarios.filter((s) => s.number === number).map((s) => ({ rule: s.rule, kind: s.kind, text: s.text })),
  );

  const verdict = await verdictOf(core, {
    messages,
    fileName,
    number,
    key,
    scheme: 'CUDE-SHA384',
    environment: textAt(root, 'cbc:ProfileExecutionID') ?? '2',
    sender: at(root, 'cac:SenderParty/cac:PartyTaxScheme'),
    label: `El evento ${code}`,
  });
  const now = core.clock().toISOString();
  // A repeated event keeps the first one's record; its refusal is answered, not stored over it.
  if (!state.documents[key]?.verdict.isValid) {
    state.documents[key] = {
      key,
      kind: 'event',
      number,
      nit: senderNit,
      customerNit: null,
      xml,
      verdict,
      receivedAt: now,
      events: [],
      notes: [],
    };
  }
  if (verdict.isValid && invoice) {
    invoice.events.push({ code, cude: key, number, senderNit, receivedAt: now });
    state.stats.events.accepted++;
  } else {
    state.stats.events.rejected++;
  }
  core.store.changed();
  return verdict;
}

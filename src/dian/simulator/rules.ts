/**
 * The checks the local DIAN makes beyond `checkDianRules` (the annex rules of src/dian/rules), as rows: each
 * with DIAN's rule code where one is known, the code's source, and a Spanish text. A row's `stem` takes the
 * document kind's prefix (`AD06` → `FAD06` on invoices, `CAD06` on credit notes, `DAD06` on debit notes,
 * `DSAD06` on support documents, `AAD06` on events), as DIAN's codes do (dian-protocol.md §11; the prefixes
 * are src/dian/rules/kind.ts's). Codes starting `SIM` are the simulator's own: DIAN's code for the case was
 * not found (§14); clients should key on the kind (Rechazo), not on those codes.
 */
import { documentKind, RULE_PREFIX } from '../rules/kind.js';
import type { UblNode } from '../ubl/tree.js';

/** One check of the simulator. */
export interface SimRule {
  /** A fixed code (`ZB01`, `90`, `LGC01`) or a stem that takes the kind's prefix. */
  code?: string;
  stem?: string;
  text: string;
  /** Where the code comes from. */
  source: string;
}

export const SIM_RULES = {
  schema: { code: 'ZB01', text: 'El documento no cumple el esquema XSD de la DIAN', source: '§11.2 ZB01 (schema failure)' },
  signature: { code: 'ZE02', text: 'El valor de la firma del documento no es válido', source: '§11.2 ZE02' },
  documentKey: {
    stem: 'AD06',
    text: 'El código único (CUFE/CUDE/CUDS) no corresponde al calculado con los datos del documento y la clave técnica o el PIN del software',
    source: 'FAD06 for the CUFE (issue 20, events/response.ts); the twins by the kind prefix are ours',
  },
  payrollKey: {
    code: 'SIMCUNE01',
    text: 'El CUNE no corresponde al calculado con los datos de la nómina y el PIN del software',
    source: "ours (§3.4 formula; DIAN's payroll rule code for it was not found)",
  },
  securityCode: {
    stem: 'AB27b',
    text: 'El código de seguridad del software (SoftwareSecurityCode) no corresponde al calculado con el PIN registrado',
    source: '§11.2 FAB27b (software PIN)',
  },
  unknownSoftware: {
    code: 'SIMSW01',
    text: 'El software indicado en sts:SoftwareID no está registrado para el NIT emisor',
    source: 'ours',
  },
  noRangeForPrefix: { stem: 'AB10a', text: 'El prefijo del documento no corresponde a un rango de numeración autorizado', source: '§11.2 FAB10a (prefix)' },
  belowRange: { stem: 'AD05b', text: 'El número del documento es menor que el inicio del rango de numeración autorizado', source: '§11.2 FAD05b' },
  aboveRange: { stem: 'AD05c', text: 'El número del documento es mayor que el final del rango de numeración autorizado', source: '§11.2 FAD05c' },
  beforeRange: { stem: 'AB07b', text: 'La fecha de emisión es anterior al inicio de la vigencia del rango de numeración', source: '§11.2 FAB07b' },
  afterRange: { stem: 'AB08b', text: 'La fecha de emisión es posterior al final de la vigencia del rango de numeración', source: '§11.2 FAB08b' },
  duplicate: { code: '90', text: 'Documento procesado anteriormente', source: '§11.2 Regla: 90' },
  eventDuplicate: { code: 'LGC01', text: 'Evento registrado previamente', source: '§11.1 LGC01' },
  referenceNotFound: { code: 'NOTREFPLGNS', text: 'El documento referenciado no existe en la DIAN o no fue validado', source: '§11.2 NOTREFPLGNS' },
  eventRole: {
    code: 'SIMROL01',
    text: 'El emisor o el receptor del evento no es quien la tabla de eventos exige para este código',
    source: 'ours (roles of DIAN_EVENTS, §9)',
  },
  eventOrder: { code: 'SIMORD01', text: 'El evento exige un evento previo que no está registrado', source: 'ours (§9: 030 before 032 before 033)' },
  internal: { code: 'SIMINT01', text: 'Error interno del simulador al procesar el documento', source: 'ours' },
  zipContent: { code: 'SIMZIP01', text: 'El zip debe contener exactamente un documento XML', source: 'ours (§6.2: one document per synchronous zip)' },
} as const satisfies Record<string, SimRule>;

export type SimRuleId = keyof typeof SIM_RULES;

/**
 * Events that need an earlier event on the same invoice (§9: sequencing 030 → 032 → 033, enforced by DIAN rules
 * whose text was not found). 031 and 034 need none here.
 */
export const EVENT_PREREQUISITES: Readonly<Record<string, string>> = { '032': '030', '033': '032' };

/** The code of `id` for a document tree (undefined: a kind without a known prefix, which gets `F`). */
export function ruleCode(id: SimRuleId, root: UblNode | undefined): string {
  const rule: SimRule = SIM_RULES[id];
  if (rule.code) return rule.code;
  const kind = root ? documentKind(root) : 'other';
  const prefix = kind === 'event' ? 'A' : (RULE_PREFIX[kind] ?? 'F');
  return `${prefix}${rule.stem}`;
}

/** A rejection line `Regla: X, Rechazo: text` (detail appended after a colon). */
export function rejection(id: SimRuleId, root: UblNode | undefined, detail?: string): { rule: string; kind: 'Rechazo'; text: string } {
  const text = SIM_RULES[id].text;
  return { rule: ruleCode(id, root), kind: 'Rechazo', text: detail ? `${text}: ${detail}` : text };
}

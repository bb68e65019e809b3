/**
 * DIAN's rule messages as text: `Regla: FAU04, Rechazo: …` or `Regla: FAD09c, Notificación: …` (SOAP
 * `ErrorMessage` strings and ApplicationResponse line descriptions, dian-protocol.md §5.4), split into rule,
 * kind and text. One reading for the transport's answers and for DIAN's ApplicationResponse.
 */

/** The kind of a rule message: a rejection, or a notification (which travels with a valid answer). */
export type DianRuleMessageKind = 'Rechazo' | 'Notificación';

/** One message split; `rule` and `kind` are null for free text. */
export interface DianRuleMessage {
  rule: string | null;
  kind: DianRuleMessageKind | null;
  text: string;
}

/** `Regla: X, Rechazo: text` (or `Notificación`, with or without the accent, any case). */
const RULE_TEXT = /^\s*Regla\s*:\s*([^,]+?)\s*,\s*(Rechazo|Notificaci[oó]n)\s*:\s*([\s\S]*?)\s*$/i;
/** `Rechazo: text` / `Notificación: text` without the rule (a line whose code is the rule). */
const KIND_TEXT = /^\s*(Rechazo|Notificaci[oó]n)\s*:\s*([\s\S]*?)\s*$/i;

/** `Rechazo` or `Notificación` from the word as written. */
export function ruleMessageKind(word: string): DianRuleMessageKind {
  return word.toLowerCase() === 'rechazo' ? 'Rechazo' : 'Notificación';
}

/**
 * One message back in DIAN's string form, the inverse of {@link parseDianRuleMessage}: `Regla: X, Rechazo: …`,
 * `Rechazo: …` without a rule, or the free text.
 *
 * @example
 * formatDianRuleMessage({ rule: 'FAU04', kind: 'Rechazo', text: 'Base gravable…' }) //=> 'Regla: FAU04, Rechazo: Base gravable…'
 */
export function formatDianRuleMessage(m: { rule: string | null; kind: DianRuleMessageKind | null; text: string }): string {
  if (m.rule !== null && m.kind !== null) return `Regla: ${m.rule}, ${m.kind}: ${m.text}`;
  if (m.kind !== null) return `${m.kind}: ${m.text}`;
  return m.text;
}

/**
 * Splits one message: `Regla: FAU04, Rechazo: …` → `{ rule: 'FAU04', kind: 'Rechazo', text }`; a message of the
 * form `Rechazo: …` keeps `rule` null; anything else is free text with `rule` and `kind` null.
 *
 * @example
 * parseDianRuleMessage('Regla: FAD09c, Notificación: Fecha de emisión…') //=> { rule: 'FAD09c', kind: 'Notificación', text: 'Fecha de emisión…' }
 */
export function parseDianRuleMessage(message: string): DianRuleMessage {
  const ruled = RULE_TEXT.exec(message);
  if (ruled) return { rule: ruled[1]!, kind: ruleMessageKind(ruled[2]!), text: ruled[3]! };
  const kinded = KIND_TEXT.exec(message);
  if (kinded) return { rule: null, kind: ruleMessageKind(kinded[1]!), text: kinded[2]! };
  return { rule: null, kind: null, text: message.trim() };
}

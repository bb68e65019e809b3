/**
 * DIAN's business rules as a pre-flight check (issue 18, item 5): `checkDianRules` runs every rule of
 * ./table.ts that applies to the document's kind and collects every finding (never first-fail). The same code
 * serves SDK users before sending and the DIAN simulator on received files.
 *
 * Findings with severity `warning` (DIAN's Notificación) are informative: DIAN accepts a document that has them.
 * Only `error` findings (Rechazo) make DIAN reject it.
 *
 * Pure: no I/O, no clock (`today` is a parameter). Never throws for bad input.
 */
import { readUbl } from '../ubl/read.js';
import type { UblNode } from '../ubl/tree.js';
import { contextOf } from './context.js';
import { documentKind } from './kind.js';
import { formatDianRuleMessage } from './message.js';
import { DIAN_RULES, type DianRuleKind } from './table.js';

export interface DianRuleFinding {
  /** The rule code for this document's kind: `FAU04`, `CAU04`, `DSAU04`; `ZB01` for an unreadable XML text. */
  readonly rule: string;
  readonly kind: DianRuleKind;
  /** `error` for Rechazo (DIAN rejects), `warning` for Notificación (informative, never blocks). */
  readonly severity: 'error' | 'warning';
  /** The rule's Spanish text (DIAN's wording where known; see the rule table's `textSource`). */
  readonly message: string;
  /** The element the finding is about: `/Invoice/cac:InvoiceLine[2]/cbc:LineExtensionAmount` (1-based indices). */
  readonly path: string;
  /** Spanish detail with the values compared, when there are any. */
  readonly detail?: string;
}

export interface DianRuleOptions {
  /** The day of the check, `yyyy-MM-dd` in Bogotá. Date-window rules are silent when it is not a valid date. */
  readonly today: string;
}

/** Runs DIAN's business rules on a UBL document tree; every finding, in rule-table order. */
export function checkDianRules(root: UblNode, options: DianRuleOptions): DianRuleFinding[] {
  const kind = documentKind(root);
  const ctx = contextOf(root, kind, options.today);
  const findings: DianRuleFinding[] = [];
  for (const rule of DIAN_RULES) {
    const code = rule.codes[kind];
    if (code === undefined) continue;
    for (const hit of rule.check(ctx)) {
      findings.push({
        rule: code,
        kind: rule.kind,
        severity: rule.kind === 'Rechazo' ? 'error' : 'warning',
        message: rule.text,
        path: hit.path,
        ...(hit.detail === undefined ? {} : { detail: hit.detail }),
      });
    }
  }
  return findings;
}

/** Reads the XML text, then runs the rules; a text that cannot be read is one `ZB01` Rechazo finding. */
export function checkDianRulesXml(xml: string, options: DianRuleOptions): DianRuleFinding[] {
  const read = readUbl(xml);
  if (!read.ok) return [{ rule: 'ZB01', kind: 'Rechazo', severity: 'error', message: read.message, path: '/' }];
  return checkDianRules(read.root, options);
}

/** A finding in the form DIAN answers with: `Regla: FAU04, Rechazo: <text>`. */
export function formatDianFinding(f: DianRuleFinding): string {
  return formatDianRuleMessage({ rule: f.rule, kind: f.kind, text: f.message });
}

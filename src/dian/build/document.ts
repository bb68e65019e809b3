/**
 * The DIAN document entry of the SDK: a request body of a kind, validated as the service validates it
 * (`validateDianRequest`), built into UBL (`buildDianDocument`) and checked against DIAN's business rules
 * (`checkDianRules`, informative: the caller decides whether a Rechazo finding blocks). Bad input is a value
 * with the service's 422 body, never a throw.
 */
import type { Issue } from '../../shared/issues.js';
import { checkDianRules, type DianRuleFinding } from '../rules/check.js';
import type { DianKindId } from '../spec/kinds.js';
import type { DianRequestByKind } from '../spec/types.gen.js';
import type { UblNode } from '../ubl/tree.js';
import { toDianValidationBody, validateDianRequest, type DianValidationBody } from '../validate/request.js';
import { buildDianDocument } from './build.js';
import type { BuiltCodes } from './codes.js';
import type { DianContext } from './context.js';

export interface BuildDianXmlOptions {
  /** Today in Bogotá (`yyyy-MM-dd`), for the date rules; default: the document's issue date. */
  today?: string;
  /** Run DIAN's business rules on the built document (default true). */
  rules?: boolean;
}

export type BuildDianXmlResult =
  | {
      ok: true;
      /** The unsigned UBL document (its last `ext:ExtensionContent` is empty: the signature's place). */
      xml: string;
      root: UblNode;
      /** The document's code (CUFE, CUDE or CUDS) with its pre-image, the software security code and the QR URL. */
      codes: BuiltCodes;
      /** Validation warnings (obsolete fields, amounts rounded to 2 decimals…): they do not block. */
      warnings: Issue[];
      /** DIAN's business-rule findings on the built document: Rechazo (`error`) and Notificación (`warning`). */
      findings: DianRuleFinding[];
    }
  | {
      ok: false;
      /** Every problem: request validation errors (with the field path), or why the document could not be built. */
      issues: Issue[];
      /** The service's 422 body (`statusCode` 13). */
      body: DianValidationBody;
    };

/**
 * Validates and builds a DIAN document.
 *
 * @example
 * const r = buildDianXml('invoice', request, { company, software, resolution, environment: '2', now: () => new Date() });
 * if (r.ok) send(r.xml); else reply(422, r.body);
 */
export function buildDianXml<K extends DianKindId>(
  kind: K,
  request: DianRequestByKind[K] | unknown,
  context: DianContext,
  options: BuildDianXmlOptions = {},
): BuildDianXmlResult {
  const body = request as Record<string, unknown> | null;
  const number = body && typeof body === 'object' && (typeof body.number === 'number' || typeof body.number === 'string') ? String(body.number) : '';
  const validation = validateDianRequest(kind, request, { today: options.today });
  const errors = validation.issues.filter((i) => i.severity === 'error');
  if (errors.length > 0 || !validation.value) return { ok: false, issues: validation.issues, body: toDianValidationBody(number, validation.issues) };
  const built = buildDianDocument(kind, validation.value as unknown as Record<string, unknown>, context);
  if (!built.ok) return { ok: false, issues: built.issues, body: toDianValidationBody(number, built.issues) };
  const findings = options.rules === false ? [] : checkDianRules(built.root, { today: options.today ?? built.issueDate });
  return {
    ok: true,
    xml: built.xml,
    root: built.root,
    codes: built.codes,
    warnings: validation.issues.filter((i) => i.severity === 'warning'),
    findings,
  };
}

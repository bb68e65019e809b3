/**
 * DIAN's business rules as data (dian-protocol.md §11): one row per rule with its code per document kind, its
 * kind (Rechazo rejects the document, Notificación only informs), DIAN's wording where a public source quotes
 * it (else ours, marked), the protocol's confidence mark, the tolerance, and a check that reads the document
 * tree. Checks never throw: a value the rule needs that is absent or not a plain decimal makes the rule silent
 * (schema validation reports it).
 *
 * The annex v1.9 rule tables are not public (§11.3); the codes and conditions here are the ones public sources
 * name. Twin codes follow the protocol's pattern: stem `AU04` is `FAU04` (invoice), `CAU04` (credit note),
 * `DAU04` (debit note), `DSAU04` (support document).
 *
 * Pure: no I/O, no clock.
 */
import { add, cmp, mul, div, parseDec, sub, toText, type Dec } from '../../shared/money/decimal.js';
import { allSteps, atSteps, child, pathSteps, textAt, textAtSteps, type UblNode } from '../ubl/tree.js';
import { amountOf, bogotaDate, dayNumber, pathOf, sameRounded, type DianRuleContext, type DianRuleHit } from './context.js';
import { RULE_PREFIX, type DianDocumentKind } from './kind.js';

/** `Rechazo` rejects the document; `Notificación` is informative and never blocks it. */
export type DianRuleKind = 'Rechazo' | 'Notificación';

/** The protocol's confidence mark: V verified, C seen in code or official files, S secondary sources. */
export type DianRuleConfidence = 'V' | 'C' | 'S';

export interface DianRule {
  /** The rule's code on invoices (or its only code): `FAU04`. */
  readonly id: string;
  /** The code per document kind the rule applies to (`credit` → `CAU04`). */
  readonly codes: Readonly<Partial<Record<DianDocumentKind, string>>>;
  /** The document kinds the rule applies to (kind.ts maps them to roots and type codes). */
  readonly appliesTo: readonly DianDocumentKind[];
  /** The codes a public source names; the other codes in `codes` are derived from the stem. */
  readonly namedCodes: readonly string[];
  readonly kind: DianRuleKind;
  /** The Spanish text of the rule. */
  readonly text: string;
  /** `dian`: DIAN's wording as quoted by a public source; `ours`: our wording (the annex text is not public). */
  readonly textSource: 'dian' | 'ours';
  /** The condition checked, in English (for docs). */
  readonly condition: string;
  /** How amounts are compared. */
  readonly tolerance: string;
  readonly confidence: DianRuleConfidence;
  /** Where the protocol has the rule from. */
  readonly source: string;
  /** The places the document breaks the rule; empty when it passes or cannot be checked. */
  readonly check: (ctx: DianRuleContext) => DianRuleHit[];
}

const DOCUMENTS: readonly DianDocumentKind[] = ['invoice', 'credit', 'debit', 'support'];
const NUMBERED: readonly DianDocumentKind[] = ['invoice', 'support'];
const NOTES: readonly DianDocumentKind[] = ['credit', 'debit'];
const WITH_DIAN_EXTENSIONS: readonly DianDocumentKind[] = ['invoice', 'support', 'pos', 'credit', 'support-note', 'pos-credit', 'debit', 'event'];

/** The codes of a stem for the given kinds: `twins('AU04', ['invoice', 'support'])` → FAU04, DSAU04. */
function twins(stem: string, kinds: readonly DianDocumentKind[]): Partial<Record<DianDocumentKind, string>> {
  const codes: Partial<Record<DianDocumentKind, string>> = {};
  for (const k of kinds) {
    const prefix = RULE_PREFIX[k];
    if (prefix !== undefined) codes[k] = prefix + stem;
  }
  return codes;
}

const ROUNDED = 'equal after rounding both sides to whole units (XPath round(), as FAU04)';
const ROUNDED_OURS = `${ROUNDED}; the tolerance is ours, taken from FAU04`;

const show = (a: Dec): string => toText(a, 2, 8);

// The paths the checks read, split once (module level: no path is split, no closure made, per document).
const PRICE_AMOUNT = pathSteps('cac:Price/cbc:PriceAmount');
const TAX_SCHEME_ID = pathSteps('cac:TaxCategory/cac:TaxScheme/cbc:ID');
const HEADER_TAX_SCHEME_IDS = pathSteps('cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cac:TaxScheme/cbc:ID');
const PERCENT = pathSteps('cac:TaxCategory/cbc:Percent');
const DIAN_EXTENSIONS_IN_EXTENSION = pathSteps('ext:ExtensionContent/sts:DianExtensions');
const AUTHORIZED_INVOICES = pathSteps('sts:InvoiceControl/sts:AuthorizedInvoices');
const AUTHORIZED_PREFIX = pathSteps('sts:InvoiceControl/sts:AuthorizedInvoices/sts:Prefix');
const PERIOD_START = pathSteps('sts:InvoiceControl/sts:AuthorizationPeriod/cbc:StartDate');
const PERIOD_END = pathSteps('sts:InvoiceControl/sts:AuthorizationPeriod/cbc:EndDate');
const SIGNING_TIME = pathSteps(
  'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/ds:Signature/ds:Object/xades:QualifyingProperties/xades:SignedProperties/xades:SignedSignatureProperties/xades:SigningTime',
);
const ALL_DIAN_EXTENSIONS = pathSteps('ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions');
const ALL_SIGNATURES = pathSteps('ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/ds:Signature');
const DIGITS = /^\d+$/;
const TRAILING_DIGITS = /\d+$/;

/** `name[i]` with a 1-based index: the path step of the i-th (0-based) element of that name. */
const step = (name: string, i: number): string => `${name}[${i + 1}]`;

/** The sts:DianExtensions of the first UBLExtension holding one, or undefined. */
function dianExtensions(ctx: DianRuleContext): UblNode | undefined {
  const exts = child(ctx.root, 'ext:UBLExtensions');
  if (!exts) return undefined;
  for (const e of exts.children) {
    if (e.name !== 'ext:UBLExtension') continue;
    const node = atSteps(e, DIAN_EXTENSIONS_IN_EXTENSION);
    if (node) return node;
  }
  return undefined;
}

/** Sum of the lines' amounts in child `name`; null when a line lacks a numeric value there (or there are no lines). */
function sumLines(ctx: DianRuleContext, name: string): Dec | null {
  if (ctx.lines.length === 0) return null;
  let total = 0n;
  for (const line of ctx.lines) {
    const v = amountOf(child(line, name));
    if (v === null) return null;
    total += v;
  }
  return total as Dec;
}

function totalsRule(ctx: DianRuleContext, element: string, expected: Dec | null, what: string): DianRuleHit[] {
  const declared = amountOf(child(ctx.total, element));
  if (declared === null || expected === null || sameRounded(declared, expected)) return [];
  return [{ path: pathOf(ctx, ctx.totalName, element), detail: `${element} ${show(declared)}, ${what} ${show(expected)}` }];
}

/** FAU04: each line's taxable base is its largest TaxSubtotal/TaxableAmount; their sum against TaxExclusiveAmount. */
function checkTaxBases(ctx: DianRuleContext): DianRuleHit[] {
  let sum = 0n;
  for (const line of ctx.lines) {
    // A line taxed by IVA and ICUI/ADV/ICL on the same base counts that base once (DIAN's samples do):
    // the line's base is its largest TaxableAmount.
    let base: Dec | null = null;
    for (const tt of line.children) {
      if (tt.name !== 'cac:TaxTotal') continue;
      for (const st of tt.children) {
        if (st.name !== 'cac:TaxSubtotal') continue;
        const taxable = child(st, 'cbc:TaxableAmount');
        if (!taxable) continue; // per-unit taxes (IBUA, ICL, INPP, bags) have no base
        const v = amountOf(taxable);
        if (v === null) return [];
        if (base === null || cmp(v, base) > 0) base = v;
      }
    }
    if (base !== null) sum += base;
  }
  return totalsRule(ctx, 'cbc:TaxExclusiveAmount', sum as Dec, 'suma de las bases imponibles de las líneas');
}

/** The totals FAU14 adds to TaxInclusiveAmount, with their sign. */
const PAYABLE_TERMS: readonly (readonly [string, 1 | -1])[] = [
  ['cbc:AllowanceTotalAmount', -1],
  ['cbc:ChargeTotalAmount', 1],
  ['cbc:PrepaidAmount', -1],
  ['cbc:PayableRoundingAmount', 1],
];

/** FAU14: PayableAmount against TaxInclusiveAmount − allowances + charges − prepaid + rounding. */
function checkPayable(ctx: DianRuleContext): DianRuleHit[] {
  const total = ctx.total;
  const inclusive = amountOf(child(total, 'cbc:TaxInclusiveAmount'));
  if (inclusive === null) return [];
  let expected = inclusive;
  for (const [name, sign] of PAYABLE_TERMS) {
    const node = child(total, name);
    if (!node) continue;
    const v = amountOf(node);
    if (v === null) return [];
    expected = sign > 0 ? add(expected, v) : sub(expected, v);
  }
  return totalsRule(ctx, 'cbc:PayableAmount', expected, 'valor calculado');
}

/** FAV06: each line's LineExtensionAmount against price × quantity − line discounts + line charges. */
function checkLineAmounts(ctx: DianRuleContext): DianRuleHit[] {
  const hits: DianRuleHit[] = [];
  const lines = ctx.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const declared = amountOf(child(line, 'cbc:LineExtensionAmount'));
    const price = amountOf(atSteps(line, PRICE_AMOUNT));
    const qty = amountOf(child(line, ctx.quantityName));
    if (declared === null || price === null || qty === null) continue;
    // Price × quantity, as the protocol states it; not ÷ BaseQuantity: DIAN's samples repeat the invoiced
    // quantity in BaseQuantity (Transporte de Carga: 10 × 200000.00 = 2000000.00 with BaseQuantity 10).
    let expected = mul(price, qty);
    let readable = true;
    for (const ac of line.children) {
      if (ac.name !== 'cac:AllowanceCharge') continue;
      const v = amountOf(child(ac, 'cbc:Amount'));
      const ind = textAt(ac, 'cbc:ChargeIndicator');
      if (v === null || (ind !== 'true' && ind !== 'false')) readable = false;
      else expected = ind === 'true' ? add(expected, v) : sub(expected, v);
    }
    if (!readable || sameRounded(declared, expected)) continue;
    hits.push({
      path: pathOf(ctx, step(ctx.lineName, i), 'cbc:LineExtensionAmount'),
      detail: `LineExtensionAmount ${show(declared)}, valor calculado ${show(expected)}`,
    });
  }
  return hits;
}

/** FAQ07: a header discount larger than its base. */
function checkDiscountBase(ctx: DianRuleContext): DianRuleHit[] {
  const hits: DianRuleHit[] = [];
  let i = 0;
  for (const node of ctx.root.children) {
    if (node.name !== 'cac:AllowanceCharge') continue;
    const index = i++;
    if (textAt(node, 'cbc:ChargeIndicator') !== 'false') continue;
    const v = amountOf(child(node, 'cbc:Amount'));
    const base = amountOf(child(node, 'cbc:BaseAmount'));
    if (v === null || base === null || cmp(v, base) <= 0) continue;
    hits.push({ path: pathOf(ctx, step('cac:AllowanceCharge', index), 'cbc:Amount'), detail: `Amount ${show(v)}, BaseAmount ${show(base)}` });
  }
  return hits;
}

/** FAQ09: a header allowance or charge whose base exceeds TaxInclusiveAmount. */
function checkChargeBase(ctx: DianRuleContext): DianRuleHit[] {
  const total = amountOf(child(ctx.total, 'cbc:TaxInclusiveAmount'));
  if (total === null) return [];
  const hits: DianRuleHit[] = [];
  let i = 0;
  for (const node of ctx.root.children) {
    if (node.name !== 'cac:AllowanceCharge') continue;
    const index = i++;
    const base = amountOf(child(node, 'cbc:BaseAmount'));
    if (base === null || cmp(base, total) <= 0) continue;
    hits.push({
      path: pathOf(ctx, step('cac:AllowanceCharge', index), 'cbc:BaseAmount'),
      detail: `BaseAmount ${show(base)}, TaxInclusiveAmount ${show(total)}`,
    });
  }
  return hits;
}

/** FAS01b: a tax scheme used in a line with no header TaxTotal of that scheme. */
function checkHeaderTaxes(ctx: DianRuleContext): DianRuleHit[] {
  const header = new Set<string | undefined>();
  for (const n of allSteps(ctx.root, HEADER_TAX_SCHEME_IDS)) header.add(n.text?.trim());
  let reported: Set<string> | undefined;
  const hits: DianRuleHit[] = [];
  const lines = ctx.lines;
  for (let l = 0; l < lines.length; l++) {
    let t = 0;
    for (const tt of lines[l]!.children) {
      if (tt.name !== 'cac:TaxTotal') continue;
      const ti = t++;
      let s = 0;
      for (const st of tt.children) {
        if (st.name !== 'cac:TaxSubtotal') continue;
        const si = s++;
        const scheme = textAtSteps(st, TAX_SCHEME_ID);
        if (scheme === undefined || scheme === '' || header.has(scheme) || reported?.has(scheme)) continue;
        (reported ??= new Set()).add(scheme);
        hits.push({
          path: pathOf(ctx, step(ctx.lineName, l), step('cac:TaxTotal', ti), step('cac:TaxSubtotal', si), 'cac:TaxCategory/cac:TaxScheme/cbc:ID'),
          detail: `tributo ${scheme} sin TaxTotal de cabecera`,
        });
      }
    }
  }
  return hits;
}

/** True when `declared` equals one of `expected` after rounding. */
function matchesOne(declared: Dec, expected: readonly Dec[]): boolean {
  for (const e of expected) if (sameRounded(declared, e)) return true;
  return false;
}

/** FAX07: each line TaxSubtotal's TaxAmount against base × percent, or per-unit amount × measure or quantity. */
function checkLineTaxes(ctx: DianRuleContext): DianRuleHit[] {
  const hits: DianRuleHit[] = [];
  const lines = ctx.lines;
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!;
    let t = 0;
    for (const tt of line.children) {
      if (tt.name !== 'cac:TaxTotal') continue;
      const ti = t++;
      let s = 0;
      for (const st of tt.children) {
        if (st.name !== 'cac:TaxSubtotal') continue;
        const si = s++;
        const declared = amountOf(child(st, 'cbc:TaxAmount'));
        if (declared === null) continue;
        const expected: Dec[] = [];
        const perNode = child(st, 'cbc:PerUnitAmount');
        if (perNode) {
          const per = amountOf(perNode);
          if (per === null) continue;
          const measure = amountOf(child(st, 'cbc:BaseUnitMeasure'));
          const scheme = textAtSteps(st, TAX_SCHEME_ID) ?? '';
          if (measure !== null) expected.push(PER_HUNDRED_SCHEMES.has(scheme) ? div(mul(per, measure), HUNDRED) : mul(per, measure));
          const qty = amountOf(child(line, ctx.quantityName));
          if (qty !== null) expected.push(mul(per, qty));
        } else {
          const base = amountOf(child(st, 'cbc:TaxableAmount'));
          const percent = amountOf(atSteps(st, PERCENT));
          if (base === null || percent === null) continue;
          expected.push(div(mul(base, percent), HUNDRED));
        }
        if (expected.length === 0 || matchesOne(declared, expected)) continue;
        hits.push({
          path: pathOf(ctx, step(ctx.lineName, l), step('cac:TaxTotal', ti), step('cac:TaxSubtotal', si), 'cbc:TaxAmount'),
          detail: `TaxAmount ${show(declared)}, valor calculado ${expected.map(show).join(' o ')}`,
        });
      }
    }
  }
  return hits;
}

/** IBUA (scheme 34) is given per 100 ml: PerUnitAmount × BaseUnitMeasure ÷ 100 (protocol §12, table 13.2.2). */
const PER_HUNDRED_SCHEMES = new Set(['34']);
const HUNDRED = parseDec('100') as Dec;

export const DIAN_RULES: readonly DianRule[] = Object.freeze(
  (
    [
      {
        id: 'FAU02',
        codes: twins('AU02', DOCUMENTS),
        appliesTo: DOCUMENTS,
        namedCodes: ['FAU02'],
        kind: 'Rechazo',
        text: 'El valor bruto antes de tributos (LineExtensionAmount) es distinto de la suma de los valores de todas las líneas de detalle',
        textSource: 'ours',
        condition: 'LegalMonetaryTotal/LineExtensionAmount = sum of the lines’ LineExtensionAmount',
        tolerance: ROUNDED_OURS,
        confidence: 'S',
        source: 'dian-protocol.md §11.2 ("FAU02: LineExtensionAmount total")',
        check: (ctx) => totalsRule(ctx, 'cbc:LineExtensionAmount', sumLines(ctx, 'cbc:LineExtensionAmount'), 'suma de las líneas'),
      },
      {
        id: 'FAU04',
        codes: twins('AU04', DOCUMENTS),
        appliesTo: DOCUMENTS,
        namedCodes: ['FAU04', 'DSAU04'],
        kind: 'Rechazo',
        text: 'Base Imponible es distinto a la suma de los valores de las bases imponibles de todas líneas de detalle',
        textSource: 'dian',
        condition:
          "LegalMonetaryTotal/TaxExclusiveAmount = sum over lines of each line's taxable base, the largest TaxTotal/TaxSubtotal/TaxableAmount of the line (a base taxed by several taxes counts once; lines without a TaxableAmount are left out). Our reading of DIAN's samples (ICUI, licores ICL, impuestos saludables): the protocol's [S] wording \"sum of the bases of all lines\" would count a base twice and reject DIAN's own samples",
        tolerance: ROUNDED,
        confidence: 'S',
        source: 'dian-protocol.md §11.1 (vixark/SimpleOps#4; gosocket help for DSAU04); the once-per-line base is read from the toolbox samples',
        check: checkTaxBases,
      },
      {
        id: 'FAU14',
        codes: twins('AU14', DOCUMENTS),
        appliesTo: DOCUMENTS,
        namedCodes: ['FAU14', 'CAU14'],
        kind: 'Rechazo',
        text: 'El valor a pagar es distinto del valor bruto más tributos, menos el total de descuentos, más el total de cargos, menos el total de anticipos (más el redondeo)',
        textSource: 'ours',
        condition:
          'PayableAmount = TaxInclusiveAmount − AllowanceTotalAmount + ChargeTotalAmount − PrepaidAmount + PayableRoundingAmount (absent optional amounts count 0)',
        tolerance: ROUNDED_OURS,
        confidence: 'C',
        source: 'dian-protocol.md §11.1 (facho, a PHP error classifier); dian-service.md "422 from the tax authority"',
        check: checkPayable,
      },
      {
        id: 'FAV06',
        codes: twins('AV06', DOCUMENTS),
        appliesTo: DOCUMENTS,
        namedCodes: ['FAV06'],
        kind: 'Rechazo',
        text: 'El valor total de la línea es distinto del precio por la cantidad, menos los descuentos y más los cargos de la línea',
        textSource: 'ours',
        condition:
          'line LineExtensionAmount = PriceAmount × quantity − line discounts + line charges (line AllowanceCharge/Amount by ChargeIndicator); BaseQuantity is not a divisor (DIAN’s samples repeat the quantity in it)',
        tolerance: ROUNDED_OURS,
        confidence: 'S',
        source: 'dian-protocol.md §11.2 ("FAV06: line extension = price × quantity − discounts")',
        check: checkLineAmounts,
      },
      {
        id: 'FAQ07',
        codes: twins('AQ07', DOCUMENTS),
        appliesTo: DOCUMENTS,
        namedCodes: ['FAQ07'],
        kind: 'Notificación',
        text: 'El valor del descuento es mayor que su valor base',
        textSource: 'ours',
        condition: 'a header AllowanceCharge with ChargeIndicator false has Amount > BaseAmount',
        tolerance: 'exact (a strict comparison; no rounding)',
        confidence: 'S',
        source: 'dian-service.md "422 from the tax authority"; dian-protocol.md §11.1 (v1.9 text NOT FOUND)',
        check: checkDiscountBase,
      },
      {
        id: 'FAQ09',
        codes: twins('AQ09', DOCUMENTS),
        appliesTo: DOCUMENTS,
        namedCodes: ['FAQ09', 'CAQ09', 'DAQ09'],
        kind: 'Notificación',
        text: 'La base del descuento o del cargo es mayor que el valor total del documento',
        textSource: 'ours',
        condition: 'a header AllowanceCharge has BaseAmount > TaxInclusiveAmount (our reading of "total invoice value")',
        tolerance: 'exact (a strict comparison; no rounding)',
        confidence: 'S',
        source: 'dian-service.md "422 from the tax authority"; the code exists in the 2019 schematron (dian-protocol.md §11.1)',
        check: checkChargeBase,
      },
      {
        id: 'FAS01b',
        codes: twins('AS01b', DOCUMENTS),
        appliesTo: DOCUMENTS,
        namedCodes: ['FAS01b'],
        kind: 'Rechazo',
        text: 'Falta el grupo de tributos de cabecera (TaxTotal) para un tributo informado en las líneas',
        textSource: 'ours',
        condition: 'every TaxScheme/ID used in a line TaxTotal has a header TaxTotal with a TaxSubtotal of that scheme',
        tolerance: '—',
        confidence: 'S',
        source: 'dian-protocol.md §11.2 (vixark/SimpleOps#4)',
        check: checkHeaderTaxes,
      },
      {
        id: 'FAX07',
        codes: twins('AX07', DOCUMENTS),
        appliesTo: DOCUMENTS,
        namedCodes: ['FAX07'],
        kind: 'Rechazo',
        text: 'El valor del tributo de la línea es distinto de la base imponible por la tarifa, o del valor por unidad por la cantidad',
        textSource: 'ours',
        condition:
          'in each line TaxSubtotal: TaxAmount = TaxableAmount × Percent ÷ 100; or, for a per-unit tax, TaxAmount = PerUnitAmount × BaseUnitMeasure (÷ 100 for IBUA, scheme 34) or PerUnitAmount × the line quantity',
        tolerance: ROUNDED_OURS,
        confidence: 'S',
        source: 'dian-protocol.md §11.2 (megapractical KB) and §12 (IBUA per 100 ml)',
        check: checkLineTaxes,
      },
      {
        id: 'FAD05b',
        codes: twins('AD05b', NUMBERED),
        appliesTo: NUMBERED,
        namedCodes: ['FAD05b'],
        kind: 'Rechazo',
        text: 'El número del documento es menor que el inicio del rango de numeración autorizado',
        textSource: 'ours',
        condition: 'the number in ID (after the authorised Prefix) < sts:AuthorizedInvoices/sts:From',
        tolerance: '—',
        confidence: 'S',
        source: 'dian-protocol.md §11.2',
        check: (ctx) => rangeCheck(ctx, 'below'),
      },
      {
        id: 'FAD05c',
        codes: twins('AD05c', NUMBERED),
        appliesTo: NUMBERED,
        namedCodes: ['FAD05c'],
        kind: 'Rechazo',
        text: 'El número del documento es mayor que el final del rango de numeración autorizado',
        textSource: 'ours',
        condition: 'the number in ID (after the authorised Prefix) > sts:AuthorizedInvoices/sts:To',
        tolerance: '—',
        confidence: 'S',
        source: 'dian-protocol.md §11.2',
        check: (ctx) => rangeCheck(ctx, 'above'),
      },
      {
        id: 'FAB07b',
        codes: twins('AB07b', NUMBERED),
        appliesTo: NUMBERED,
        namedCodes: ['FAB07b'],
        kind: 'Rechazo',
        text: 'La fecha de emisión es anterior a la fecha de inicio de la autorización de numeración',
        textSource: 'ours',
        condition: 'IssueDate < sts:AuthorizationPeriod/cbc:StartDate (which letter DIAN gives this case is our reading)',
        tolerance: '—',
        confidence: 'S',
        source: 'dian-protocol.md §11.2 ("FAB07a/b, FAB08b: resolution dates vs IssueDate")',
        check: (ctx) => periodCheck(ctx, 'cbc:StartDate'),
      },
      {
        id: 'FAB08b',
        codes: twins('AB08b', NUMBERED),
        appliesTo: NUMBERED,
        namedCodes: ['FAB08b'],
        kind: 'Rechazo',
        text: 'La fecha de emisión es posterior a la fecha final de la autorización de numeración',
        textSource: 'ours',
        condition: 'IssueDate > sts:AuthorizationPeriod/cbc:EndDate',
        tolerance: '—',
        confidence: 'S',
        source: 'dian-protocol.md §11.2 ("FAB07a/b, FAB08b: resolution dates vs IssueDate")',
        check: (ctx) => periodCheck(ctx, 'cbc:EndDate'),
      },
      {
        id: 'FAB10a',
        codes: twins('AB10a', NUMBERED),
        appliesTo: NUMBERED,
        namedCodes: ['FAB10a'],
        kind: 'Rechazo',
        text: 'El número del documento no comienza con el prefijo autorizado',
        textSource: 'ours',
        condition: 'ID does not start with sts:AuthorizedInvoices/sts:Prefix',
        tolerance: '—',
        confidence: 'S',
        source: 'dian-protocol.md §11.2 ("FAB10a: prefix")',
        check: checkPrefix,
      },
      {
        id: 'FAD09c',
        codes: twins('AD09c', DOCUMENTS),
        appliesTo: DOCUMENTS,
        namedCodes: ['FAD09c', 'CAD09c', 'DAD09c'],
        kind: 'Notificación',
        text: 'La fecha de emisión es anterior en más de 5 días a la fecha actual',
        textSource: 'ours',
        condition: 'IssueDate is more than 5 days before today (legacy: annex 1.9 replaced the window by FAD09e)',
        tolerance: 'calendar days, Bogotá',
        confidence: 'S',
        source: 'dian-service.md "422 from the tax authority" and Limits; dian-protocol.md §11.1 (legacy)',
        check: checkIssueWindow,
      },
      {
        id: 'FAD09e',
        codes: { ...twins('AD09e', DOCUMENTS), event: 'AAD09e' },
        appliesTo: [...DOCUMENTS, 'event'],
        namedCodes: ['FAD09e', 'AAD09e'],
        kind: 'Rechazo',
        text: 'La fecha de emisión es distinta de la fecha de la firma',
        textSource: 'ours',
        condition: 'IssueDate = the Bogotá date of xades:SigningTime (skipped when the document carries no signature with a SigningTime)',
        tolerance: 'calendar day, Bogotá (UTC−05:00)',
        confidence: 'S',
        source: 'dian-protocol.md §10 and §11.1 (felcowiki, co-anchors)',
        check: checkSigningDate,
      },
      {
        id: 'CAE02',
        codes: twins('AE02', NOTES),
        appliesTo: NOTES,
        namedCodes: ['CAE02'],
        kind: 'Rechazo',
        text: 'Una nota sin referencia a una factura debe informar el periodo (InvoicePeriod)',
        textSource: 'ours',
        condition: 'a note without cac:BillingReference has no cac:InvoicePeriod',
        tolerance: '—',
        confidence: 'S',
        source: 'dian-protocol.md §11.2 ("CAE02/CAE04: a note without a reference needs InvoicePeriod")',
        check: (ctx) => {
          if (child(ctx.root, 'cac:BillingReference') || child(ctx.root, 'cac:InvoicePeriod')) return [];
          return [{ path: pathOf(ctx, 'cac:InvoicePeriod') }];
        },
      },
      {
        id: 'AA03',
        codes: Object.fromEntries(WITH_DIAN_EXTENSIONS.map((k) => [k, 'AA03'])),
        appliesTo: WITH_DIAN_EXTENSIONS,
        namedCodes: ['AA03'],
        kind: 'Rechazo',
        text: 'El documento debe contener exactamente un grupo sts:DianExtensions',
        textSource: 'ours',
        condition: 'exactly one ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions',
        tolerance: '—',
        confidence: 'V',
        source: 'dian-protocol.md §1.3 (2019 schematron [AA03]; which of AA03/AA04 is which is our reading)',
        check: checkOneDianExtensions,
      },
      {
        id: 'AA04',
        codes: Object.fromEntries(WITH_DIAN_EXTENSIONS.map((k) => [k, 'AA04'])),
        appliesTo: WITH_DIAN_EXTENSIONS,
        namedCodes: ['AA04'],
        kind: 'Rechazo',
        text: 'El documento no puede contener más de una firma ds:Signature',
        textSource: 'ours',
        condition: 'at most one ext:UBLExtension/ext:ExtensionContent/ds:Signature',
        tolerance: '—',
        confidence: 'V',
        source: 'dian-protocol.md §1.3 (2019 schematron [AA04]; which of AA03/AA04 is which is our reading)',
        check: checkOneSignature,
      },
    ] satisfies DianRule[]
  ).map((r) =>
    Object.freeze({ ...r, codes: Object.freeze(r.codes), appliesTo: Object.freeze([...r.appliesTo]), namedCodes: Object.freeze([...r.namedCodes]) }),
  ),
);

function rangeCheck(ctx: DianRuleContext, side: 'below' | 'above'): DianRuleHit[] {
  const id = textAt(ctx.root, 'cbc:ID');
  const range = atSteps(dianExtensions(ctx), AUTHORIZED_INVOICES);
  const prefix = textAt(range, 'sts:Prefix') ?? '';
  const bound = textAt(range, side === 'below' ? 'sts:From' : 'sts:To');
  if (id === undefined || bound === undefined || !DIGITS.test(bound)) return [];
  const digits = id.startsWith(prefix) ? id.slice(prefix.length) : (TRAILING_DIGITS.exec(id)?.[0] ?? '');
  if (!DIGITS.test(digits)) return [];
  const n = BigInt(digits);
  const b = BigInt(bound);
  if (side === 'below' ? n >= b : n <= b) return [];
  return [{ path: pathOf(ctx, 'cbc:ID'), detail: `número ${digits}, ${side === 'below' ? 'desde' : 'hasta'} ${bound}` }];
}

function periodCheck(ctx: DianRuleContext, end: 'cbc:StartDate' | 'cbc:EndDate'): DianRuleHit[] {
  const issueText = textAt(ctx.root, 'cbc:IssueDate');
  const boundText = textAtSteps(dianExtensions(ctx), end === 'cbc:StartDate' ? PERIOD_START : PERIOD_END);
  const issue = dayNumber(issueText);
  const bound = dayNumber(boundText);
  if (issue === null || bound === null) return [];
  if (end === 'cbc:StartDate' ? issue >= bound : issue <= bound) return [];
  return [{ path: pathOf(ctx, 'cbc:IssueDate'), detail: `IssueDate ${issueText}, ${end === 'cbc:StartDate' ? 'inicio' : 'fin'} ${boundText}` }];
}

/** FAB10a: ID starts with the authorised prefix. */
function checkPrefix(ctx: DianRuleContext): DianRuleHit[] {
  const id = textAt(ctx.root, 'cbc:ID');
  const prefix = textAtSteps(dianExtensions(ctx), AUTHORIZED_PREFIX);
  if (id === undefined || prefix === undefined || id.startsWith(prefix)) return [];
  return [{ path: pathOf(ctx, 'cbc:ID'), detail: `ID ${id}, prefijo ${prefix}` }];
}

/** FAD09c: IssueDate at most 5 days before today. */
function checkIssueWindow(ctx: DianRuleContext): DianRuleHit[] {
  const issue = dayNumber(textAt(ctx.root, 'cbc:IssueDate'));
  const today = ctx.todayDay;
  if (issue === null || today === null || today - issue <= 5) return [];
  return [{ path: pathOf(ctx, 'cbc:IssueDate'), detail: `IssueDate ${textAt(ctx.root, 'cbc:IssueDate')}, hoy ${ctx.today}` }];
}

/** FAD09e: IssueDate is the Bogotá date of the signature's SigningTime. */
function checkSigningDate(ctx: DianRuleContext): DianRuleHit[] {
  const issue = textAt(ctx.root, 'cbc:IssueDate');
  const signing = allSteps(ctx.root, SIGNING_TIME)[0]?.text?.trim();
  if (issue === undefined || signing === undefined || dayNumber(issue) === null) return [];
  const date = bogotaDate(signing);
  if (date === null || date === issue) return [];
  return [{ path: pathOf(ctx, 'cbc:IssueDate'), detail: `IssueDate ${issue}, fecha de firma ${date}` }];
}

/** AA03: exactly one sts:DianExtensions. */
function checkOneDianExtensions(ctx: DianRuleContext): DianRuleHit[] {
  const n = allSteps(ctx.root, ALL_DIAN_EXTENSIONS).length;
  return n === 1 ? [] : [{ path: pathOf(ctx, 'ext:UBLExtensions'), detail: `${n} grupos sts:DianExtensions` }];
}

/** AA04: at most one ds:Signature. */
function checkOneSignature(ctx: DianRuleContext): DianRuleHit[] {
  const n = allSteps(ctx.root, ALL_SIGNATURES).length;
  return n <= 1 ? [] : [{ path: pathOf(ctx, 'ext:UBLExtensions'), detail: `${n} firmas ds:Signature` }];
}

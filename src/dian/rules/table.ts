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
import { add, cmp, mul, div, parseDec, sub, sum, toText, type Dec } from '../../shared/money/decimal.js';
import { all, at, child, childrenNamed, textAt, type UblNode } from '../ubl/tree.js';
import { amount, bogotaDate, dayNumber, indexed, pathOf, sameRounded, type DianRuleContext, type DianRuleHit } from './context.js';
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

/** The UBLExtension holding sts:DianExtensions, with its 1-based path, or undefined. */
function dianExtensions(ctx: DianRuleContext): { node: UblNode; path: string } | undefined {
  const exts = indexed(child(ctx.root, 'ext:UBLExtensions'), 'ext:UBLExtension');
  for (const e of exts) {
    const node = at(e.node, 'ext:ExtensionContent/sts:DianExtensions');
    if (node) return { node, path: pathOf(ctx, 'ext:UBLExtensions', e.step, 'ext:ExtensionContent', 'sts:DianExtensions') };
  }
  return undefined;
}

function lineQuantity(ctx: DianRuleContext, line: UblNode): Dec | null {
  return amount(line, ctx.quantityName);
}

/** Sum of line amounts at `path` below each line; null when a line lacks a numeric value there. */
function sumLines(ctx: DianRuleContext, path: string): Dec | null {
  const values: Dec[] = [];
  for (const line of childrenNamed(ctx.root, ctx.lineName)) {
    const v = amount(line, path);
    if (v === null) return null;
    values.push(v);
  }
  return values.length === 0 ? null : sum(values);
}

function totalsRule(ctx: DianRuleContext, element: string, expected: Dec | null, what: string): DianRuleHit[] {
  const declared = amount(child(ctx.root, ctx.totalName), element);
  if (declared === null || expected === null || sameRounded(declared, expected)) return [];
  return [{ path: pathOf(ctx, ctx.totalName, element), detail: `${element} ${show(declared)}, ${what} ${show(expected)}` }];
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
        check: (ctx) => {
          const bases: Dec[] = [];
          for (const line of childrenNamed(ctx.root, ctx.lineName)) {
            // A line taxed by IVA and ICUI/ADV/ICL on the same base counts that base once (DIAN's samples do):
            // the line's base is its largest TaxableAmount.
            let base: Dec | null = null;
            for (const st of all(line, 'cac:TaxTotal/cac:TaxSubtotal')) {
              if (!child(st, 'cbc:TaxableAmount')) continue; // per-unit taxes (IBUA, ICL, INPP, bags) have no base
              const v = amount(st, 'cbc:TaxableAmount');
              if (v === null) return [];
              if (base === null || cmp(v, base) > 0) base = v;
            }
            if (base !== null) bases.push(base);
          }
          return totalsRule(ctx, 'cbc:TaxExclusiveAmount', sum(bases), 'suma de las bases imponibles de las líneas');
        },
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
        check: (ctx) => {
          const total = child(ctx.root, ctx.totalName);
          const inclusive = amount(total, 'cbc:TaxInclusiveAmount');
          if (inclusive === null) return [];
          let expected = inclusive;
          for (const [name, sign] of [
            ['cbc:AllowanceTotalAmount', -1],
            ['cbc:ChargeTotalAmount', 1],
            ['cbc:PrepaidAmount', -1],
            ['cbc:PayableRoundingAmount', 1],
          ] as const) {
            if (!child(total, name)) continue;
            const v = amount(total, name);
            if (v === null) return [];
            expected = sign > 0 ? add(expected, v) : sub(expected, v);
          }
          return totalsRule(ctx, 'cbc:PayableAmount', expected, 'valor calculado');
        },
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
        check: (ctx) => {
          const hits: DianRuleHit[] = [];
          for (const { node: line, step } of indexed(ctx.root, ctx.lineName)) {
            const declared = amount(line, 'cbc:LineExtensionAmount');
            const price = amount(line, 'cac:Price/cbc:PriceAmount');
            const qty = lineQuantity(ctx, line);
            if (declared === null || price === null || qty === null) continue;
            // Price × quantity, as the protocol states it; not ÷ BaseQuantity: DIAN's samples repeat the invoiced
            // quantity in BaseQuantity (Transporte de Carga: 10 × 200000.00 = 2000000.00 with BaseQuantity 10).
            let expected = mul(price, qty);
            let readable = true;
            for (const ac of childrenNamed(line, 'cac:AllowanceCharge')) {
              const v = amount(ac, 'cbc:Amount');
              const ind = textAt(ac, 'cbc:ChargeIndicator');
              if (v === null || (ind !== 'true' && ind !== 'false')) readable = false;
              else expected = ind === 'true' ? add(expected, v) : sub(expected, v);
            }
            if (!readable || sameRounded(declared, expected)) continue;
            hits.push({
              path: pathOf(ctx, step, 'cbc:LineExtensionAmount'),
              detail: `LineExtensionAmount ${show(declared)}, valor calculado ${show(expected)}`,
            });
          }
          return hits;
        },
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
        check: (ctx) => {
          const hits: DianRuleHit[] = [];
          for (const { node, step } of indexed(ctx.root, 'cac:AllowanceCharge')) {
            if (textAt(node, 'cbc:ChargeIndicator') !== 'false') continue;
            const v = amount(node, 'cbc:Amount');
            const base = amount(node, 'cbc:BaseAmount');
            if (v === null || base === null || cmp(v, base) <= 0) continue;
            hits.push({ path: pathOf(ctx, step, 'cbc:Amount'), detail: `Amount ${show(v)}, BaseAmount ${show(base)}` });
          }
          return hits;
        },
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
        check: (ctx) => {
          const total = amount(child(ctx.root, ctx.totalName), 'cbc:TaxInclusiveAmount');
          if (total === null) return [];
          const hits: DianRuleHit[] = [];
          for (const { node, step } of indexed(ctx.root, 'cac:AllowanceCharge')) {
            const base = amount(node, 'cbc:BaseAmount');
            if (base === null || cmp(base, total) <= 0) continue;
            hits.push({ path: pathOf(ctx, step, 'cbc:BaseAmount'), detail: `BaseAmount ${show(base)}, TaxInclusiveAmount ${show(total)}` });
          }
          return hits;
        },
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
        check: (ctx) => {
          const header = new Set(all(ctx.root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cac:TaxScheme/cbc:ID').map((n) => n.text?.trim()));
          const reported = new Set<string>();
          const hits: DianRuleHit[] = [];
          for (const { node: line, step } of indexed(ctx.root, ctx.lineName))
            for (const tt of indexed(line, 'cac:TaxTotal'))
              for (const st of indexed(tt.node, 'cac:TaxSubtotal')) {
                const scheme = textAt(st.node, 'cac:TaxCategory/cac:TaxScheme/cbc:ID');
                if (scheme === undefined || scheme === '' || header.has(scheme) || reported.has(scheme)) continue;
                reported.add(scheme);
                hits.push({
                  path: pathOf(ctx, step, tt.step, st.step, 'cac:TaxCategory/cac:TaxScheme/cbc:ID'),
                  detail: `tributo ${scheme} sin TaxTotal de cabecera`,
                });
              }
          return hits;
        },
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
        check: (ctx) => {
          const hits: DianRuleHit[] = [];
          for (const { node: line, step } of indexed(ctx.root, ctx.lineName))
            for (const tt of indexed(line, 'cac:TaxTotal'))
              for (const st of indexed(tt.node, 'cac:TaxSubtotal')) {
                const declared = amount(st.node, 'cbc:TaxAmount');
                if (declared === null) continue;
                const expected: Dec[] = [];
                if (child(st.node, 'cbc:PerUnitAmount')) {
                  const per = amount(st.node, 'cbc:PerUnitAmount');
                  if (per === null) continue;
                  const measure = amount(st.node, 'cbc:BaseUnitMeasure');
                  const scheme = textAt(st.node, 'cac:TaxCategory/cac:TaxScheme/cbc:ID') ?? '';
                  if (measure !== null) expected.push(PER_HUNDRED_SCHEMES.has(scheme) ? div(mul(per, measure), HUNDRED) : mul(per, measure));
                  const qty = lineQuantity(ctx, line);
                  if (qty !== null) expected.push(mul(per, qty));
                } else {
                  const base = amount(st.node, 'cbc:TaxableAmount');
                  const percent = amount(st.node, 'cac:TaxCategory/cbc:Percent');
                  if (base === null || percent === null) continue;
                  expected.push(div(mul(base, percent), HUNDRED));
                }
                if (expected.length === 0 || expected.some((e) => sameRounded(declared, e))) continue;
                hits.push({
                  path: pathOf(ctx, step, tt.step, st.step, 'cbc:TaxAmount'),
                  detail: `TaxAmount ${show(declared)}, valor calculado ${expected.map(show).join(' o ')}`,
                });
              }
          return hits;
        },
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
        check: (ctx) => {
          const id = textAt(ctx.root, 'cbc:ID');
          const prefix = textAt(dianExtensions(ctx)?.node, 'sts:InvoiceControl/sts:AuthorizedInvoices/sts:Prefix');
          if (id === undefined || prefix === undefined || id.startsWith(prefix)) return [];
          return [{ path: pathOf(ctx, 'cbc:ID'), detail: `ID ${id}, prefijo ${prefix}` }];
        },
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
        check: (ctx) => {
          const issue = dayNumber(textAt(ctx.root, 'cbc:IssueDate'));
          const today = dayNumber(ctx.today);
          if (issue === null || today === null || today - issue <= 5) return [];
          return [{ path: pathOf(ctx, 'cbc:IssueDate'), detail: `IssueDate ${textAt(ctx.root, 'cbc:IssueDate')}, hoy ${ctx.today}` }];
        },
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
        check: (ctx) => {
          const issue = textAt(ctx.root, 'cbc:IssueDate');
          const signing = all(
            ctx.root,
            'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/ds:Signature/ds:Object/xades:QualifyingProperties/xades:SignedProperties/xades:SignedSignatureProperties/xades:SigningTime',
          )[0]?.text?.trim();
          if (issue === undefined || signing === undefined || dayNumber(issue) === null) return [];
          const date = bogotaDate(signing);
          if (date === null || date === issue) return [];
          return [{ path: pathOf(ctx, 'cbc:IssueDate'), detail: `IssueDate ${issue}, fecha de firma ${date}` }];
        },
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
        check: (ctx) => {
          const n = all(ctx.root, 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/sts:DianExtensions').length;
          return n === 1 ? [] : [{ path: pathOf(ctx, 'ext:UBLExtensions'), detail: `${n} grupos sts:DianExtensions` }];
        },
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
        check: (ctx) => {
          const n = all(ctx.root, 'ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent/ds:Signature').length;
          return n <= 1 ? [] : [{ path: pathOf(ctx, 'ext:UBLExtensions'), detail: `${n} firmas ds:Signature` }];
        },
      },
    ] satisfies DianRule[]
  ).map((r) =>
    Object.freeze({ ...r, codes: Object.freeze(r.codes), appliesTo: Object.freeze([...r.appliesTo]), namedCodes: Object.freeze([...r.namedCodes]) }),
  ),
);

function rangeCheck(ctx: DianRuleContext, side: 'below' | 'above'): DianRuleHit[] {
  const id = textAt(ctx.root, 'cbc:ID');
  const range = at(dianExtensions(ctx)?.node, 'sts:InvoiceControl/sts:AuthorizedInvoices');
  const prefix = textAt(range, 'sts:Prefix') ?? '';
  const bound = textAt(range, side === 'below' ? 'sts:From' : 'sts:To');
  if (id === undefined || bound === undefined || !/^\d+$/.test(bound)) return [];
  const digits = id.startsWith(prefix) ? id.slice(prefix.length) : (/\d+$/.exec(id)?.[0] ?? '');
  if (!/^\d+$/.test(digits)) return [];
  const n = BigInt(digits);
  const b = BigInt(bound);
  if (side === 'below' ? n >= b : n <= b) return [];
  return [{ path: pathOf(ctx, 'cbc:ID'), detail: `número ${digits}, ${side === 'below' ? 'desde' : 'hasta'} ${bound}` }];
}

function periodCheck(ctx: DianRuleContext, end: 'cbc:StartDate' | 'cbc:EndDate'): DianRuleHit[] {
  const issueText = textAt(ctx.root, 'cbc:IssueDate');
  const boundText = textAt(dianExtensions(ctx)?.node, `sts:InvoiceControl/sts:AuthorizationPeriod/${end}`);
  const issue = dayNumber(issueText);
  const bound = dayNumber(boundText);
  if (issue === null || bound === null) return [];
  if (end === 'cbc:StartDate' ? issue >= bound : issue <= bound) return [];
  return [{ path: pathOf(ctx, 'cbc:IssueDate'), detail: `IssueDate ${issueText}, ${end === 'cbc:StartDate' ? 'inicio' : 'fin'} ${boundText}` }];
}

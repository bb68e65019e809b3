/**
 * Additional taxes (ISC and others), DGII Formato e-CF Tabla I: codes 001–005 are percentages of the line amount
 * (amount in `otros_impuestos_adicionales`), 006–022 specific ISC (`monto_impuesto_selectivo_consumo_especifico`),
 * 023–039 ad-valorem ISC (`monto_impuesto_selectivo_consumo_advalorem`). Items carry only the codes; `totales` carries
 * one entry per code with its rate and amount. 41, 43, 46 and 47 have no additional taxes at all (XSD; shape layer).
 */
import { fromInt } from '../../../shared/money/decimal.js';
import { ADDITIONAL_TAX_FIELD, additionalTaxKind, OTHER_TAX_RATES, type AdditionalTaxKind } from '../../calc/totals.js';
import type { Issue } from '../../../shared/issues.js';
import type { EcfType } from '../../spec/model.js';
import { ruleIssue, ruleWarning, type Rule } from '../rule.js';
import { allows, compareAmounts, d, entries, itemsOf, occursMin, totalsOf, typesWhere, type Json } from './shared.js';

const KIND_NAME: Readonly<Record<AdditionalTaxKind, string>> = {
  otros: 'otro impuesto adicional (001–005)',
  especifico: 'ISC específico (006–022)',
  advalorem: 'ISC ad valorem (023–039)',
};

/** Kinds whose amount field the type's XSD has (44: only `otros`). */
function kindAllowed(tipo: EcfType, kind: AdditionalTaxKind, block: 'totales' | 'otra_moneda' = 'totales'): boolean {
  return allows(tipo, `${block}.impuestos_adicionales[].${ADDITIONAL_TAX_FIELD[kind]}`);
}

function allowedKindsText(tipo: EcfType): string {
  return (['otros', 'especifico', 'advalorem'] as const)
    .filter((k) => kindAllowed(tipo, k))
    .map((k) => KIND_NAME[k])
    .join(', ');
}

export const iscCodigos: Rule = {
  id: 'ECF-ISC-CODIGOS',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.2 campos 104–109 y §B campo 34 (Tabla I); rechazo DGII "OtrosImpuestosAdicionales no coincide con el detalle"',
  description:
    'Every code on items[].impuestos_adicionales has exactly one entry in totales.impuestos_adicionales and every entry there is carried by some item; codes are not repeated; a code whose amount field the type lacks (ISC on 44) is rejected.',
  check({ tipo, doc }) {
    const issues: Issue[] = [];
    const onItems = new Map<string, number[]>();
    for (const [i, it] of itemsOf(doc)) {
      const seen = new Set<string>();
      for (const [j, t] of entries(it.impuestos_adicionales)) {
        const code = t.tipo_impuesto;
        if (typeof code !== 'string') continue;
        const p = `items.${i}.impuestos_adicionales.${j}.tipo_impuesto`;
        if (seen.has(code)) issues.push(ruleIssue(this.id, p, `Código de impuesto adicional ${code} repetido en la línea ${i + 1}.`));
        seen.add(code);
        const kind = additionalTaxKind(code);
        if (kind && !kindAllowed(tipo, kind)) {
          issues.push(ruleIssue(this.id, p, `Código ${code} (${KIND_NAME[kind]}) no admitido en el tipo ${tipo}; admite: ${allowedKindsText(tipo)}.`, 'enum'));
          continue;
        }
        const lines = onItems.get(code) ?? [];
        lines.push(i + 1);
        onItems.set(code, lines);
      }
    }
    if (!allows(tipo, 'totales.impuestos_adicionales')) return issues;
    const declared = entries(doc.totales?.impuestos_adicionales);
    const inTotals = new Set<string>();
    for (const [j, t] of declared) {
      const code = t.tipo_impuesto;
      if (typeof code !== 'string') continue;
      const p = `totales.impuestos_adicionales.${j}.tipo_impuesto`;
      if (inTotals.has(code))
        issues.push(ruleIssue(this.id, p, `Código de impuesto adicional ${code} repetido en totales.impuestos_adicionales: una entrada por código.`));
      inTotals.add(code);
      if (!onItems.has(code)) {
        const kind = additionalTaxKind(code);
        if (kind && !kindAllowed(tipo, kind)) continue; // ECF-ISC-MONTO-CAMPO reports it
        issues.push(
          ruleIssue(this.id, p, `Ningún ítem lleva el código de impuesto adicional ${code}; agréguelo a items[].impuestos_adicionales o quite esta entrada.`),
        );
      }
    }
    for (const [code, lines] of onItems) {
      if (inTotals.has(code)) continue;
      issues.push(
        ruleIssue(
          this.id,
          'totales.impuestos_adicionales',
          `Falta el impuesto adicional ${code} en totales.impuestos_adicionales: lo llevan las líneas ${lines.join(', ')}.`,
          'required',
          { code },
        ),
      );
    }
    return issues;
  },
};

function montoCampo(ruleId: string, tipo: EcfType, list: Array<[number, Json]>, block: 'totales' | 'otra_moneda'): Issue[] {
  const issues: Issue[] = [];
  for (const [j, t] of list) {
    if (typeof t.tipo_impuesto !== 'string') continue;
    const kind = additionalTaxKind(t.tipo_impuesto);
    if (!kind) continue;
    const p = `${block}.impuestos_adicionales.${j}`;
    if (!kindAllowed(tipo, kind, block)) {
      issues.push(
        ruleIssue(
          ruleId,
          `${p}.tipo_impuesto`,
          `Código ${t.tipo_impuesto} (${KIND_NAME[kind]}) no admitido en el tipo ${tipo}; admite: ${allowedKindsText(tipo)}.`,
          'enum',
        ),
      );
      continue;
    }
    const field = ADDITIONAL_TAX_FIELD[kind];
    if (t[field] === undefined)
      issues.push(ruleIssue(ruleId, `${p}.${field}`, `Requerido: el código ${t.tipo_impuesto} (${KIND_NAME[kind]}) lleva su monto en ${field}.`, 'required'));
    for (const other of Object.values(ADDITIONAL_TAX_FIELD)) {
      if (other !== field && t[other] !== undefined) {
        issues.push(ruleIssue(ruleId, `${p}.${other}`, `El código ${t.tipo_impuesto} (${KIND_NAME[kind]}) no lleva ${other}; use ${field}.`));
      }
    }
  }
  return issues;
}

const ENTRY_KEYS = ['tipo_impuesto', 'tasa_impuesto_adicional'] as const;
const ENTRY_BLOCKS = ['totales', 'otra_moneda'] as const;

export const iscEntradaCompleta: Rule = {
  id: 'ECF-ISC-ENTRADA',
  // Types whose XSD leaves the code or rate of an entry optional (34 in totales; 44 and 45 in otra_moneda).
  appliesTo: [...new Set(ENTRY_BLOCKS.flatMap((b) => ENTRY_KEYS.flatMap((k) => typesWhere(`${b}.impuestos_adicionales[].${k}`, (min) => min === 0))))],
  source: 'DGII Formato e-CF §A.2 campos 105–106 y §A.7 campos 132–133 (código y tasa de cada impuesto adicional)',
  description: 'Each additional-tax entry states its code and rate even where the XSD makes them optional (34 totales; 44, 45 otra_moneda).',
  check({ tipo, doc }) {
    const issues: Issue[] = [];
    for (const b of ENTRY_BLOCKS) {
      for (const [j, t] of entries(doc[b]?.impuestos_adicionales)) {
        for (const k of ENTRY_KEYS) {
          if (t[k] !== undefined || occursMin(tipo, `${b}.impuestos_adicionales[].${k}`) !== 0) continue;
          const what = k === 'tipo_impuesto' ? 'el código del impuesto (Tabla I)' : 'la tasa del impuesto';
          issues.push(ruleIssue(this.id, `${b}.impuestos_adicionales.${j}.${k}`, `Requerido: cada impuesto adicional indica ${what}.`, 'required'));
        }
      }
    }
    return issues;
  },
};

export const iscMontoCampo: Rule = {
  id: 'ECF-ISC-MONTO-CAMPO',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.2 campos 107–109 y §A.7 campos 134–136 (monto según el rango del código)',
  description:
    'Each additional-tax entry (totales and otra_moneda) carries the amount field of its code range, and only that one: 001–005 otros_impuestos_adicionales, 006–022 específico, 023–039 ad valorem.',
  check({ tipo, doc }) {
    return [
      ...montoCampo(this.id, tipo, entries(doc.totales?.impuestos_adicionales), 'totales'),
      ...montoCampo(this.id, tipo, entries(doc.otra_moneda?.impuestos_adicionales), 'otra_moneda'),
    ];
  },
};

/** Ad-valorem ISC rates (Ley 253-12): alcohol 10 %, cigarettes 20 %. Warned, not enforced (they change by law). */
function adValoremRate(code: string): number | null {
  const n = Number(code);
  if (n >= 23 && n <= 35) return 10;
  if (n >= 36 && n <= 39) return 20;
  return null;
}

export const iscTasa: Rule = {
  id: 'ECF-ISC-TASA',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.2 campo 106 (validar con Tabla I)',
  description:
    'tasa_impuesto_adicional of codes 001–005 equals the legal rate of Tabla I (10, 2, 16, 10, 17): error otherwise. Ad-valorem ISC rates (10 % alcohol, 20 % cigarettes) are checked as a warning; specific ISC rates are indexed by period and not checked.',
  check({ doc }) {
    const issues: Issue[] = [];
    for (const block of ['totales', 'otra_moneda'] as const) {
      for (const [j, t] of entries(doc[block]?.impuestos_adicionales)) {
        const code = t.tipo_impuesto;
        const rate = t.tasa_impuesto_adicional;
        if (typeof code !== 'string' || typeof rate !== 'number') continue;
        const p = `${block}.impuestos_adicionales.${j}.tasa_impuesto_adicional`;
        const legal = OTHER_TAX_RATES[code];
        if (legal !== undefined && rate !== legal) {
          issues.push(
            ruleIssue(this.id, p, `La tasa del impuesto adicional ${code} es ${legal} % (Tabla I de la DGII); se recibió ${rate}.`, 'rule', {
              expected: legal,
            }),
          );
        }
        const adv = adValoremRate(code);
        if (adv !== null && rate !== adv) {
          issues.push(
            ruleWarning(this.id, p, `La tasa del ISC ad valorem ${code} en la Tabla I de la DGII es ${adv} %; se recibió ${rate}. Verifique la tasa vigente.`),
          );
        }
      }
    }
    return issues;
  },
};

export const iscOtrosMonto: Rule = {
  id: 'ECF-ISC-OTROS-MONTO',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.2 campo 109 b)–e) (montos ítem × tasa; ITBIS incluido; Norma 10-07; descuento global prorrateado)',
  description:
    'otros_impuestos_adicionales of codes 001–005 equals the rate × the base of the lines carrying the code (computeTotals.otherTaxes); tolerance one unit per such line: beyond it an error (totals), within it a warning.',
  check({ tipo, doc }) {
    const c = totalsOf(tipo, doc);
    const issues: Issue[] = [];
    for (const [j, t] of entries(doc.totales?.impuestos_adicionales)) {
      const code = t.tipo_impuesto;
      const o = typeof code === 'string' ? c.otherTaxes[code] : undefined;
      const declared = d(t.otros_impuestos_adicionales);
      if (!o || declared === null) continue;
      const issue = compareAmounts(
        this.id,
        `totales.impuestos_adicionales.${j}.otros_impuestos_adicionales`,
        declared,
        o.amount,
        fromInt(o.lines),
        (e, g) =>
          `El monto del impuesto adicional ${code} no cuadra: se esperaba ${e} (${o.rate} % de la base de las ${o.lines} línea(s) que lo llevan), se recibió ${g}.`,
      );
      if (issue) issues.push(issue);
    }
    return issues;
  },
};

interface ItemNeed {
  field: string;
  applies: (n: number) => boolean;
  what: string;
}

const ITEM_NEEDS: readonly ItemNeed[] = [
  { field: 'cantidad_referencia', applies: (n) => n >= 6 && n <= 22, what: 'cantidad de referencia (ISC específico 006–022)' },
  { field: 'subcantidades', applies: (n) => n >= 6 && n <= 39, what: 'tabla de subcantidades (ISC 006–039)' },
  { field: 'grados_alcohol', applies: (n) => n >= 6 && n <= 18, what: 'grados de alcohol (bebidas alcohólicas 006–018)' },
  { field: 'precio_unitario_referencia', applies: (n) => n >= 23 && n <= 39, what: 'precio unitario de referencia (ISC ad valorem 023–039)' },
];

export const iscItemDatos: Rule = {
  id: 'ECF-ISC-ITEM-DATOS',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §B campos 13–18 (condicionales a los códigos de impuesto adicional); rechazo DGII 2150 (TablaSubcantidad)',
  description:
    'An item with ISC codes carries the data the ISC is computed from: 006–022 cantidad_referencia (+ unidad_referencia), 006–039 subcantidades, 006–018 grados_alcohol, 023–039 precio_unitario_referencia (only where the type has those fields).',
  check({ tipo, doc }) {
    const issues: Issue[] = [];
    for (const [i, it] of itemsOf(doc)) {
      const codes = entries(it.impuestos_adicionales)
        .map(([, t]) => t.tipo_impuesto)
        .filter((c): c is string => typeof c === 'string');
      if (codes.length === 0) continue;
      for (const need of ITEM_NEEDS) {
        if (!allows(tipo, `items[].${need.field}`) || it[need.field] !== undefined) continue;
        const code = codes.find((c) => need.applies(Number(c)));
        if (code)
          issues.push(
            ruleIssue(this.id, `items.${i}.${need.field}`, `Requerido: la línea ${i + 1} lleva el impuesto ${code}; indique la ${need.what}.`, 'required'),
          );
      }
      if (it.cantidad_referencia !== undefined && it.unidad_referencia === undefined && allows(tipo, 'items[].unidad_referencia')) {
        issues.push(
          ruleIssue(
            this.id,
            `items.${i}.unidad_referencia`,
            'Requerido: con cantidad_referencia indique la unidad de referencia (unidad_referencia).',
            'required',
          ),
        );
      }
    }
    return issues;
  },
};

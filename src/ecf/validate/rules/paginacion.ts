/**
 * Pagination (`paginacion[]`): pages of the printed representation, numbered 1..n, each holding a contiguous range
 * of detail lines, with subtotals of those lines (DGII Formato e-CF §E). `id_doc.total_paginas` counts them and is
 * > 1 (XSD `Integer4ValidationTypeMayorUno`): a single-page document omits pagination altogether.
 */
import { add, div, fromInt, mul, round, ZERO, type Dec } from '../../../shared/money/decimal.js';
import { ITBIS_RATES } from '../../calc/totals.js';
import type { Issue } from '../../../shared/issues.js';
import { ruleIssue, type Rule } from '../rule.js';
import { compareAmounts, d, documentTolerance, entries, fmt, itemsOf, sumOf, type Json } from './shared.js';

export const paginacionNumeracion: Rule = {
  id: 'ECF-PAG-NUMERACION',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §E campos 1–3 (página en orden secuencial; línea desde ≤ hasta)',
  description:
    'Pages are numbered 1..n in order and their line ranges are contiguous: the first starts at line 1, each next one right after the previous, the last ends at the last item.',
  check({ doc }) {
    const pages = entries(doc.paginacion);
    if (pages.length === 0) return [];
    const nItems = Array.isArray(doc.items) ? doc.items.length : 0;
    const issues: Issue[] = [];
    let next = 1;
    for (const [j, pg] of pages) {
      const p = `paginacion.${j}`;
      if (pg.pagina === undefined) issues.push(ruleIssue(this.id, `${p}.pagina`, `Requerido: número de página (${j + 1}).`, 'required'));
      else if (pg.pagina !== j + 1) issues.push(ruleIssue(this.id, `${p}.pagina`, `Página fuera de secuencia: se esperaba ${j + 1}, se recibió ${pg.pagina}.`));
      const a = pg.no_linea_desde;
      const b = pg.no_linea_hasta;
      if (a === undefined) issues.push(ruleIssue(this.id, `${p}.no_linea_desde`, `Requerido: primera línea de la página (se esperaba ${next}).`, 'required'));
      if (b === undefined) issues.push(ruleIssue(this.id, `${p}.no_linea_hasta`, 'Requerido: última línea de la página.', 'required'));
      if (typeof a !== 'number' || typeof b !== 'number') {
        next = typeof b === 'number' ? b + 1 : next;
        continue;
      }
      if (a !== next)
        issues.push(
          ruleIssue(this.id, `${p}.no_linea_desde`, `Rango de líneas no contiguo: la página ${j + 1} debe empezar en la línea ${next}; se recibió ${a}.`),
        );
      if (a > b) issues.push(ruleIssue(this.id, `${p}.no_linea_hasta`, `La línea hasta (${b}) no puede ser menor que la línea desde (${a}).`));
      next = b + 1;
    }
    const last = pages[pages.length - 1]!;
    if (typeof last[1].no_linea_hasta === 'number' && last[1].no_linea_hasta !== nItems) {
      issues.push(
        ruleIssue(
          this.id,
          `paginacion.${last[0]}.no_linea_hasta`,
          `La última página debe terminar en la última línea de detalle (${nItems}); se recibió ${last[1].no_linea_hasta}.`,
        ),
      );
    }
    return issues;
  },
};

export const paginacionTotalPaginas: Rule = {
  id: 'ECF-PAG-TOTAL-PAGINAS',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A campo 19 (TotalPaginas: veces que se repite Página No., > 1)',
  description: 'id_doc.total_paginas is present exactly when paginacion is, equals the number of pages, and pagination has more than one page.',
  check({ doc }) {
    const n = Array.isArray(doc.paginacion) ? doc.paginacion.length : 0;
    const total = doc.id_doc?.total_paginas;
    const issues: Issue[] = [];
    if (n === 0) {
      if (typeof total === 'number')
        issues.push(ruleIssue(this.id, 'id_doc.total_paginas', 'total_paginas sin sección de paginación: agregue paginacion o quite este campo.'));
      return issues;
    }
    if (n === 1)
      issues.push(
        ruleIssue(
          this.id,
          'paginacion',
          'La paginación solo aplica a documentos de más de una página; con una sola página omita paginacion y total_paginas.',
          'too_few',
        ),
      );
    if (total === undefined)
      issues.push(ruleIssue(this.id, 'id_doc.total_paginas', `Requerido con paginación: se esperaba ${n}.`, 'required', { expected: n }));
    else if (typeof total === 'number' && total !== n)
      issues.push(
        ruleIssue(
          this.id,
          'id_doc.total_paginas',
          `total_paginas debe ser el número de páginas de paginacion: se esperaba ${n}, se recibió ${total}.`,
          'rule',
          { expected: n },
        ),
      );
    return issues;
  },
};

interface PageCalc {
  keys: Record<string, Dec>;
  lines: number;
}

function pageCalc(doc: Json, from: number, to: number): PageCalc {
  const sums: Record<number, Dec> = { 0: ZERO, 1: ZERO, 2: ZERO, 3: ZERO, 4: ZERO };
  const seen: Record<number, boolean> = {};
  const gross = doc.id_doc?.indicador_monto_gravado === 1;
  let lines = 0;
  for (const [i, it] of itemsOf(doc)) {
    if (i + 1 < from || i + 1 > to) continue;
    lines++;
    const ind = it.indicador_facturacion;
    const m = d(it.monto);
    if (typeof ind !== 'number' || !(ind in sums) || m === null) continue;
    sums[ind] = add(sums[ind]!, m);
    seen[ind] = true;
  }
  const keys: Record<string, Dec> = {};
  const bases: Dec[] = [];
  const itbis: Dec[] = [];
  for (const ind of [1, 2, 3] as const) {
    if (!seen[ind]) continue;
    const rate = ITBIS_RATES[ind];
    const base = gross && rate > 0 ? round(div(sums[ind]!, add(fromInt(1), div(fromInt(rate), fromInt(100)))), 2) : sums[ind]!;
    keys[`monto_gravado_i${ind}`] = base;
    keys[`itbis${ind}`] = round(mul(base, div(fromInt(rate), fromInt(100))), 2);
    bases.push(base);
    itbis.push(keys[`itbis${ind}`]!);
  }
  if (bases.length) {
    keys.monto_gravado = bases.reduce(add, ZERO);
    keys.itbis = itbis.reduce(add, ZERO);
  }
  if (seen[4]) keys.exento = sums[4]!;
  if (seen[0]) keys.monto_no_facturable = sums[0]!;
  return { keys, lines };
}

export const paginacionSubtotales: Rule = {
  id: 'ECF-PAG-SUBTOTALES',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §E campos 4–17 (subtotales de las líneas de la página)',
  description:
    'Page subtotals equal the sums of the page lines (bases, exempt, non-billable, ITBIS per rate; tolerance one unit per page line) and monto = gravado + exento + ITBIS + impuesto adicional. With global discounts/surcharges (not attributable to a page) only the internal sums are checked.',
  check({ doc }) {
    const pages = entries(doc.paginacion);
    if (pages.length === 0) return [];
    const hasGlobal = entries(doc.descuentos_recargos).length > 0;
    const issues: Issue[] = [];
    for (const [j, pg] of pages) {
      const p = `paginacion.${j}`;
      const a = pg.no_linea_desde;
      const b = pg.no_linea_hasta;
      const calc = typeof a === 'number' && typeof b === 'number' && a <= b ? pageCalc(doc, a, b) : null;
      const tol = fromInt(Math.max(1, calc?.lines ?? 1));
      if (calc && !hasGlobal) {
        for (const k of [
          'monto_gravado_i1',
          'monto_gravado_i2',
          'monto_gravado_i3',
          'exento',
          'monto_no_facturable',
          'itbis1',
          'itbis2',
          'itbis3',
          'monto_gravado',
          'itbis',
        ]) {
          const declared = d(pg[k]);
          if (declared === null) continue;
          const expected = calc.keys[k] ?? ZERO;
          const x = compareAmounts(
            this.id,
            `${p}.${k}`,
            declared,
            expected,
            tol,
            (e, g) => `Subtotal de la página ${j + 1} (${k}) no cuadra: se esperaba ${e} (líneas ${a} a ${b}), se recibió ${g}.`,
          );
          if (x) issues.push(x);
        }
      }
      const detail = pg.detalle_impuesto_adicional;
      if (detail && typeof detail === 'object' && pg.impuesto_adicional !== undefined) {
        const expected = sumOf([detail.impuesto_selectivo_consumo_especifico, detail.otros_impuestos]);
        const x = compareAmounts(
          this.id,
          `${p}.impuesto_adicional`,
          d(pg.impuesto_adicional)!,
          expected,
          ZERO,
          (e, g) => `Subtotal de impuesto adicional de la página ${j + 1} no cuadra: se esperaba ${e} (ISC + otros impuestos), se recibió ${g}.`,
        );
        if (x) issues.push(x);
      }
      if (pg.monto === undefined) {
        issues.push(ruleIssue(this.id, `${p}.monto`, `Requerido: monto subtotal de la página ${j + 1}.`, 'required'));
        continue;
      }
      const gravado = d(pg.monto_gravado) ?? sumOf([pg.monto_gravado_i1, pg.monto_gravado_i2, pg.monto_gravado_i3]);
      const itbis = d(pg.itbis) ?? sumOf([pg.itbis1, pg.itbis2, pg.itbis3]);
      const expected = add(add(gravado, itbis), sumOf([pg.exento, pg.impuesto_adicional]));
      const x = compareAmounts(
        this.id,
        `${p}.monto`,
        d(pg.monto)!,
        expected,
        tol,
        (e, g) =>
          `Monto subtotal de la página ${j + 1} no cuadra: se esperaba ${e} (gravado ${fmt(gravado)} + ITBIS ${fmt(itbis)} + exento + impuesto adicional), se recibió ${g}.`,
      );
      if (x) issues.push(x);
    }
    return issues;
  },
};

export const paginacionMontoTotal: Rule = {
  id: 'ECF-PAG-MONTO-TOTAL',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §A.2 campo 110 c) (con paginación, monto total = Σ monto subtotal página)',
  description: 'With pagination, totales.monto_total equals the sum of paginacion[].monto (global tolerance).',
  check({ doc }) {
    const pages = entries(doc.paginacion);
    const total = d(doc.totales?.monto_total);
    if (pages.length === 0 || total === null || pages.some(([, p]) => p.monto === undefined)) return [];
    const s = sumOf(pages.map(([, p]) => p.monto));
    const x = compareAmounts(
      this.id,
      'totales.monto_total',
      total,
      s,
      documentTolerance(doc),
      (e, g) => `Con paginación el monto total debe ser la suma de los subtotales de página: se esperaba ${e}, se recibió ${g}.`,
    );
    return x ? [x] : [];
  },
};

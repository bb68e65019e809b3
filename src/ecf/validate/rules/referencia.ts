/** Reference to the modified receipt (`referencia`): modification codes by type, NCF format by series, the 30-day rule of credit notes, text corrections. */
import { ZERO, cmp } from '../../../shared/money/decimal.js';
import type { Issue } from '../../../shared/issues.js';
import { ECF_TYPE_INFO } from '../../spec/doc-types.js';
import { ENCF_PATTERN } from '../../spec/encf.js';
import { dayNumber } from '../../spec/formats.js';
import type { EcfType } from '../../spec/model.js';
import { ruleIssue, type Rule } from '../rule.js';
import { d, fmt, isObj, itemsOf } from './shared.js';

const CODE_NAMES: Readonly<Record<string, string>> = {
  '1': 'anula el NCF modificado',
  '2': 'corrige texto',
  '3': 'corrige montos',
  '4': 'reemplaza un NCF emitido en contingencia',
  '5': 'referencia una factura de consumo electrónica',
};

function codeRule(id: string, appliesTo: readonly EcfType[], allowed: readonly string[], source: string, note: string): Rule {
  return {
    id,
    appliesTo,
    source,
    description: `referencia.codigo_modificacion admits only ${allowed.join(', ')} on types ${appliesTo.join(', ')}.`,
    check({ tipo, doc }) {
      const c = doc.referencia?.codigo_modificacion;
      if (typeof c !== 'string' || allowed.includes(c)) return [];
      return [
        ruleIssue(
          this.id,
          'referencia.codigo_modificacion',
          `Código de modificación ${c} no admitido en el tipo ${tipo}: solo ${allowed.map((x) => `${x} (${CODE_NAMES[x]})`).join(', ')}. ${note}`,
          'enum',
          { allowed },
        ),
      ];
    },
  };
}

export const refCodigoNotas = codeRule(
  'ECF-REF-CODIGO',
  ['33', '34'],
  ['1', '2', '3', '4'],
  'spec: Particularities by type / Types 33 and 34; DGII Formato e-CF §F campo 4',
  'El código 5 es exclusivo del tipo 31.',
);
export const refCodigo31 = codeRule(
  'ECF-REF-CODIGO-31',
  ['31'],
  ['4', '5'],
  'DGII Formato e-CF §F campo 4 (1–3 solo para notas de crédito o débito; 5 solo tipo 31)',
  'Los códigos 1 a 3 solo aplican a las notas de débito y crédito (tipos 33 y 34).',
);
export const refCodigoOtros = codeRule(
  'ECF-REF-CODIGO-OTROS',
  ['32', '41', '43', '44', '45', '46', '47'],
  ['4'],
  'spec: Particularities by type / Type 33 (código 5 solo tipo 31); DGII Formato e-CF §F campo 4',
  'Los códigos 1 a 3 solo aplican a las notas de débito y crédito (tipos 33 y 34) y el 5 solo al tipo 31.',
);

/** Series letter → exact shape and length of the modified NCF. */
const NCF_SERIES: ReadonlyArray<{ test: RegExp; series: RegExp; len: number; shape: string }> = [
  { series: /^E/, test: ENCF_PATTERN, len: 13, shape: 'E + tipo (2 dígitos) + secuencia (10 dígitos)' },
  { series: /^B/, test: /^B\d{10}$/, len: 11, shape: 'B + tipo (2 dígitos) + secuencia (8 dígitos)' },
  { series: /^[AP]/, test: /^[AP]\d{18}$/, len: 19, shape: 'A o P + 18 dígitos' },
];

export const refNcf: Rule = {
  id: 'ECF-REF-NCF',
  appliesTo: 'all',
  source: 'spec: Resources and fields (referencia.ncf_modificado: E 13, B 11, A o P 19); DGII Formato e-CF §F campo 1',
  description: 'referencia.ncf_modificado by series: E = 13 characters (E + 2-digit type + 10 digits), B = 11, A or P = 19.',
  check({ doc }) {
    const v = doc.referencia?.ncf_modificado;
    if (typeof v !== 'string') return [];
    const s = NCF_SERIES.find((x) => x.series.test(v));
    if (!s) {
      return [
        ruleIssue(this.id, 'referencia.ncf_modificado', `NCF modificado "${v}" inválido: la serie debe ser E (13 caracteres), B (11) o A/P (19).`, 'pattern'),
      ];
    }
    if (s.test.test(v)) return [];
    return [
      ruleIssue(
        this.id,
        'referencia.ncf_modificado',
        `NCF modificado "${v}" inválido: la serie ${v[0]} tiene ${s.len} caracteres (${s.shape}); se recibieron ${v.length}.`,
        'pattern',
        { length: s.len },
      ),
    ];
  },
};

export const refContingencia: Rule = {
  id: 'ECF-REF-CONTINGENCIA',
  appliesTo: 'all',
  source: 'DGII Formato e-CF §F campo 1 b) (código 4: el tipo del NCF modificado equivale al tipo de e-CF emitido)',
  description:
    'With codigo_modificacion 4 (replaces a contingency NCF) a series-B ncf_modificado must be the paper equivalent of the type (B01 ↔ 31, B02 ↔ 32, …, B17 ↔ 47).',
  check({ tipo, doc }) {
    const r = doc.referencia;
    if (!isObj(r) || r.codigo_modificacion !== '4' || typeof r.ncf_modificado !== 'string' || !/^B\d{10}$/.test(r.ncf_modificado)) return [];
    const expected = ECF_TYPE_INFO[tipo].paperNcfType;
    const got = r.ncf_modificado.slice(1, 3);
    if (got === expected) return [];
    return [
      ruleIssue(
        this.id,
        'referencia.ncf_modificado',
        `Con código de modificación 4 el NCF reemplazado debe ser del tipo equivalente: se esperaba B${expected} para el tipo ${tipo}, se recibió B${got}.`,
        'rule',
        { expected: `B${expected}` },
      ),
    ];
  },
};

export const notaCreditoIndicador: Rule = {
  id: 'ECF-NC-INDICADOR',
  appliesTo: ['34'],
  source: 'spec: Particularities by type / Type 34; DGII Formato e-CF §A campo 5 (mayor a 30 días calendario → 1)',
  description:
    'id_doc.indicador_nota_credito is derived from referencia.fecha_ncf_modificado and the issue date: more than 30 calendar days → 1, otherwise 0. Skipped when the issue date is unknown.',
  check({ doc, fechaEmision }) {
    const sent = doc.id_doc?.indicador_nota_credito;
    const ref = doc.referencia?.fecha_ncf_modificado;
    if (typeof sent !== 'number' || typeof ref !== 'string' || !fechaEmision) return [];
    const a = dayNumber(ref);
    const b = dayNumber(fechaEmision);
    if (a === null || b === null) return [];
    const days = b - a;
    const expected = days > 30 ? 1 : 0;
    if (sent === expected) return [];
    return [
      ruleIssue(
        this.id,
        'id_doc.indicador_nota_credito',
        `Indicador de nota de crédito incorrecto: se esperaba ${expected}, porque entre la fecha del comprobante modificado (${ref}) y la fecha de emisión (${fechaEmision}) hay ${days} día(s) (${expected === 1 ? 'más de 30: devuelve solo el precio, sin ITBIS' : '30 o menos: devuelve precio e ITBIS'}); se recibió ${sent}.`,
        'rule',
        { expected, days },
      ),
    ];
  },
};

export const notaCorreccionTexto: Rule = {
  id: 'ECF-NC-TEXTO',
  appliesTo: ['33', '34'],
  source: 'spec: Particularities by type / Types 33 and 34 (código 2: corrige texto, sin efecto en montos); DGII Formato e-CF §B campo 39 c)',
  description:
    "With codigo_modificacion 2 (text correction) the spec wants every line amount and monto_total at 0; DGII's certification set writes a non-billable line of 1.00 with monto_total 0.00 and DGII accepts it: a warning row (issue 15).",
  check({ doc }) {
    if (doc.referencia?.codigo_modificacion !== '2') return [];
    const issues: Issue[] = [];
    for (const [i, it] of itemsOf(doc)) {
      const m = d(it.monto);
      if (m !== null && cmp(m, ZERO) !== 0) {
        issues.push(
          ruleIssue(
            this.id,
            `items.${i}.monto`,
            `Con código de modificación 2 (corrección de texto) los montos deben ser 0 (precio_unitario 0, monto 0); se recibió ${fmt(m)}.`,
            'rule',
          ),
        );
      }
    }
    const total = d(doc.totales?.monto_total);
    if (total !== null && cmp(total, ZERO) !== 0) {
      issues.push(
        ruleIssue(
          this.id,
          'totales.monto_total',
          `Con código de modificación 2 (corrección de texto) el monto total debe ser 0; se recibió ${fmt(total)}.`,
          'rule',
        ),
      );
    }
    return issues;
  },
};

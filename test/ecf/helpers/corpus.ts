/**
 * Test documents: the fixed build context of the goldens, the examples on disk, and a seeded generator of
 * random VALID e-CF documents of every type, driven by the field table.
 *
 * The generator walks `jsonFields(xmlTree(ECF_TABLE, tipo), 'doc')`: every required field is filled, each
 * optional field or block is filled with a probability drawn per document, arrays get a random length within
 * their bounds, and values come from the facets (enumerations, lengths, patterns, digits, bounds). A second,
 * business pass then makes the document consistent the way a real issuer would (indicators a type allows,
 * withholding where required, sub-tables that add up, references for 33/34, the 30-day credit-note rule, one
 * page per line range, payment forms that add up to the total) and fills `totales` with `fillTotals`.
 *
 * Deterministic: same seed, same documents (`CORPUS_SEED` overrides the default seed). A small seeded PRNG is used
 * rather than fast-check arbitraries: the business pass rewrites values across the whole document (totals, pages,
 * other currency), so shrinking one field at a time would only produce invalid documents.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { add, div, fromInt, fromNumber, mul, round, sub, toNumber, ZERO, type Dec } from '../../../src/shared/money/decimal.js';
import { additionalTaxKind, fillTotals, ITBIS_RATES, lineAmount, OTHER_TAX_RATES } from '../../../src/ecf/calc/totals.js';
import { COUNTRY_NAMES } from '../../../src/ecf/spec/countries.gen.js';
import { ECF_TYPE_INFO } from '../../../src/ecf/spec/doc-types.js';
import { dayNumber } from '../../../src/ecf/spec/formats.js';
import { ECF_TABLE } from '../../../src/ecf/spec/ecf-table.gen.js';
import { ECF_TYPES, type EcfType, type Facets } from '../../../src/ecf/spec/model.js';
import { jsonFields, xmlTree, type JsonField } from '../../../src/ecf/spec/tree.js';
import type { BuildContext, CanonicalDocument, IssuerProfile } from '../../../src/ecf/xml/ecf.js';
import { repoRoot } from './env.js';

type Json = Record<string, any>;

// ---------------------------------------------------------------------------------------------------------------
// Fixed context and examples

/** Issue date of every golden, example and generated document (the placeholder signature's date). */
export const ISSUE_DATE = '01-04-2026';
/** Sequence expiry of every golden and example. */
export const SEQUENCE_EXPIRY = '31-12-2027';

export const examplesDir = join(repoRoot, 'examples');
export const fixturesDir = join(repoRoot, 'test/ecf/fixtures/ecf');

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** `examples/issuer.json` (minimal profile) or `examples/issuer.full.json` (every optional field). */
export function exampleIssuer(full = false): IssuerProfile {
  return readJson<IssuerProfile>(join(examplesDir, full ? 'issuer.full.json' : 'issuer.json'));
}

/** Types whose XSD has `FechaVencimientoSecuencia` (all but 32 and 34). */
function hasSequenceExpiry(tipo: EcfType): boolean {
  return xmlTree(ECF_TABLE, tipo)[0]!
    .children!.find((n) => n.name === 'IdDoc')!
    .children!.some((n) => n.name === 'FechaVencimientoSecuencia');
}

/**
 * The fixed build context of goldens and examples: e-NCF `E<tipo>` + sequence, issued 01-04-2026, sequence
 * valid until 31-12-2027 (omitted for 32 and 34, whose XSD has no such element).
 */
export function fixedContext(tipo: EcfType, emisor: IssuerProfile, sequence = 1): BuildContext {
  const ctx: BuildContext = { emisor, encf: `E${tipo}${String(sequence).padStart(10, '0')}`, fecha_emision: ISSUE_DATE };
  if (hasSequenceExpiry(tipo)) ctx.fecha_vencimiento_secuencia = SEQUENCE_EXPIRY;
  return ctx;
}

export interface ExampleDoc {
  tipo: EcfType;
  /** `minimal` or `maximal`. */
  variant: string;
  file: string;
  doc: CanonicalDocument;
}

/** Every `examples/ecf-<tipo>.<variant>.json`, sorted by file name. */
export function loadExamples(): ExampleDoc[] {
  return readdirSync(examplesDir)
    .filter((f) => /^ecf-\d{2}\.[a-z0-9-]+\.json$/.test(f))
    .sort()
    .map((f) => {
      const [, tipo, variant] = /^ecf-(\d{2})\.([a-z0-9-]+)\.json$/.exec(f)!;
      return { tipo: tipo as EcfType, variant: variant!, file: join(examplesDir, f), doc: readJson<CanonicalDocument>(join(examplesDir, f)) };
    });
}

/**
 * The context an example or golden case is built with: `examples/issuer.full.json` for cases whose name starts
 * with `maximal`, `examples/issuer.json` otherwise; e-NCF sequence 1; fixed dates (see `fixedContext`).
 */
export function caseContext(tipo: EcfType, caseName: string): BuildContext {
  return fixedContext(tipo, exampleIssuer(caseName.startsWith('maximal')));
}

export interface FixtureCase {
  tipo: EcfType;
  name: string;
  /** Absolute path of `<case>.json`; the golden XML is the same path with `.xml`. */
  json: string;
  doc: CanonicalDocument;
}

/** Every `test/ecf/fixtures/ecf/<tipo>/<case>.json`, sorted by type then name. */
export function loadFixtureCases(): FixtureCase[] {
  const out: FixtureCase[] = [];
  for (const tipo of ECF_TYPES) {
    let files: string[];
    try {
      files = readdirSync(join(fixturesDir, tipo));
    } catch {
      continue;
    }
    for (const f of files.filter((x) => x.endsWith('.json')).sort()) {
      const json = join(fixturesDir, tipo, f);
      out.push({ tipo, name: f.slice(0, -'.json'.length), json, doc: readJson<CanonicalDocument>(json) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Seeded PRNG

/** mulberry32: small, fast, good enough for test data; deterministic per seed. */
export class Rng {
  private s: number;
  constructor(readonly seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
}

export const DEFAULT_SEED = 20260401;

export function corpusSeed(): number {
  const env = process.env.CORPUS_SEED;
  return env && /^\d+$/.test(env) ? Number(env) : DEFAULT_SEED;
}

// ---------------------------------------------------------------------------------------------------------------
// Value generators from facets

/** RNC (9 digits, DGII check digit) or cédula (11 digits, Luhn check digit). */
export function randomRnc(rng: Rng, length: 9 | 11 = rng.chance(0.7) ? 9 : 11): string {
  if (length === 9) {
    const base = rng.pick(['1', '4']) + rng.digits(7);
    const w = [7, 9, 8, 6, 5, 4, 3, 2];
    const r = [...base].reduce((a, c, i) => a + Number(c) * w[i]!, 0) % 11;
    return base + String(r === 0 ? 2 : r === 1 ? 1 : 11 - r);
  }
  const base = rng.pick(['001', '402', '031', '223']) + rng.digits(7);
  let s = 0;
  [...base].forEach((c, i) => {
    let p = Number(c) * (i % 2 === 0 ? 1 : 2);
    if (p > 9) p -= 9;
    s += p;
  });
  return base + String((10 - (s % 10)) % 10);
}

const WORDS = [
  'Cemento',
  'gris',
  'tubería',
  'PVC',
  'señal',
  'Año',
  'Núñez',
  'Peña',
  'cañón',
  'pingüino',
  'café',
  'azúcar',
  'habichuelas',
  'arroz',
  'plátano',
  'servicio',
  'técnico',
  'instalación',
  'mantenimiento',
  'preventivo',
  'consultoría',
  'jurídica',
  'García',
  'Rodríguez',
  'Martínez',
  'Álvarez',
  'Ibáñez',
  'Ortiz',
  'Santo',
  'Domingo',
  'Santiago',
  'Higüey',
  'Baní',
  'Hermanos',
  'Compañía',
  'Asociados',
  'pulgada',
  'galón',
  'caja',
  'docena',
  'Ñame',
  'ÉXITO',
  'Distribución',
  'Caribe',
];
const PUNCT = [' & ', ', ', ' - ', ' / ', ' <', '> ', ' "', '" ', " '", ' (', ') ', ' #', ' N.º ', ' % ', ' + ', '. '];

/** Free text of a length within [min, max] with accents, ñ and the five XML special characters. */
function text(rng: Rng, min: number, max: number): string {
  const target = rng.int(Math.max(min, 1), Math.min(max, rng.chance(0.8) ? 40 : max));
  let s = rng.pick(WORDS);
  while ([...s].length < target) s += (rng.chance(0.15) ? rng.pick(PUNCT) : ' ') + (rng.chance(0.1) ? String(rng.int(1, 999)) : rng.pick(WORDS));
  s = [...s].slice(0, target).join('').trim();
  if ([...s].length < Math.max(min, 1)) s = s.padEnd(Math.max(min, 1), 'x');
  return s;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZñÑáéíóúÁÉÍÓÚ';
const NAMES = ['María José', 'Ana Pérez', 'Juan Núñez', 'Tesorería', 'Cuentas por pagar', 'Ramón Ibáñez', 'Ángela Ruiz', 'Compras, Logística'];

/** Letters, commas and blanks only (the `Alfa*` patterns). */
function lettersText(rng: Rng, max: number): string {
  let s = rng.pick(NAMES);
  if (rng.chance(0.2)) s += ' ' + Array.from({ length: rng.int(1, 6) }, () => rng.pick([...LETTERS])).join('');
  return [...s].slice(0, max).join('').trim();
}

const INCOTERMS = ['FOB', 'CIF', 'EXW', 'FCA', 'CFR', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'FAS'];
const REGIMES = ['Exportación definitiva', 'Zona franca', 'Reexportación', 'Admisión temporal', 'Tránsito aduanero'];

/**
 * Generators for the XSD patterns of free-text types, keyed by the pattern as written in the XSD. A pattern not
 * listed here makes the generator throw, so a new XSD pattern cannot slip by untested.
 */
const PATTERN_GENERATORS: Record<string, (rng: Rng, f: Facets) => string> = {
  '[0-9]{11}|[0-9]{9}': (rng) => randomRnc(rng),
  '\\d{3}-\\d{3}-\\d{4}': (rng) => `${rng.pick(['809', '829', '849'])}-${rng.digits(3)}-${rng.digits(4)}`,
  '\\w+([-+.]\\w+)*@\\w+([-.]\\w+)*\\.\\w+([-.]\\w+)*': (rng) =>
    `${rng.pick(['ventas', 'facturacion', 'cxp', 'info', 'jose.nunez', 'ana-perez', 'compras+ecf'])}${rng.int(1, 99)}@${rng.pick(['empresa', 'grupo-caribe', 'correo', 'mail.ejemplo'])}.${rng.pick(['com', 'com.do', 'do', 'net'])}`,
  '[\\s\\d\\w]{1,15}': (rng) => rng.pick(['30 días', 'Neto 45', 'Contado', '15 días fecha', 'Crédito 60', '2 cuotas']),
  '[a-zA-ZñÑáéíóúÁÉÍÓÚ,\\s]*': (rng, f) => lettersText(rng, f.maxLength ?? 20),
  // e-CF 33/34 `Alfa20Type`: XSD regexes have no anchors, so `^` and `$` are literal characters here.
  '^[a-zA-ZñÑáéíóúÁÉÍÓÚ,\\s]*$': (rng, f) => `^${lettersText(rng, (f.maxLength ?? 20) - 2)}$`,
  '\\D[^0-9]+[a-zA-ZñÑáéíóúÁÉÍÓÚ]': (rng) => rng.pick(INCOTERMS),
  '(\\D[^0-9]+[a-zA-ZñÑáéíóúÁÉÍÓÚ])': (rng, f) => rng.pick(REGIMES.filter((r) => r.length <= (f.maxLength ?? 35))),
};

function randomDate(rng: Rng, from = 2024, to = 2027): string {
  const y = rng.int(from, to),
    m = rng.int(1, 12);
  const dim = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${String(rng.int(1, dim)).padStart(2, '0')}-${String(m).padStart(2, '0')}-${y}`;
}

/** A JSON number with at most `decimals` decimals, in [lo, hi]. */
function amount(rng: Rng, lo: number, hi: number, decimals = 2): number {
  const scale = 10 ** decimals;
  const v = Math.round((lo + rng.next() * (hi - lo)) * scale) / scale;
  return Math.min(hi, Math.max(lo, v));
}

function stringValue(rng: Rng, f: JsonField, facets: Facets): string {
  const pattern = facets.pattern?.[0];
  let v: string;
  if (pattern !== undefined) {
    const gen = PATTERN_GENERATORS[pattern];
    if (!gen) throw new Error(`corpus: no generator for the XSD pattern ${pattern} (${f.json})`);
    v = gen(rng, facets);
  } else {
    v = text(rng, facets.minLength ?? 1, facets.maxLength ?? 60);
  }
  if (facets.jsPattern && !facets.jsPattern.some((p) => new RegExp(p, 'u').test(v))) {
    throw new Error(`corpus: generated ${JSON.stringify(v)} does not match ${pattern} (${f.json})`);
  }
  return v;
}

function integerValue(rng: Rng, facets: Facets): number {
  if (facets.enumeration) return Number(rng.pick(facets.enumeration));
  const lo = facets.minInclusive !== undefined ? Number(facets.minInclusive) : facets.minExclusive !== undefined ? Number(facets.minExclusive) + 1 : 0;
  const hi = facets.maxInclusive !== undefined ? Number(facets.maxInclusive) : Math.min(10 ** (facets.totalDigits ?? 2) - 1, 99);
  return rng.int(lo, Math.min(hi, lo + 98));
}

function amountValue(rng: Rng, facets: Facets): number {
  // Money has 2 decimals; unit prices and rates up to 4, sub-quantities 3: use them half the time.
  const fd = facets.fractionDigits ?? 2;
  const decimals = fd > 2 && rng.chance(0.5) ? fd : Math.min(fd, 2);
  const m = facets.pattern?.[0] ? /\{(?:\d+,)?(\d+)\}/.exec(facets.pattern[0]) : null;
  const intDigits = m ? Number(m[1]) : 16;
  const hi = Math.min(10 ** Math.min(intDigits, 5) - 1, 50_000);
  const lo = facets.minExclusive === '0' ? 0.01 : 0;
  return amount(rng, lo, hi, decimals);
}

/** A random value for a leaf field, from its facets. */
export function randomValue(rng: Rng, f: JsonField): unknown {
  const facets = f.xml.facets ?? { base: 'string' };
  switch (f.xml.jsonKind) {
    case 'code':
      return rng.pick(facets.enumeration ?? ['1']);
    case 'integer':
      return integerValue(rng, facets);
    case 'amount':
      return amountValue(rng, facets);
    case 'digits': {
      const n = rng.int(1, Math.min(facets.totalDigits ?? facets.maxLength ?? 20, 20));
      return rng.digits(n);
    }
    case 'date':
      return randomDate(rng);
    case 'datetime':
      return `${randomDate(rng)} ${String(rng.int(0, 23)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}:${String(rng.int(0, 59)).padStart(2, '0')}`;
    case 'country':
      return rng.pick(Object.keys(COUNTRY_NAMES));
    default:
      return stringValue(rng, f, facets);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Structural generation from the table

export interface GenerateOptions {
  /** Probability of filling each optional field (drawn per document when omitted). */
  density?: number;
  /** Upper bound of generated `items` (default 8). */
  maxItems?: number;
}

/** Largest length the generator gives an array of this path (keeps documents small). */
const ARRAY_CAP: Record<string, number> = { 'items[]': 8, 'subtotales[]': 3, 'descuentos_recargos[]': 3, 'paginacion[]': 1 };

function randomObject(rng: Rng, fields: readonly JsonField[], density: number, required: boolean): Json | undefined {
  const out: Json = {};
  for (const f of fields) {
    if (!f.required && !rng.chance(density)) continue;
    if (f.array) {
      const n = rng.int(f.minItems, Math.min(f.maxItems, ARRAY_CAP[f.json] ?? 3));
      const arr: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const v = f.fields ? randomObject(rng, f.fields, density, true) : randomValue(rng, f);
        if (v !== undefined) arr.push(v);
      }
      if (arr.length) out[f.key] = arr;
    } else if (f.fields) {
      const v = randomObject(rng, f.fields, density, f.required);
      if (v !== undefined) out[f.key] = v;
    } else {
      out[f.key] = randomValue(rng, f);
    }
  }
  if (Object.keys(out).length === 0 && !required) return undefined;
  return out;
}

/** The canonical JSON fields of a type (request body). */
export function docFields(tipo: EcfType): JsonField[] {
  return jsonFields(xmlTree(ECF_TABLE, tipo), 'doc');
}

/** A random document whose SHAPE is valid for `tipo` (facets and occurrence only; no business pass). */
export function randomShape(tipo: EcfType, rng: Rng, density: number): Json {
  return randomObject(rng, docFields(tipo), density, true)!;
}

/** A random issuer profile (required fields plus a random subset of the optional ones). */
export function randomIssuer(tipo: EcfType, rng: Rng): IssuerProfile {
  const fields = jsonFields(xmlTree(ECF_TABLE, tipo), 'issuer');
  const emisor = fields.find((f) => f.key === 'emisor')!;
  const p = randomObject(rng, emisor.fields!, rng.next(), true)!;
  const prov = rng.pick(PROVINCES);
  if (p.provincia !== undefined) p.provincia = prov;
  if (p.municipio !== undefined) p.municipio = rng.pick(MUNICIPALITIES.get(prov)!);
  return p as IssuerProfile;
}

const PLACE_CODES = (ECF_TABLE.simpleTypes.ProvinciaMunicipioType?.enumeration ?? []) as readonly string[];
const PROVINCES = PLACE_CODES.filter((c) => c.endsWith('0000'));
const MUNICIPALITIES = new Map(PROVINCES.map((p) => [p, PLACE_CODES.filter((c) => c.startsWith(p.slice(0, 2)) && c !== p)]));

// ---------------------------------------------------------------------------------------------------------------
// Business pass: what the table cannot say

const allowedCache = new Map<EcfType, Set<string>>();

/** Whether type `tipo` has the JSON path pattern `path` (`items[].retencion.indicador`, without trailing `[]`). */
export function allowsPath(tipo: EcfType, path: string): boolean {
  let set = allowedCache.get(tipo);
  if (!set) {
    set = new Set();
    const walk = (fs: JsonField[]) => {
      for (const f of fs) {
        set!.add(f.json.replace(/\[\]$/, ''));
        if (f.fields) walk(f.fields);
      }
    };
    walk(docFields(tipo));
    allowedCache.set(tipo, set);
  }
  return set.has(path);
}

/** Billing indicators a type admits: those whose `totales` key its XSD has (1–3 taxed, 4 exempt, 0 not billable). */
export function typeIndicators(tipo: EcfType): number[] {
  const key: Record<number, string> = { 0: 'monto_no_facturable', 1: 'monto_gravado_i1', 2: 'monto_gravado_i2', 3: 'monto_gravado_i3', 4: 'monto_exento' };
  return [1, 2, 3, 4, 0].filter((i) => allowsPath(tipo, `totales.${key[i]}`));
}

const dec = (n: number): Dec => fromNumber(n)!;
const num = (d: Dec): number => toNumber(d);
const r2 = (d: Dec): Dec => round(d, 2);
const pct = (rate: number): Dec => div(dec(rate), fromInt(100));

function fmtDate(day: number): string {
  const d = new Date(day * 86_400_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${d.getUTCFullYear()}`;
}

/** Random date `from`..`to` days after `base` (`dd-MM-yyyy`). */
function dateAround(rng: Rng, base: string, from: number, to: number): string {
  return fmtDate(dayNumber(base)! + rng.int(from, to));
}

/** Removes empty objects and arrays, recursively (an empty optional group has no XML and parses back as absent). */
function pruneEmpty(v: any): any {
  if (Array.isArray(v)) return v.map(pruneEmpty);
  if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      const x = pruneEmpty(v[k]);
      if (x === undefined || (typeof x === 'object' && x !== null && !Array.isArray(x) && Object.keys(x).length === 0) || (Array.isArray(x) && x.length === 0))
        delete v[k];
      else v[k] = x;
    }
  }
  return v;
}

const ISC_SPECIFIC = ['006', '007', '010', '013', '014', '016', '017', '019', '021'];
const ISC_ADVALOREM = ['023', '024', '028', '030', '036', '038'];
const OTHER_TAXES = Object.keys(OTHER_TAX_RATES);

/** Ad-valorem rates of the DGII table (10 % alcohol 023–035, 20 % tobacco 036–039). */
function adValoremRate(code: string): number {
  return Number(code) >= 36 ? 20 : 10;
}

/** Additional-tax codes the type can carry (44: only 001–005; none on 41, 43, 46, 47). */
function taxCodes(tipo: EcfType): string[] {
  if (!allowsPath(tipo, 'items[].impuestos_adicionales')) return [];
  const kinds = (['otros', 'especifico', 'advalorem'] as const).filter((k) =>
    allowsPath(
      tipo,
      `totales.impuestos_adicionales[].${k === 'otros' ? 'otros_impuestos_adicionales' : k === 'especifico' ? 'monto_impuesto_selectivo_consumo_especifico' : 'monto_impuesto_selectivo_consumo_advalorem'}`,
    ),
  );
  return [
    ...(kinds.includes('otros') ? OTHER_TAXES : []),
    ...(kinds.includes('especifico') ? ISC_SPECIFIC : []),
    ...(kinds.includes('advalorem') ? ISC_ADVALOREM : []),
  ];
}

/** A random e-NCF / NCF of the modified receipt: series E (13), B (11) or A/P (19). */
function randomNcf(rng: Rng, paperType?: string): string {
  if (paperType) return `B${paperType}${rng.digits(8)}`;
  const r = rng.next();
  if (r < 0.7) return `E${rng.pick(['31', '32', '41', '43', '44', '45', '46', '47'])}${rng.digits(10)}`;
  if (r < 0.9) return `B${rng.pick(['01', '02', '14', '15'])}${rng.digits(8)}`;
  return `${rng.pick(['A', 'P'])}${rng.digits(18)}`;
}

/** Paper NCF type each e-CF type replaces (contingency, code 4). */
const PAPER_TYPE: Record<EcfType, string> = {
  '31': '01',
  '32': '02',
  '33': '03',
  '34': '04',
  '41': '11',
  '43': '13',
  '44': '14',
  '45': '15',
  '46': '16',
  '47': '17',
};

function fixIdDoc(tipo: EcfType, doc: Json, rng: Rng, issued: string): void {
  const id: Json = (doc.id_doc ??= {});
  if (allowsPath(tipo, 'id_doc.tipo_ingresos') && ['33', '34'].includes(tipo)) id.tipo_ingresos ??= rng.pick(['01', '02', '03', '04', '05', '06']);
  if (id.tipo_pago === '2' && allowsPath(tipo, 'id_doc.fecha_limite_pago')) id.fecha_limite_pago ??= '';
  if (id.fecha_limite_pago !== undefined) id.fecha_limite_pago = dateAround(rng, issued, 0, 120);
  if (id.fecha_desde !== undefined || id.fecha_hasta !== undefined) {
    const a = dateAround(rng, issued, -90, 0);
    if (id.fecha_desde !== undefined) id.fecha_desde = a;
    if (id.fecha_hasta !== undefined) id.fecha_hasta = fmtDate(dayNumber(a)! + rng.int(0, 60));
  }
  delete id.total_paginas; // set by the pagination, when there is one
}

function fixComprador(doc: Json, rng: Rng): void {
  const c: Json | undefined = doc.comprador;
  if (!c) return;
  if (c.provincia !== undefined || c.municipio !== undefined) {
    const prov = rng.pick(PROVINCES);
    if (c.provincia !== undefined) c.provincia = prov;
    if (c.municipio !== undefined) c.municipio = rng.pick(MUNICIPALITIES.get(prov)!);
  }
}

/** Line amounts: quantities, prices, sub-discounts and sub-surcharges that add up; indicator and taxes per type. */
function fixItems(tipo: EcfType, doc: Json, rng: Rng, exact: boolean): void {
  const indicators = typeIndicators(tipo);
  const codes = taxCodes(tipo);
  for (const it of doc.items as Json[]) {
    delete it.monto;
    it.indicador_facturacion = rng.pick(indicators);
    it.cantidad = exact ? rng.int(1, 20) : amount(rng, 0.01, rng.chance(0.5) ? 20 : 500, rng.pick([0, 0, 1, 2]));
    it.precio_unitario = exact ? rng.int(1, 4000) / 2 : amount(rng, 0, 5000, rng.pick([0, 2, 2, 4]));
    if (rng.chance(0.05) && !exact) it.precio_unitario = 0;
    const base = mul(dec(it.precio_unitario), dec(it.cantidad));
    for (const [list, total] of [
      ['sub_descuentos', 'descuento_monto'],
      ['sub_recargos', 'recargo_monto'],
    ] as const) {
      delete it[total];
      if (!Array.isArray(it[list])) continue;
      let s = ZERO;
      for (const x of it[list] as Json[]) {
        if (x.tipo === '%' && !exact) {
          x.porcentaje = amount(rng, 0.01, list === 'sub_descuentos' ? 10 : 20, rng.pick([0, 2]));
          x.monto = num(r2(mul(base, pct(x.porcentaje))));
        } else {
          x.tipo = '$';
          delete x.porcentaje;
          x.monto = exact ? rng.int(0, 20) / 2 : num(r2(mul(base, pct(amount(rng, 0, 5, 2)))));
        }
        s = add(s, dec(x.monto));
      }
      it[total] = num(s);
    }
    if (lineAmount(it) < 0) {
      // A discount larger than the line: drop the discount.
      delete it.sub_descuentos;
      delete it.descuento_monto;
    }
    // Withholding: indicator plus at least one amount.
    if (it.retencion) {
      const r: Json = it.retencion;
      r.indicador ??= rng.pick(['1', '2']);
      const field = allowsPath(tipo, 'items[].retencion.isr_retenido') ? 'isr_retenido' : null;
      if (field) r[field] = amount(rng, 0, Math.max(1, lineAmount(it) * 0.27), 2);
      else if (r.monto_itbis_retenido === undefined && r.monto_isr_retenido === undefined) r[rng.pick(['monto_itbis_retenido', 'monto_isr_retenido'])] = 0;
      for (const k of ['monto_itbis_retenido', 'monto_isr_retenido']) if (r[k] !== undefined) r[k] = amount(rng, 0, Math.max(1, lineAmount(it) * 0.3), 2);
    }
    // Additional taxes: distinct codes the type admits, and the item data each ISC code needs.
    if (Array.isArray(it.impuestos_adicionales)) {
      if (codes.length === 0) delete it.impuestos_adicionales;
      else {
        const picked = new Set<string>();
        for (const t of it.impuestos_adicionales as Json[]) {
          let c = rng.pick(codes);
          while (picked.has(c)) c = rng.pick(codes);
          picked.add(c);
          t.tipo_impuesto = c;
        }
        for (const c of picked) {
          const n = Number(c);
          if (n >= 6 && n <= 22 && allowsPath(tipo, 'items[].cantidad_referencia')) {
            it.cantidad_referencia ??= amount(rng, 0.1, 500, 2);
            it.unidad_referencia ??= rng.pick(['24', '15', '43']);
          }
          if (n >= 6 && n <= 39 && allowsPath(tipo, 'items[].subcantidades')) it.subcantidades ??= [{ cantidad: amount(rng, 0.1, 5, 3), codigo: '24' }];
          if (n >= 6 && n <= 18 && allowsPath(tipo, 'items[].grados_alcohol')) it.grados_alcohol ??= amount(rng, 4, 60, 1);
          if (n >= 23 && n <= 39 && allowsPath(tipo, 'items[].precio_unitario_referencia')) it.precio_unitario_referencia ??= amount(rng, 1, 2000, 2);
        }
      }
    }
    if (it.cantidad_referencia !== undefined && allowsPath(tipo, 'items[].unidad_referencia')) it.unidad_referencia ??= '43';
    if (it.fecha_elaboracion !== undefined && it.fecha_vencimiento !== undefined && dayNumber(it.fecha_elaboracion)! > dayNumber(it.fecha_vencimiento)!) {
      [it.fecha_elaboracion, it.fecha_vencimiento] = [it.fecha_vencimiento, it.fecha_elaboracion];
    }
    delete it.otra_moneda; // recomputed from the header rate, if any
  }
}

/** The `totales.impuestos_adicionales` entries the item codes call for: legal rates; ISC amounts chosen here. */
function taxEntries(doc: Json, rng: Rng): Json[] {
  const seen: string[] = [];
  for (const it of doc.items as Json[])
    for (const t of (it.impuestos_adicionales ?? []) as Json[]) if (!seen.includes(t.tipo_impuesto)) seen.push(t.tipo_impuesto);
  const out: Json[] = [];
  for (const code of seen) {
    const kind = additionalTaxKind(code);
    if (kind === 'otros') continue; // fillTotals computes 001–005 from the lines
    if (kind === 'especifico')
      out.push({ tipo_impuesto: code, tasa_impuesto_adicional: amount(rng, 1, 999, 2), monto_impuesto_selectivo_consumo_especifico: amount(rng, 10, 5000, 2) });
    if (kind === 'advalorem')
      out.push({ tipo_impuesto: code, tasa_impuesto_adicional: adValoremRate(code), monto_impuesto_selectivo_consumo_advalorem: amount(rng, 10, 5000, 2) });
  }
  return out;
}

function lineSum(doc: Json, indicator: number): Dec {
  return (doc.items as Json[]).reduce((a: Dec, it) => (it.indicador_facturacion === indicator ? add(a, dec(lineAmount(it))) : a), ZERO);
}

/** Global discounts/surcharges on indicators some item has; "%" amounts computed; never more than the base. */
function fixDescuentosRecargos(_tipo: EcfType, doc: Json, rng: Rng, exact: boolean): void {
  if (!Array.isArray(doc.descuentos_recargos)) return;
  const present = [...new Set((doc.items as Json[]).map((i) => i.indicador_facturacion as number))].filter((i) => i !== 0);
  if (present.length === 0) {
    delete doc.descuentos_recargos;
    return;
  }
  const discounted: Record<number, Dec> = {};
  doc.descuentos_recargos = (doc.descuentos_recargos as Json[]).filter((dr) => {
    const ind = rng.pick(present);
    const base = lineSum(doc, ind);
    dr.indicador_facturacion = ind;
    delete dr.monto_otra_moneda;
    if (dr.tipo_valor === '%' && !exact) {
      dr.valor = amount(rng, 0.01, 10, rng.pick([0, 2]));
      dr.monto = num(r2(mul(base, pct(dr.valor))));
    } else {
      dr.tipo_valor = '$';
      delete dr.valor;
      dr.monto = exact ? rng.int(0, 40) / 2 : num(r2(mul(base, pct(amount(rng, 0, 5, 2)))));
    }
    if (dr.tipo_ajuste === 'D') {
      const after = add(discounted[ind] ?? ZERO, dec(dr.monto));
      if (after > base) return false;
      discounted[ind] = after;
    }
    // Norma 10-07 telecom billing only with taxed lines at rate 1, and only sometimes.
    if (dr.indicador_norma_1007 !== undefined) dr.indicador_norma_1007 = dr.tipo_ajuste === 'D' && ind === 1 && rng.chance(0.15) ? 1 : 0;
    return true;
  });
  if (doc.descuentos_recargos.length === 0) delete doc.descuentos_recargos;
}

/** Reference of 33/34 (required) and of the other types (optional): codes, series and dates the rules accept. */
function fixReferencia(tipo: EcfType, doc: Json, rng: Rng, issued: string): void {
  const r: Json | undefined = doc.referencia;
  if (!r) return;
  const notes = tipo === '33' || tipo === '34';
  r.fecha_ncf_modificado = dateAround(rng, issued, -90, 0);
  if (notes) {
    r.codigo_modificacion = rng.pick(['1', '3', '3', '4', ...(rng.chance(0.15) ? ['2'] : [])]);
    r.ncf_modificado = randomNcf(rng);
    // Code 4 replaces a contingency NCF: a paper one is of the equivalent type (B03 for 33, B04 for 34).
    if (r.codigo_modificacion === '4' && r.ncf_modificado.startsWith('B')) r.ncf_modificado = randomNcf(rng, PAPER_TYPE[tipo]);
  } else {
    r.codigo_modificacion = tipo === '31' && rng.chance(0.5) ? '5' : '4';
    r.ncf_modificado =
      r.codigo_modificacion === '4' && rng.chance(0.5)
        ? randomNcf(rng, PAPER_TYPE[tipo])
        : r.codigo_modificacion === '5'
          ? `E32${rng.digits(10)}`
          : `E${tipo}${rng.digits(10)}`;
  }
  if (tipo === '34') {
    const days = dayNumber(issued)! - dayNumber(r.fecha_ncf_modificado)!;
    doc.id_doc.indicador_nota_credito = days > 30 ? 1 : 0;
  }
}

/** Code 2 (text correction) on notes: every amount is zero. */
function zeroForTextCorrection(doc: Json): void {
  if (doc.referencia?.codigo_modificacion !== '2') return;
  for (const it of doc.items as Json[]) {
    it.precio_unitario = 0;
    for (const k of ['sub_descuentos', 'descuento_monto', 'sub_recargos', 'recargo_monto', 'impuestos_adicionales']) delete it[k];
  }
  delete doc.descuentos_recargos;
}

const OM_KEYS = [
  'monto_gravado_total',
  'monto_gravado_i1',
  'monto_gravado_i2',
  'monto_gravado_i3',
  'monto_exento',
  'total_itbis',
  'total_itbis1',
  'total_itbis2',
  'total_itbis3',
  'monto_impuesto_adicional',
  'monto_total',
];
const TAX_AMOUNTS = ['monto_impuesto_selectivo_consumo_especifico', 'monto_impuesto_selectivo_consumo_advalorem', 'otros_impuestos_adicionales'];

/** Other currency: every amount is the DOP amount / tipo_cambio; items and global adjustments at random. */
function fillOtraMoneda(tipo: EcfType, doc: Json, rng: Rng): void {
  const om: Json | undefined = doc.otra_moneda;
  if (!om) return;
  // Pesos per unit of the other currency; kept moderate so that converted amounts > 0 stay > 0.
  om.tipo_cambio = amount(rng, 0.5, 120, rng.pick([2, 4]));
  const t: Json = doc.totales;
  // Amounts that must stay > 0 once converted (additional taxes) bound the rate: at most their value / 0.01.
  const positive = [t.monto_impuesto_adicional, ...((t.impuestos_adicionales ?? []) as Json[]).flatMap((e) => TAX_AMOUNTS.map((f) => e[f]))].filter(
    (v): v is number => typeof v === 'number' && v > 0,
  );
  if (positive.length) om.tipo_cambio = Math.min(om.tipo_cambio, Math.floor(Math.min(...positive) * 100) / 100);
  const rate = dec(om.tipo_cambio);
  const conv = (v: number) => num(r2(div(dec(v), rate)));
  const out: Json = { tipo_moneda: om.tipo_moneda ?? 'USD', tipo_cambio: om.tipo_cambio };
  for (const k of OM_KEYS) if (t[k] !== undefined && allowsPath(tipo, `otra_moneda.${k}`)) out[k] = conv(t[k]);
  if (Array.isArray(t.impuestos_adicionales) && allowsPath(tipo, 'otra_moneda.impuestos_adicionales') && rng.chance(0.7)) {
    out.impuestos_adicionales = (t.impuestos_adicionales as Json[]).map((e) => {
      const o: Json = { tipo_impuesto: e.tipo_impuesto, tasa_impuesto_adicional: e.tasa_impuesto_adicional };
      for (const f of TAX_AMOUNTS) if (e[f] !== undefined) o[f] = conv(e[f]);
      return o;
    });
  }
  doc.otra_moneda = out;
  for (const it of doc.items as Json[]) {
    if (!rng.chance(0.6)) continue;
    const precio = round(div(dec(it.precio_unitario), rate), 4);
    const x: Json = { precio: num(precio) };
    let m = mul(precio, dec(it.cantidad));
    if (it.descuento_monto !== undefined && allowsPath(tipo, 'items[].otra_moneda.descuento')) {
      x.descuento = conv(it.descuento_monto);
      m = sub(m, dec(x.descuento));
    }
    if (it.recargo_monto !== undefined && allowsPath(tipo, 'items[].otra_moneda.recargo')) {
      x.recargo = conv(it.recargo_monto);
      m = add(m, dec(x.recargo));
    }
    if (m < 0n) continue;
    x.monto = num(r2(m));
    it.otra_moneda = x;
  }
  for (const dr of (doc.descuentos_recargos ?? []) as Json[]) if (rng.chance(0.6)) dr.monto_otra_moneda = conv(dr.monto);
}

/** Figures of a range of lines, as the pagination rule computes them (bases, ITBIS per rate, exempt, not billable). */
function rangeFigures(doc: Json, from: number, to: number): Record<string, Dec> {
  const sums: Record<number, Dec> = {};
  const gross = doc.id_doc?.indicador_monto_gravado === 1;
  (doc.items as Json[]).forEach((it, i) => {
    if (i + 1 < from || i + 1 > to) return;
    sums[it.indicador_facturacion] = add(sums[it.indicador_facturacion] ?? ZERO, dec(it.monto));
  });
  const k: Record<string, Dec> = {};
  for (const ind of [1, 2, 3] as const) {
    if (sums[ind] === undefined) continue;
    const rate = ITBIS_RATES[ind];
    const base = gross && rate > 0 ? r2(div(sums[ind]!, add(fromInt(1), pct(rate)))) : sums[ind]!;
    k[`i${ind}`] = base;
    k[`t${ind}`] = r2(mul(base, pct(rate)));
  }
  if (sums[4] !== undefined) k.exento = sums[4]!;
  if (sums[0] !== undefined) k.nofact = sums[0]!;
  return k;
}

const PAGE_TARGET: Record<string, string> = {
  i1: 'monto_gravado_i1',
  i2: 'monto_gravado_i2',
  i3: 'monto_gravado_i3',
  t1: 'total_itbis1',
  t2: 'total_itbis2',
  t3: 'total_itbis3',
  exento: 'monto_exento',
  nofact: 'monto_no_facturable',
};

/**
 * Pagination over `ranges` of lines. Without global discounts/surcharges every page carries exactly its lines'
 * figures, and the split is rejected (null) unless the pages add up to the totals to the cent (per-page ITBIS
 * rounding can break that). With them (which the rule cannot attribute to a page) the documents' figures are spread
 * over the pages in proportion to their lines, the last page taking the remainder. Additional taxes are spread the
 * same way.
 */
function buildPages(tipo: EcfType, doc: Json, ranges: Array<[number, number]>): Json[] | null {
  const t: Json = doc.totales;
  const hasGlobal = Array.isArray(doc.descuentos_recargos) && doc.descuentos_recargos.length > 0;
  const noItbis = doc.id_doc?.indicador_nota_credito === 1;
  const figs = ranges.map(([a, b]) => rangeFigures(doc, a, b));
  for (const [k, key] of Object.entries(PAGE_TARGET)) {
    const target = t[key] === undefined ? (k.startsWith('t') && figs.some((f) => f[k] !== undefined) && !noItbis ? null : ZERO) : dec(t[key]);
    const s = figs.reduce((a, f) => add(a, f[k] ?? ZERO), ZERO);
    if (target === null) return null;
    if (noItbis && k.startsWith('t')) continue;
    if (s === target) continue;
    if (!hasGlobal) return null;
    // Spread the document figure over the pages holding it, in proportion.
    const holders = figs.map((f, j) => [j, f[k]] as const).filter(([, v]) => v !== undefined && v !== ZERO);
    if (holders.length === 0) return null;
    let left = target;
    holders.forEach(([j, v], n) => {
      const share = n === holders.length - 1 ? left : r2(div(mul(target, v!), s));
      figs[j]![k] = share;
      left = sub(left, share);
    });
  }
  if (figs.some((f) => Object.values(f).some((v) => v < 0n))) return null;
  const taxes = (t.impuestos_adicionales ?? []) as Json[];
  const sumTax = (fields: string[]) => taxes.reduce((a: Dec, e) => fields.reduce((b: Dec, f) => (e[f] === undefined ? b : add(b, dec(e[f]))), a), ZERO);
  const isc = sumTax(['monto_impuesto_selectivo_consumo_especifico', 'monto_impuesto_selectivo_consumo_advalorem']);
  const otros = sumTax(['otros_impuestos_adicionales']);
  const n = ranges.length;
  const spread = (total: Dec): Dec[] => {
    const out: Dec[] = [];
    let left = total;
    ranges.forEach(([a, b], j) => {
      const share = j === n - 1 ? left : r2(div(mul(total, fromInt(b - a + 1)), fromInt(doc.items.length)));
      out.push(share);
      left = sub(left, share);
    });
    return out;
  };
  const iscs = spread(isc);
  const others = spread(otros);
  return figs.map((f, j) => {
    const [a, b] = ranges[j]!;
    const p: Json = { pagina: j + 1, no_linea_desde: a, no_linea_hasta: b };
    const gravados = [1, 2, 3].filter((i) => f[`i${i}`] !== undefined && allowsPath(tipo, `paginacion[].monto_gravado_i${i}`));
    let gravado = ZERO;
    let itbis = ZERO;
    if (gravados.length) {
      gravado = gravados.reduce((x, i) => add(x, f[`i${i}`]!), ZERO);
      p.monto_gravado = num(gravado);
      for (const i of gravados) p[`monto_gravado_i${i}`] = num(f[`i${i}`]!);
      if (!noItbis) {
        itbis = gravados.reduce((x, i) => add(x, f[`t${i}`]!), ZERO);
        p.itbis = num(itbis);
        for (const i of gravados) p[`itbis${i}`] = num(f[`t${i}`]!);
      }
    }
    if (f.exento !== undefined) p.exento = num(f.exento);
    const adicional = add(iscs[j]!, others[j]!);
    if (adicional > 0n && allowsPath(tipo, 'paginacion[].impuesto_adicional')) {
      p.impuesto_adicional = num(adicional);
      p.detalle_impuesto_adicional = {};
      if (iscs[j]! > 0n) p.detalle_impuesto_adicional.impuesto_selectivo_consumo_especifico = num(iscs[j]!);
      if (others[j]! > 0n) p.detalle_impuesto_adicional.otros_impuestos = num(others[j]!);
    }
    p.monto = num(add(add(gravado, itbis), add(f.exento ?? ZERO, adicional)));
    if (f.nofact !== undefined && allowsPath(tipo, 'paginacion[].monto_no_facturable')) p.monto_no_facturable = num(f.nofact);
    return p;
  });
}

/** Tries a few splits of the lines into 2–4 pages; keeps the first that adds up. */
function fillPaginacion(tipo: EcfType, doc: Json, rng: Rng): void {
  const n = (doc.items as Json[]).length;
  delete doc.paginacion;
  if (n < 2) return;
  for (let attempt = 0; attempt < 12; attempt++) {
    const pages = rng.int(2, Math.min(4, n));
    const cuts = new Set<number>();
    while (cuts.size < pages - 1) cuts.add(rng.int(1, n - 1));
    const bounds = [0, ...[...cuts].sort((a, b) => a - b), n];
    const ranges = bounds.slice(1).map((b, j) => [bounds[j]! + 1, b] as [number, number]);
    const built = buildPages(tipo, doc, ranges);
    if (built) {
      doc.paginacion = built;
      doc.id_doc = { ...(doc.id_doc ?? {}), total_paginas: built.length };
      return;
    }
  }
}

/** Informative subtotals over random line ranges; a random subset of figures, `monto` consistent with them. */
function fillSubtotales(tipo: EcfType, doc: Json, rng: Rng): void {
  const n = (doc.items as Json[]).length;
  const count = (doc.subtotales as Json[]).length;
  doc.subtotales = Array.from({ length: count }, (_, j) => {
    const a = rng.int(1, n);
    const b = rng.int(a, n);
    const f = rangeFigures(doc, a, b);
    const s: Json = {};
    if (rng.chance(0.8)) s.numero = j + 1;
    if (rng.chance(0.7)) s.descripcion = text(rng, 1, 40);
    if (rng.chance(0.5)) s.orden = rng.int(1, 20);
    const gravados = [1, 2, 3].filter((i) => f[`i${i}`] !== undefined && allowsPath(tipo, `subtotales[].monto_gravado_i${i}`));
    let gravado: Dec | null = null;
    let itbis: Dec | null = null;
    if (gravados.length) {
      const keepRates = rng.chance(0.7);
      gravado = gravados.reduce((x, i) => add(x, f[`i${i}`]!), ZERO);
      itbis = gravados.reduce((x, i) => add(x, f[`t${i}`]!), ZERO);
      s.monto_gravado_total = num(gravado);
      if (keepRates) for (const i of gravados) s[`monto_gravado_i${i}`] = num(f[`i${i}`]!);
      if (doc.id_doc?.indicador_nota_credito === 1) itbis = null;
      else {
        s.itbis = num(itbis);
        if (keepRates) for (const i of gravados) s[`itbis${i}`] = num(f[`t${i}`]!);
      }
    }
    if (allowsPath(tipo, 'subtotales[].impuesto_adicional') && rng.chance(0.2)) s.impuesto_adicional = amount(rng, 0, 500, 2);
    if (f.exento !== undefined && allowsPath(tipo, 'subtotales[].exento')) s.exento = num(f.exento);
    const parts = [gravado, itbis, s.impuesto_adicional !== undefined ? dec(s.impuesto_adicional) : null, s.exento !== undefined ? dec(s.exento) : null];
    s.monto = num(parts.reduce((x: Dec, v) => (v === null ? x : add(x, v)), ZERO));
    if (rng.chance(0.7)) s.lineas = Math.min(b - a + 1, 99);
    return s;
  });
}

/** Payment forms add up to what is paid: valor_pagar when declared and not negative, else monto_total. */
function fillFormasPago(tipo: EcfType, doc: Json, rng: Rng): void {
  const forms: Json[] | undefined = doc.id_doc?.formas_pago;
  if (!forms) return;
  const t: Json = doc.totales;
  const target = dec(t.valor_pagar !== undefined && t.valor_pagar >= 0 ? t.valor_pagar : t.monto_total);
  let left = target;
  forms.forEach((f, j) => {
    if (f.forma === '5' && tipo !== '32') f.forma = rng.pick(['1', '2', '3', '4']);
    const share = j === forms.length - 1 ? left : r2(mul(left, pct(rng.int(0, 100))));
    f.monto = num(share);
    left = sub(left, share);
  });
}

/** Keeps only `totales` keys the caller chooses (balances); the rest is computed by fillTotals. */
function totalesInputs(doc: Json, rng: Rng): Json {
  const t: Json = doc.totales ?? {};
  const out: Json = {};
  if (t.saldo_anterior !== undefined) out.saldo_anterior = amount(rng, -5000, 20000, 2);
  if (t.monto_avance_pago !== undefined) out.monto_avance_pago = amount(rng, 0, 5000, 2);
  if (t.monto_periodo !== undefined) out.monto_periodo = 0;
  if (t.valor_pagar !== undefined) out.valor_pagar = 0;
  return out;
}

export interface Generated {
  tipo: EcfType;
  /** Index in the corpus of its type (reproduce with the same seed). */
  index: number;
  doc: CanonicalDocument;
  context: BuildContext;
}

/** A random build context: random issuer profile, e-NCF, issue date 2025–2027, sequence expiry after it. */
export function randomContext(tipo: EcfType, rng: Rng): BuildContext {
  const issued = randomDate(rng, 2025, 2027);
  const ctx: BuildContext = { emisor: randomIssuer(tipo, rng), encf: `E${tipo}${rng.digits(10)}`, fecha_emision: issued };
  if (hasSequenceExpiry(tipo)) ctx.fecha_vencimiento_secuencia = dateAround(rng, issued, 0, 700);
  return ctx;
}

/**
 * One random valid document of `tipo` with its context. The shape comes from the table (random subset of optional
 * fields, values from facets); the business pass makes it consistent; `fillTotals` computes the totals.
 */
export function generateDocument(tipo: EcfType, rng: Rng, options: GenerateOptions = {}): { doc: CanonicalDocument; context: BuildContext } {
  const context = randomContext(tipo, rng);
  const density = options.density ?? rng.pick([0.05, 0.3, 0.5, 0.8, 1]);
  const doc = randomShape(tipo, rng, density);
  if (options.maxItems !== undefined && doc.items.length > options.maxItems) doc.items.length = options.maxItems;
  const issued = context.fecha_emision;
  // Pagination needs amounts whose per-page ITBIS adds up to the document's: half-unit prices and whole quantities.
  const wantPages = Array.isArray(doc.paginacion) && doc.items.length > 1;
  fixIdDoc(tipo, doc, rng, issued);
  fixComprador(doc, rng);
  fixReferencia(tipo, doc, rng, issued);
  fixItems(tipo, doc, rng, wantPages);
  zeroForTextCorrection(doc);
  fixDescuentosRecargos(tipo, doc, rng, wantPages);
  const taxes = taxEntries(doc, rng);
  const inputs = totalesInputs(doc, rng);
  doc.totales = { ...inputs, ...(taxes.length ? { impuestos_adicionales: taxes } : {}) };
  let filled: Json = fillTotals(tipo, doc);
  // A code 001–005 on lines whose tax rounds to 0 cannot be declared (the XSD wants an amount > 0): drop it.
  const declared = new Set(((filled.totales.impuestos_adicionales ?? []) as Json[]).map((t) => t.tipo_impuesto));
  let dropped = false;
  for (const it of doc.items as Json[]) {
    if (!Array.isArray(it.impuestos_adicionales)) continue;
    const keep = (it.impuestos_adicionales as Json[]).filter((t) => declared.has(t.tipo_impuesto));
    if (keep.length === it.impuestos_adicionales.length) continue;
    dropped = true;
    if (keep.length) it.impuestos_adicionales = keep;
    else delete it.impuestos_adicionales;
  }
  if (dropped) filled = fillTotals(tipo, doc);
  // A 32 at or above the consumer threshold identifies its buyer.
  const threshold = ECF_TYPE_INFO[tipo].summaryThreshold;
  if (threshold && filled.totales.monto_total >= Number(threshold)) {
    filled.comprador = { ...(filled.comprador ?? {}), razon_social: filled.comprador?.razon_social ?? 'Consumidor identificado' };
    if (filled.comprador.rnc === undefined && filled.comprador.identificador_extranjero === undefined) filled.comprador.rnc = randomRnc(rng);
  }
  if (filled.informaciones_adicionales?.total_fob !== undefined && filled.totales.monto_total > 0)
    filled.informaciones_adicionales.total_fob = filled.totales.monto_total;
  fillOtraMoneda(tipo, filled, rng);
  if (wantPages) fillPaginacion(tipo, filled, rng);
  else delete filled.paginacion;
  if (Array.isArray(filled.subtotales)) fillSubtotales(tipo, filled, rng);
  fillFormasPago(tipo, filled, rng);
  filled = pruneEmpty(filled);
  return { doc: filled as CanonicalDocument, context };
}

/** `count` documents of `tipo` from `seed` (each type has its own stream, so adding a type changes no other). */
export function generateCorpus(tipo: EcfType, count: number, seed = corpusSeed(), options: GenerateOptions = {}): Generated[] {
  const rng = new Rng(seed ^ (Number(tipo) * 0x9e3779b1));
  return Array.from({ length: count }, (_, index) => ({ tipo, index, ...generateDocument(tipo, rng, options) }));
}

/**
 * Layer 1: shape and formats of the canonical JSON, derived entirely from the field table.
 * Collects every issue; returns a "clean" copy holding only the values that passed, so that business
 * rules can read typed values without re-checking them.
 */
import type { Issue } from '../../shared/issues.js';
import { es } from '../messages/es.js';
import { withHint } from '../messages/hints.js';
import { COUNTRY_NAMES } from '../spec/countries.gen.js';
import { ECF_TABLE } from '../spec/ecf-table.gen.js';
import { amountBounds, parseDate, parseDateTime } from '../spec/formats.js';
import { ECF_TYPES, type DocTable, type EcfType, type Facets } from '../spec/model.js';
import { jsonFields, xmlTree, type JsonField } from '../spec/tree.js';
import { decimalsOf, numberText } from '../../shared/money/decimal.js';

type Json = Record<string, unknown>;

export interface ShapeOptions {
  /** Array fields whose upper bound is checked by a business rule instead (e.g. `items`). */
  uncappedArrays?: ReadonlySet<string>;
}

interface Compiled {
  fields: JsonField[];
  /** For each object path pattern, the keys any type allows (to tell "not allowed here" from "unknown"). */
  keysAnyType: Map<string, Set<string>>;
}

const compiledCache = new Map<string, Compiled>();

function compile(table: DocTable, tipo: string, source: 'doc' | 'issuer'): Compiled {
  const cacheKey = `${table.root}:${tipo}:${source}`;
  const hit = compiledCache.get(cacheKey);
  if (hit) return hit;
  const keysAnyType = new Map<string, Set<string>>();
  const collect = (fs: JsonField[], at: string) => {
    let set = keysAnyType.get(at);
    if (!set) keysAnyType.set(at, (set = new Set()));
    for (const f of fs) {
      set.add(f.key);
      if (f.fields) collect(f.fields, f.json);
    }
  };
  const types = table.root === 'ECF' ? ECF_TYPES : ['*'];
  for (const t of types) collect(jsonFields(xmlTree(table, t), source), '');
  const c = { fields: jsonFields(xmlTree(table, tipo), source), keysAnyType };
  compiledCache.set(cacheKey, c);
  return c;
}

const regexCache = new Map<string, RegExp>();
function regex(src: string): RegExp {
  let r = regexCache.get(src);
  if (!r) regexCache.set(src, (r = new RegExp(src, 'u')));
  return r;
}

/**
 * Characters a value may not hold: C0 controls other than tab and line feed (CR is dropped by DGII's own
 * canonicaliser), DEL, and everything XML 1.0 excludes (U+FFFE, U+FFFF, lone surrogates).
 */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isPlainObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface ShapeResult {
  issues: Issue[];
  clean: Json;
}

/** Validates the request JSON of type `tipo` against the table. */
export function checkShape(tipo: EcfType, input: unknown, options: ShapeOptions = {}): ShapeResult {
  return checkShapeOf(ECF_TABLE, tipo, input, 'doc', options);
}

/** Same, for any table and source (the issuer profile uses source `issuer`). */
export function checkShapeOf(table: DocTable, tipo: string, input: unknown, source: 'doc' | 'issuer', options: ShapeOptions = {}, basePath = ''): ShapeResult {
  const issues: Issue[] = [];
  if (!isPlainObject(input)) {
    issues.push({ code: 'invalid_type', path: basePath, message: es.invalid_root, severity: 'error' });
    return { issues, clean: {} };
  }
  const c = compile(table, tipo, source);
  const clean = walkObject(c, c.fields, '', input, basePath, tipo, issues, options);
  return { issues, clean };
}

function join(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`;
}

function walkObject(c: Compiled, fields: JsonField[], pattern: string, obj: Json, path: string, tipo: string, issues: Issue[], options: ShapeOptions): Json {
  const out: Json = {};
  const known = new Set<string>();
  for (const f of fields) {
    known.add(f.key);
    const v = obj[f.key];
    const p = join(path, f.key);
    if (v === undefined || v === null || (f.array && Array.isArray(v) && v.length === 0 && !f.required)) {
      if (f.required) issues.push({ code: 'required', path: p, message: withHint(es.required, 'required', f.json, tipo), severity: 'error' });
      continue;
    }
    if (f.array) {
      if (!Array.isArray(v)) {
        issues.push({ code: 'invalid_type', path: p, message: es.expected_array, severity: 'error' });
        continue;
      }
      if (v.length < f.minItems) issues.push({ code: 'too_few', path: p, message: es.too_few(f.minItems), severity: 'error' });
      if (v.length > f.maxItems && !options.uncappedArrays?.has(f.json)) {
        issues.push({ code: 'too_many', path: p, message: es.too_many(f.maxItems), severity: 'error' });
      }
      const arr: unknown[] = [];
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        const ip = join(p, i);
        if (item === null || item === undefined) {
          issues.push({ code: 'required', path: ip, message: es.required, severity: 'error' });
          arr.push(undefined);
        } else if (f.fields) {
          if (!isPlainObject(item)) {
            issues.push({ code: 'invalid_type', path: ip, message: es.expected_object, severity: 'error' });
            arr.push(undefined);
          } else arr.push(walkObject(c, f.fields, f.json, item, ip, tipo, issues, options));
        } else arr.push(checkValue(f, item, ip, issues));
      }
      out[f.key] = arr;
      continue;
    }
    if (f.fields) {
      if (!isPlainObject(v)) {
        issues.push({ code: 'invalid_type', path: p, message: es.expected_object, severity: 'error' });
        continue;
      }
      out[f.key] = walkObject(c, f.fields, f.json, v, p, tipo, issues, options);
      continue;
    }
    const cv = checkValue(f, v, p, issues);
    if (cv !== undefined) out[f.key] = cv;
  }
  for (const k of Object.keys(obj)) {
    if (known.has(k)) continue;
    const elsewhere = c.keysAnyType.get(pattern)?.has(k);
    if (elsewhere && obj[k] !== null && obj[k] !== undefined) {
      const message = withHint(es.not_allowed_for_type(tipo), 'not_allowed', pattern === '' ? k : `${pattern}.${k}`, tipo);
      issues.push({ code: 'not_allowed', path: join(path, k), message, severity: 'error' });
    } else if (!elsewhere) {
      issues.push({ code: 'unknown_field', path: join(path, k), message: es.unknown_field, severity: 'error' });
    }
  }
  return out;
}

/** Checks one value; returns it when valid, undefined otherwise (after recording the issue). */
function checkValue(f: JsonField, v: unknown, path: string, issues: Issue[]): unknown {
  const facets = f.xml.facets!;
  const bad = (code: Issue['code'], message: string) => {
    issues.push({ code, path, message, severity: 'error' });
    return undefined;
  };
  switch (f.xml.jsonKind) {
    case 'code':
      if (typeof v !== 'string') return bad('invalid_type', es.expected_code_string);
      if (facets.enumeration && !facets.enumeration.includes(v)) return bad('enum', es.enum(facets.enumeration));
      return checkPattern(facets, v, bad) ? v : undefined;
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) return bad('invalid_type', es.expected_integer);
      return checkInteger(facets, v, bad) ? v : undefined;
    case 'amount':
      return checkAmount(facets, v, bad);
    case 'digits': {
      const max = facets.totalDigits ?? facets.maxLength ?? 20;
      if (typeof v !== 'string' || !new RegExp(`^[0-9]{1,${max}}$`).test(v)) return bad('invalid_type', es.expected_digits(max));
      return v;
    }
    case 'date':
      if (typeof v !== 'string') return bad('invalid_type', es.expected_string);
      return parseDate(v) ? v : bad('date', es.date);
    case 'datetime':
      if (typeof v !== 'string') return bad('invalid_type', es.expected_string);
      return parseDateTime(v) ? v : bad('date', es.datetime);
    case 'country':
      if (typeof v !== 'string') return bad('invalid_type', es.expected_string);
      // Two capital letters are an ISO 3166-1 code (rendered as its Spanish name); anything else is a country name
      // written as given, as the XML takes it (DGII accepts names such as "USA"; issue 15): only the XSD facets apply.
      if (/^[A-Z]{2}$/.test(v)) return COUNTRY_NAMES[v] ? v : bad('enum', es.country);
      if (v.trim() === '') return bad('min_length', es.empty_text);
      if (CONTROL.test(v)) return bad('pattern', es.control_chars);
      if (facets.maxLength !== undefined && [...v].length > facets.maxLength) return bad('max_length', es.max_length(facets.maxLength));
      return checkPattern(facets, v, bad) ? v : undefined;
    default: {
      if (typeof v !== 'string') return bad('invalid_type', es.expected_string);
      if (v.trim() === '') return bad('min_length', es.empty_text);
      if (CONTROL.test(v)) return bad('pattern', es.control_chars);
      const len = [...v].length;
      if (facets.minLength !== undefined && len < facets.minLength) return bad('min_length', es.min_length(facets.minLength));
      if (facets.maxLength !== undefined && len > facets.maxLength) return bad('max_length', es.max_length(facets.maxLength));
      if (facets.enumeration && !facets.enumeration.includes(v)) return bad('enum', es.enum(facets.enumeration));
      return checkPattern(facets, v, bad) ? v : undefined;
    }
  }
}

function checkPattern(facets: Facets, v: string, bad: (c: Issue['code'], m: string) => undefined): boolean {
  if (!facets.jsPattern) return true;
  // XSD: several pattern facets on one type are alternatives.
  if (facets.jsPattern.some((p) => regex(p).test(v))) return true;
  bad('pattern', es.pattern);
  return false;
}

function checkInteger(facets: Facets, v: number, bad: (c: Issue['code'], m: string) => undefined): boolean {
  if (facets.enumeration && !facets.enumeration.map(Number).includes(v)) {
    bad('enum', es.enum(facets.enumeration));
    return false;
  }
  const min = facets.minInclusive !== undefined ? Number(facets.minInclusive) : undefined;
  const max = facets.maxInclusive !== undefined ? Number(facets.maxInclusive) : facets.totalDigits ? 10 ** facets.totalDigits - 1 : undefined;
  const lo = min ?? (facets.enumeration ? undefined : 0);
  if ((lo !== undefined && v < lo) || (max !== undefined && v > max)) {
    bad('range', es.integer_range(lo, max));
    return false;
  }
  if (facets.minExclusive !== undefined && v <= Number(facets.minExclusive)) {
    bad('range', es.integer_gt(Number(facets.minExclusive)));
    return false;
  }
  return true;
}

function checkAmount(facets: Facets, v: unknown, bad: (c: Issue['code'], m: string) => undefined): unknown {
  if (typeof v !== 'number') return bad('invalid_type', es.expected_number);
  const b = amountBounds(facets);
  const text = numberText(v);
  if (text === null) return bad('range', es.too_large(b.maxText));
  if (decimalsOf(text) > b.decimals) return bad('decimals', es.decimals(b.decimals));
  const intPart = text.replace(/^-/, '').split('.')[0]!;
  if (intPart.length > b.integerDigits) return bad('range', es.too_large(b.maxText));
  if (b.min !== null && v < 0) return bad('range', es.must_not_be_negative);
  if (b.exclusiveMin && v <= 0) return bad('range', es.must_be_positive);
  return v;
}

/**
 * Hostile requests for one operation of the DIAN service's OpenAPI, generated from the operation alone (its
 * request schema, its valid base bodies, its parameters and token headers), so that every route the document
 * lists is fuzzed the same way, including routes added after this file. The generic value generators
 * (hostile JSON, mutations, text damage, content types, tokens, path segments) are the e-CF suite's.
 */
import fc from 'fast-check';
import { zipSync } from 'fflate';
import {
  authHeader,
  damage,
  hostileJson,
  hostileString,
  jsonContentType,
  applyMutation,
  mutation,
  pathSegment,
  pathsOf,
  queryString,
  textDamage,
  type Path,
  type TextDamage,
} from '../../../ecf/reliability/hostile/arbitraries.js';
import { schemaAt, type Operation, type Schema } from './world.js';

export interface HostileRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  /** What was done, for the failure message. */
  label: string;
  /** The token header's name ('' when none is sent). */
  authName: string;
  /** The valid body this request was derived from, with its fresh `number` (null: no base), and its index in `op.bases`. */
  base: unknown;
  baseIndex: number;
}

/** A fresh-numbered copy of a base body: `number` (an integer at the root) gets the next number of its range. */
export class Numbers {
  private next = new Map<string, number>();
  fresh(base: unknown): unknown {
    const b = structuredClone(base) as Record<string, unknown>;
    if (b && typeof b === 'object' && typeof b.number === 'number' && Number.isInteger(b.number)) {
      // Documents number inside the harness' resolution range (990000000–995000000); events from their own start.
      const range = b.number >= 990_000_000 ? 'doc' : 'small';
      const n = this.next.get(range) ?? (range === 'doc' ? 990_200_000 : 20_000);
      this.next.set(range, n + 1);
      b.number = n;
    }
    return b;
  }
}

const WRONG_BY_TYPE: Record<string, unknown[]> = {
  string: [0, -1, 1e308, true, null, [], {}, ['x'], { x: 'x' }],
  integer: ['1', '', 1.5, -1, 0, 1e308, -1e308, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1e21, 123.4567891234, null, true, [], {}],
  number: ['1', '', 1e308, -1e308, 5e-324, 0.1 + 0.2, 100.00000000001, 1.005, 12345678901.99, -0, null, true, [1], {}],
  boolean: ['true', 1, 0, null, [], {}],
  array: [{}, 'x', 0, null, [null], [[[[]]]]],
  object: [[], 'x', 0, null, true],
};

/** Values the schema at that place does not allow (its type's wrong types, extremes, long strings, bad enums). */
function wrongFor(s: Schema | null): fc.Arbitrary<unknown> {
  const types: string[] = s ? (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []) : [];
  const pool: unknown[] = [];
  for (const t of types) pool.push(...(WRONG_BY_TYPE[t] ?? []));
  if (s?.enum) pool.push('ZZ', `${s.enum[0]} `, String(s.enum[0]).toLowerCase() === String(s.enum[0]) ? String(s.enum[0]).toUpperCase() : 'x');
  if (s?.maxLength) pool.push('ñ'.repeat(s.maxLength + 1));
  if (s?.pattern) pool.push('%%%', '\u0000');
  if (pool.length === 0) pool.push(null, {}, [], 'x', 1e308);
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: hostileString }, { weight: 1, arbitrary: hostileJson });
}

/** A base64 field's hostile values: broken base64, a huge one, a zip bomb, an XML bomb. */
function isBase64(s: Schema | null): boolean {
  return !!s && (s.contentEncoding === 'base64' || (typeof s.pattern === 'string' && s.pattern.includes('A-Za-z0-9+/')));
}

let bombs: { zip: string; xml: string } | null = null;
function attachmentBombs(): { zip: string; xml: string } {
  if (!bombs) {
    // 64 MB of zeros in one zip entry: ~64 KB compressed, a 1000:1 expansion.
    const zip = zipSync({ 'factura.xml': new Uint8Array(64 * 1024 * 1024) }, { level: 9 });
    const lol = ['<!DOCTYPE lolz [<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++) lol.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    const xml = `<?xml version="1.0"?>${lol.join('')}]><lolz>&lol9;</lolz>`;
    bombs = { zip: Buffer.from(zip).toString('base64'), xml: Buffer.from(xml).toString('base64') };
  }
  return bombs;
}

/** The hostile values of a base64 field: broken base64, a zip bomb, an XML bomb, a huge one, one over the body limit. */
export function base64Attacks(): { name: string; value: string }[] {
  return [
    ...['abc', '====', 'a===', 'PD94bWw', 'PD94bWw=\n', 'PD94 bWw=', '\u0000AAA', 'ÿÿÿÿ', '-_-_', '%%%%', 'QQ==QQ==', ''].map((v) => ({
      name: `broken ${JSON.stringify(v)}`,
      value: v,
    })),
    { name: 'zip bomb (64 MB of zeros)', value: attachmentBombs().zip },
    { name: 'billion laughs XML', value: attachmentBombs().xml },
    // just under the 2 MB body limit (the mail service's own attachment total, 20 MB, is never reached through it)
    { name: 'huge (1.9 MB)', value: 'A'.repeat(1_900_000) },
    // over the 2 MB body limit
    { name: 'over the body limit (2.2 MB)', value: 'A'.repeat(2_200_000) },
  ];
}

const base64Damage = fc.nat(15).map((i) => {
  const all = base64Attacks();
  return all[i % all.length]!.value;
});

/** Every path to a base64 string of `doc` under `schema`. */
export function base64Paths(openapi: Schema, schema: Schema | null, doc: unknown): Path[] {
  return pathsOf(doc).filter((p) => p.length > 0 && isBase64(schemaAt(openapi, schema, p)));
}

/** Every path to an object of `doc` (where keys can be added). */
function objectPaths(doc: unknown): Path[] {
  return pathsOf(doc).filter((p) => {
    const v = p.reduce((o: any, k) => o?.[k], doc);
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  });
}

/** Lone surrogates replaced (a URL cannot carry them). */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

const defineOwn = (o: any, k: string, v: unknown) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });

type BodyCase = { doc: unknown; changes: string[] };

/** Hostile JSON values for the operation's body, derived from its base bodies and request schema. */
export function bodies(openapi: Schema, op: Operation, base: unknown): fc.Arbitrary<BodyCase> {
  const clone = () => structuredClone(base);
  const mutated = fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }).map((steps) => {
    let doc = clone();
    const changes: string[] = [];
    for (const [pick, m] of steps) {
      const paths = pathsOf(doc);
      const path = paths[pick % paths.length]!;
      doc = applyMutation(doc, path, m);
      changes.push(`${m.kind}@${path.join('.') || '(root)'}`);
    }
    return { doc, changes };
  });
  const paths = pathsOf(base).filter((p) => p.length > 0);
  const typed: fc.Arbitrary<BodyCase> =
    paths.length === 0
      ? mutated
      : fc
          .nat(paths.length - 1)
          .chain((i) => wrongFor(schemaAt(openapi, op.requestSchema, paths[i]!)).map((v) => ({ i, v })))
          .map(({ i, v }) => ({
            doc: applyMutation(clone(), paths[i]!, { kind: 'replace', value: v as never }),
            changes: [`wrong type@${paths[i]!.join('.')}`],
          }));
  const objects = objectPaths(base);
  const proto = fc
    .tuple(
      fc.nat(Math.max(0, objects.length - 1)),
      fc.constantFrom('__proto__', 'constructor', 'prototype'),
      fc.constantFrom<unknown>({ polluted: true }, { prototype: { polluted: true } }, null, 'x'),
    )
    .map(([i, key, value]) => {
      const doc = clone();
      const at = objects[i] ?? [];
      defineOwn(
        at.reduce((o: any, k) => o[k], doc),
        key,
        value,
      );
      return { doc, changes: [`${key}@${at.join('.') || '(root)'}`] };
    });
  const b64 = base64Paths(openapi, op.requestSchema, base);
  const attachments: fc.Arbitrary<BodyCase> | null =
    b64.length === 0
      ? null
      : fc.tuple(fc.nat(b64.length - 1), base64Damage).map(([i, v]) => ({
          doc: applyMutation(clone(), b64[i]!, { kind: 'replace', value: v }),
          changes: [`base64 ${v.length > 40 ? `${v.length} chars` : JSON.stringify(v)}@${b64[i]!.join('.')}`],
        }));
  const oversize = fc.constantFrom('array', 'string', 'keys').map((k) => {
    const doc = clone() as Record<string, unknown>;
    if (k === 'array')
      defineOwn(
        doc,
        'x',
        Array.from({ length: 300_000 }, (_, i) => i),
      );
    else if (k === 'string') defineOwn(doc, 'x', 'a'.repeat(2_100_000));
    else for (let i = 0; i < 20_000; i++) defineOwn(doc, `k${i}`, i);
    return { doc, changes: [`oversize ${k}`] };
  });
  const arms: { weight: number; arbitrary: fc.Arbitrary<BodyCase> }[] = [
    { weight: 4, arbitrary: mutated },
    { weight: 4, arbitrary: typed },
    { weight: 1, arbitrary: proto },
    { weight: 1, arbitrary: hostileJson.map((doc) => ({ doc, changes: ['random value'] })) },
    { weight: 1, arbitrary: oversize },
  ];
  if (attachments) arms.push({ weight: 3, arbitrary: attachments });
  return fc.oneof(...arms);
}

/** Hostile requests for `op`: body, text damage, content type, token (under each documented header name), path and query. */
export function requests(
  openapi: Schema,
  op: Operation,
  numbers: Numbers,
  ids: () => string[],
  token: string,
  otherToken: string,
): fc.Arbitrary<HostileRequest> {
  const base = op.bases.length ? fc.nat(op.bases.length - 1).map((i) => ({ i, b: numbers.fresh(op.bases[i]) })) : fc.constant(null);
  const authNames = fc.oneof(
    { weight: 6, arbitrary: fc.constant('Authorization') },
    { weight: 2, arbitrary: fc.constantFrom('Authotization', ...op.extraAuthHeaders) },
  );
  const segment = fc.constant(null).chain(() => pathSegment(ids().length ? ids() : ['SETP990000001']));
  const query = fc.oneof(
    queryString,
    fc
      .array(fc.tuple(fc.constantFrom('x', ...op.queryParams), fc.oneof(hostileString, fc.constantFrom('1', '0', '-1', '101', '1e400', '%FF', '%00'))), {
        maxLength: 4,
      })
      .map((ps) => (ps.length ? `?${ps.map(([k, v]) => `${k}=${encodeURIComponent(wellFormed(v))}`).join('&')}` : '')),
  );
  return base.chain((picked) => {
    const b = picked?.b ?? null;
    return fc
      .record({
        body: b === null ? fc.constant<BodyCase | null>(null) : bodies(openapi, op, b),
        damage: b === null ? fc.constant<TextDamage>({ kind: 'none' }) : textDamage,
        contentType: jsonContentType,
        auth: authHeader(token, otherToken),
        authName: authNames,
        segs: fc.array(segment, { minLength: op.pathParams.length, maxLength: op.pathParams.length }),
        query: op.method === 'GET' ? query : fc.constant(''),
      })
      .map((x) => {
        let path = op.template;
        op.pathParams.forEach((p, i) => {
          path = path.replace(`{${p}}`, x.segs[i]!);
        });
        path += x.query;
        const headers: Record<string, string> = {};
        if (x.auth !== null) headers[x.authName] = x.auth;
        if (x.contentType !== null && x.body) headers['content-type'] = x.contentType;
        const text = x.body ? (JSON.stringify(x.body.doc) ?? 'null') : null;
        const body = text === null ? null : damage(text, x.damage);
        const size = body === null ? 0 : typeof body === 'string' ? body.length : body.byteLength;
        return {
          path,
          method: op.method,
          headers,
          body,
          authName: x.auth === null ? '' : x.authName,
          base: b,
          baseIndex: picked?.i ?? -1,
          label: `${op.method} ${path.slice(0, 100)} [${x.body?.changes.join(', ') ?? 'no body'}; ${x.damage.kind}; ${size} B] ct=${String(x.contentType)} ${x.authName}=${String(x.auth).slice(0, 30)}`,
        };
      });
  });
}

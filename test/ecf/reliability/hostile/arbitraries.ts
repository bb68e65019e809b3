/**
 * fast-check generators of hostile input: JSON values of the wrong type and absurd size, raw numeric tokens
 * JSON.stringify cannot write (1e400, 11 decimals, -0), documents mutated from valid ones, raw-text damage
 * (BOM, invalid UTF-8, truncation, deep nesting), XML damage (DOCTYPE/entities, wrong root or namespace,
 * truncation, signatures), multipart bodies with broken framing, path parameters, tokens, content types.
 */
import fc from 'fast-check';
import { ECF_TYPES, type EcfType } from '../../../../src/ecf/index.js';
import { baseDoc } from '../../helpers/docs.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Text the service must treat as data: special values, injections, control characters, huge runs. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t',
  '\u0000',
  '\uFEFF',
  '\uD800',
  '\uDC00x',
  '\uFFFF',
  '\u202E',
  'ñáéíóú',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e400',
  '99999999999999999999.99',
  '0x1F',
  '1,000.00',
  'RD$100',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  "'; DROP TABLE documents; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  'file:///etc/passwd',
  '%00',
  '%FF%FE',
  '${jndi:ldap://127.0.0.1/x}',
  '{{7*7}}',
  '\r\n\r\nHTTP/1.1 200 OK',
  'E310000000001',
  'E99',
  '31',
  '01-04-2026',
  '31-02-2026',
  '2026-04-01',
  'a'.repeat(300),
  'ñ'.repeat(5_000),
  '\n'.repeat(2_000),
  ' '.repeat(50_000),
];

/** Numbers JSON can carry that are absurd as amounts, quantities or codes. */
export const NASTY_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  5e-324,
  Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  1e21,
  0.1 + 0.2,
  100.00000000001,
  1.005,
  123.456,
  9_999_999_999,
  10_000_000_000,
  31,
  99,
  1.5,
  -100,
];

/** Numeric tokens written raw into JSON text (JSON.stringify cannot produce them). */
export const RAW_NUMBER_TOKENS: readonly string[] = [
  '1e400',
  '-1e400',
  '99999999999999999999.99',
  '100.00000000001',
  '-0',
  '-0.0',
  '0.00000000000000000001',
  '1E+2',
  '1e-400',
  '123456789012345678901234567890',
  '00012',
  '+1',
  '.5',
  '5.',
  'NaN',
  'Infinity',
  '0x1F',
  '1_000',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20, unit: 'grapheme' }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('\n', '\r\n', ' ', '-', '<', '=', '"', '\\', '9', 'ñ', '\u0000'), fc.integer({ min: 1, max: 20_000 }))
      .map(([c, n]) => c.repeat(n)),
  },
);

const hostileKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '',
    ' ',
    'items',
    'totales',
    'monto_total',
    'id_doc',
    'comprador',
    'rangos',
    'estado',
    'motivo_rechazo',
    'tipo',
    'desde',
    'hasta',
    'a'.repeat(1_000),
  ),
  fc.string({ maxLength: 12 }),
);

const leaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(...NASTY_NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  hostileString,
);

/** Any JSON value, hostile at every level. */
export const hostileJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 5 }).map((d) => {
      // fc.dictionary assigns keys; `__proto__` must become an own member like JSON.parse makes it.
      const o: Record<string, Json> = {};
      for (const [k, v] of Object.entries(d)) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      return o;
    }),
  ),
})).value;

export type Path = (string | number)[];

/** Every path inside a JSON value (the root first). */
export function pathsOf(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

function setAt(root: any, path: Path, f: (old: any) => any): any {
  if (path.length === 0) return f(root);
  let o = root;
  for (const k of path.slice(0, -1)) o = o[k];
  const last = path[path.length - 1]!;
  const next = f(o[last]);
  if (next === DELETE) {
    if (Array.isArray(o)) o.splice(Number(last), 1);
    else delete o[last];
  } else Object.defineProperty(o, last, { value: next, enumerable: true, writable: true, configurable: true });
  return root;
}
const DELETE = Symbol('delete');

/** One change to a document at a chosen path. */
export type Mutation =
  | { kind: 'replace'; value: Json }
  | { kind: 'delete' }
  | { kind: 'wrapArray' }
  | { kind: 'stringify' }
  | { kind: 'addKey'; key: string; value: Json }
  | { kind: 'repeat'; times: number };

/** A random change: replace, delete, wrap, stringify, add a (hostile) key, repeat an array. */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), value: hostileJson }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'delete' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wrapArray' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'stringify' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('addKey' as const), key: hostileKey, value: hostileJson }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), times: fc.constantFrom(2, 7, 21, 1_001, 10_001, 20_000) }) },
);

export function applyMutation(doc: unknown, path: Path, m: Mutation): unknown {
  return setAt(doc, path, (old) => {
    switch (m.kind) {
      case 'replace':
        return m.value;
      case 'delete':
        return path.length === 0 ? {} : DELETE;
      case 'wrapArray':
        return [old];
      case 'stringify':
        return typeof old === 'string' ? old : (JSON.stringify(old) ?? 'null');
      case 'addKey': {
        if (old === null || typeof old !== 'object' || Array.isArray(old)) return old;
        Object.defineProperty(old, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
        return old;
      }
      case 'repeat':
        return Array.isArray(old) ? Array.from({ length: m.times }, () => structuredClone(old[0] ?? {})) : old;
    }
  });
}

/** A valid base document of `tipo` with 1–3 mutations at random paths. */
export function mutatedDoc(tipo: EcfType): fc.Arbitrary<{ doc: unknown; changes: string[] }> {
  return fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 3 }).map((steps) => {
    let doc: unknown = baseDoc(tipo);
    const changes: string[] = [];
    for (const [pick, m] of steps) {
      const paths = pathsOf(doc);
      const path = paths[pick % paths.length]!;
      doc = applyMutation(doc, path, m);
      changes.push(`${m.kind}@${path.join('.') || '(root)'}`);
    }
    return { doc, changes };
  });
}

/** Damage to a request's text, applied after serialisation (what JSON.stringify cannot produce). */
export type TextDamage =
  | { kind: 'none' }
  | { kind: 'bom' }
  | { kind: 'rawNumber'; token: string; nth: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'invalidUtf8'; at: number; bytes: readonly number[] }
  | { kind: 'duplicateKey' }
  | { kind: 'trailing'; garbage: string }
  | { kind: 'nest'; depth: number }
  | { kind: 'empty' };

export const textDamage: fc.Arbitrary<TextDamage> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'bom' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('rawNumber' as const), token: fc.constantFrom(...RAW_NUMBER_TOKENS), nth: fc.nat(30) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('invalidUtf8' as const),
      at: fc.nat(),
      bytes: fc.constantFrom([0xff], [0xfe, 0xff], [0xc3], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x80]),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'duplicateKey' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('trailing' as const), garbage: fc.constantFrom('}', ',', ' x', '\u0000', '{}', '<x/>') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('nest' as const), depth: fc.constantFrom(10, 63, 64, 65, 1_000, 100_000) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
);

const enc = new TextEncoder();

/** Serialised body with the damage applied (bytes when the damage is not text). */
export function damage(text: string, d: TextDamage): string | Uint8Array {
  switch (d.kind) {
    case 'none':
      return text;
    case 'bom':
      return `\uFEFF${text}`;
    case 'empty':
      return '';
    case 'rawNumber': {
      const numbers = [...text.matchAll(/(?<=[:[,])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=[,\]}])/g)];
      if (numbers.length === 0) return `${text.slice(0, -1)},"x":${d.token}}`;
      const m = numbers[d.nth % numbers.length]!;
      return text.slice(0, m.index) + d.token + text.slice(m.index! + m[0].length);
    }
    case 'truncate':
      return text.slice(0, text.length === 0 ? 0 : d.at % text.length);
    case 'invalidUtf8': {
      const b = enc.encode(text);
      const at = b.length === 0 ? 0 : d.at % b.length;
      return new Uint8Array([...b.subarray(0, at), ...d.bytes, ...b.subarray(at)]);
    }
    case 'duplicateKey':
      return text.startsWith('{') && text.length > 2 ? `{"items":[],${text.slice(1)}` : text;
    case 'trailing':
      return text + d.garbage;
    case 'nest':
      return `${'['.repeat(d.depth)}${text}${']'.repeat(d.depth)}`;
  }
}

/** Content types: the right ones, their variants, and wrong ones. */
export const jsonContentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json;charset="UTF-8"',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json;;;',
      'application/json; charset',
      'text/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'text/xml',
      '',
      ' ',
      'application/json, text/xml',
      '*/*',
      'application/jsonx',
      'application/json\u00ff',
    ),
  },
  { weight: 1, arbitrary: fc.constant(null) },
);

export const xmlContentType = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('application/xml', 'text/xml') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/xml; charset=utf-8',
      'TEXT/XML',
      'text/xml; charset=iso-8859-1',
      'application/xml; charset=utf-16',
      'application/json',
      'text/plain',
      'application/soap+xml',
      'multipart/form-data',
      '',
      'application/xml; boundary=x',
    ),
  },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Authorization header values: mostly the right token, else missing, malformed, another issuer's, revoked-looking. */
export function authHeader(token: string, otherToken: string): fc.Arbitrary<string | null> {
  return fc.oneof(
    { weight: 24, arbitrary: fc.constant(`Bearer ${token}`) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        null,
        '',
        'Bearer',
        'Bearer ',
        `bearer ${token}`,
        `BEARER\t${token}`,
        `Bearer  ${token}  `,
        `Bearer ${token}x`,
        `Bearer ${token.slice(0, -1)}`,
        `Basic ${Buffer.from(`u:${token}`).toString('base64')}`,
        `Bearer ${token} ${token}`,
        `Token ${token}`,
        token,
        `Bearer ${otherToken}`,
        'Bearer ecf_',
        'Bearer null',
        'Bearer undefined',
        `Bearer ${'x'.repeat(8_000)}`,
        'Bearer ÿþ',
        "Bearer ' OR '1'='1",
      ),
    },
    {
      weight: 1,
      arbitrary: fc.string({ maxLength: 60 }).map(
        (s) =>
          `Bearer ${Buffer.from(s, 'utf8')
            .toString('latin1')
            .replace(/[\r\n\0]/g, '')}`,
      ),
    },
  );
}

/** Path segments for `{eNCF}`, `{tipo}`, `{rnc}`: valid ones, near misses, encodings and garbage. */
export function pathSegment(valid: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...valid) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'E31000000000',
        'E3100000000011',
        'e310000000001',
        'E990000000001',
        'B310000000001',
        'E31000000000A',
        '99',
        '3',
        '310',
        '0',
        '-1',
        '31.0',
        '３１',
        '%00',
        '%FF',
        '%2F',
        '%2e%2e',
        '..',
        '.',
        '%',
        '%ZZ',
        '%E2%80%AE',
        'E31%000000000001',
        ' E310000000001',
        'null',
        'undefined',
        '__proto__',
        'constructor',
        "1'--",
        '*',
        'E'.repeat(5_000),
        '1'.repeat(11),
        '1'.repeat(9),
        '1'.repeat(10),
        '0'.repeat(9),
        'ñ',
        '%C3%B1',
      ),
    },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }).map((s) => encodeURIComponent(s)) },
  );
}

/** Query strings: documented parameters with hostile values, unknown ones, repeats and broken encodings. */
export const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom('status', 'tipo', 'desde', 'hasta', 'limit', 'cursor', 'rnc_emisor', 'x', '__proto__', 'limit', 'cursor'),
      fc.oneof(
        fc.constantFrom(
          '1',
          '0',
          '-1',
          '200',
          '201',
          '1e3',
          '1e400',
          '99999999999999999999999',
          '0x10',
          '',
          'received',
          'Received',
          '31',
          '99',
          '01-04-2026',
          '31-02-2026',
          '2026-04-01',
          '01-04-2026 00:00:00',
          '130182452',
          '%FF',
          '%',
          '%00',
          'NaN',
          ' 1',
          '1 ',
          '1.5',
          'null',
        ),
        fc.string({ maxLength: 12 }).map(encodeURIComponent),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

export const anyTipo: fc.Arbitrary<EcfType> = fc.constantFrom(...ECF_TYPES);

// ---------------------------------------------------------------------------------------------- XML

/** One change to an XML text (a valid e-CF unless stated). */
export type XmlDamage =
  | { kind: 'none' }
  | { kind: 'leafText'; nth: number; text: string; escape: boolean }
  | { kind: 'dropElement'; nth: number }
  | { kind: 'duplicateElement'; nth: number; times: number }
  | { kind: 'renameElement'; nth: number; name: string }
  | { kind: 'unknownElement'; nth: number; times: number }
  | { kind: 'attributes'; count: number }
  | { kind: 'rootName'; name: string }
  | { kind: 'namespace'; ns: string; prefixed: boolean }
  | { kind: 'truncate'; at: number }
  | { kind: 'declaration'; decl: string }
  | { kind: 'bom' }
  | { kind: 'prolog'; insert: string }
  | { kind: 'signature'; where: 'root' | 'nested' | 'prefixed' }
  | { kind: 'padSignature'; element: 'SignatureValue' | 'KeyInfo' | 'Transform' | 'X509Certificate' | 'SignedInfo'; times: number }
  | { kind: 'entity'; payload: number }
  | { kind: 'field'; element: 'TipoeCF' | 'RNCEmisor' | 'eNCF' | 'FechaEmision' | 'MontoTotal' | 'MontoItem'; value: string };

export const XML_ELEMENT_VALUES = [
  '31',
  '32',
  '99',
  '',
  ' ',
  '130182452',
  '131880738',
  '000000000',
  'E310000000001',
  'E31000000000',
  'E320000500001',
  '1e400',
  '-0',
  'NaN',
  '99999999999999999999.99',
  '100.00000000001',
  '-1.00',
  '31-02-2026',
  '01-04-2099',
  '2026-04-01',
];

/**
 * Entity and DTD payloads (XXE, billion laughs, external subsets): `url` is the canary listener, which must
 * never be contacted. Each replaces the prolog and, where it declares an entity, references it in the body.
 */
export function entityPayloads(url: string): { name: string; prolog: string; reference: string }[] {
  const laughs = ['<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`)].join('');
  const big = 'x'.repeat(50_000);
  return [
    { name: 'file entity', prolog: '<!DOCTYPE ECF [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>', reference: '&xxe;' },
    { name: 'http entity', prolog: `<!DOCTYPE ECF [<!ENTITY xxe SYSTEM "${url}/xxe-entity">]>`, reference: '&xxe;' },
    { name: 'parameter entity', prolog: `<!DOCTYPE ECF [<!ENTITY % p SYSTEM "${url}/xxe-parameter"> %p;]>`, reference: '' },
    { name: 'external subset', prolog: `<!DOCTYPE ECF SYSTEM "${url}/xxe-subset.dtd">`, reference: '' },
    { name: 'public id', prolog: `<!DOCTYPE ECF PUBLIC "-//ECF//X" "${url}/xxe-public.dtd">`, reference: '' },
    { name: 'billion laughs', prolog: `<!DOCTYPE ECF [${laughs}]>`, reference: '&lol9;' },
    { name: 'quadratic blowup', prolog: `<!DOCTYPE ECF [<!ENTITY a "${big}">]>`, reference: '&a;'.repeat(20_000) },
    { name: 'lowercase doctype', prolog: '<!doctype ECF [<!entity xxe SYSTEM "file:///etc/passwd">]>', reference: '&xxe;' },
    { name: 'doctype with newlines', prolog: '<!DOCTYPE\nECF\n[\n<!ENTITY\nxxe\nSYSTEM\n"file:///etc/passwd">\n]>', reference: '&xxe;' },
    { name: 'entity without doctype', prolog: `<!ENTITY xxe SYSTEM "${url}/xxe-bare">`, reference: '&xxe;' },
    { name: 'undeclared entity', prolog: '', reference: '&xxe;&lol9;' },
    { name: 'stylesheet PI', prolog: `<?xml-stylesheet type="text/xsl" href="${url}/xxe-xsl"?>`, reference: '' },
  ];
}

export function xmlDamage(canaryUrl: string): fc.Arbitrary<XmlDamage> {
  const payloads = entityPayloads(canaryUrl).length;
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('leafText' as const),
        nth: fc.nat(),
        text: fc.oneof(hostileString, fc.constantFrom(...XML_ELEMENT_VALUES)),
        escape: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('dropElement' as const), nth: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicateElement' as const), nth: fc.nat(), times: fc.constantFrom(1, 2, 1_001, 20_000) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('renameElement' as const),
        nth: fc.nat(),
        name: fc.constantFrom('X', 'Signature', 'ECF', 'ds:Signature', 'a-b.c', 'Item'),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('unknownElement' as const), nth: fc.nat(), times: fc.constantFrom(1, 999, 1_001, 100_000) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('attributes' as const), count: fc.constantFrom(1, 64, 65, 5_000, 300_000) }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('rootName' as const), name: fc.constantFrom('ACECF', 'ARECF', 'RFCE', 'ecf', 'ECF2', 'SemillaModel', 'ANECF') }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('namespace' as const),
        ns: fc.constantFrom('http://www.w3.org/2000/09/xmldsig#', 'urn:dgii', '', 'http://127.0.0.1:1/ns'),
        prefixed: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('declaration' as const),
        decl: fc.constantFrom(
          '<?xml version="1.0" encoding="ISO-8859-1"?>',
          '<?xml version="1.0" encoding="UTF-16"?>',
          '<?xml version="1.1" encoding="utf-8"?>',
          '<?xml version="2.0"?>',
          '<?xml encoding="utf-8"?>',
          '',
          '<?xml version="1.0" encoding="utf-8" standalone="no"?>',
          '<?xml version="1.0" encoding="windows-1252"?>',
        ),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'bom' as const }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('prolog' as const),
        insert: fc.constantFrom('<!-- <!DOCTYPE x> -->', '<?pi data?>', '\n\n\n', `<?xml-stylesheet href="${canaryUrl}/pi"?>`, '<![CDATA[x]]>', '<ECF/>'),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('signature' as const), where: fc.constantFrom('root' as const, 'nested' as const, 'prefixed' as const) }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('entity' as const), payload: fc.nat(payloads - 1) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('padSignature' as const),
        element: fc.constantFrom('SignatureValue' as const, 'KeyInfo' as const, 'Transform' as const, 'X509Certificate' as const, 'SignedInfo' as const),
        times: fc.constantFrom(2, 50, 3_000),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('field' as const),
        element: fc.constantFrom(
          'TipoeCF' as const,
          'RNCEmisor' as const,
          'eNCF' as const,
          'FechaEmision' as const,
          'MontoTotal' as const,
          'MontoItem' as const,
        ),
        value: fc.constantFrom(...XML_ELEMENT_VALUES),
      }),
    },
  );
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Applies `d` to `xml` (an e-CF with root `ECF`). */
export function damageXml(xml: string, d: XmlDamage, canaryUrl: string): string {
  const leaves = [...xml.matchAll(/<([A-Za-z][\w.-]*)>([^<]*)<\/\1>/g)];
  const leafKinds = new Set(['leafText', 'dropElement', 'duplicateElement', 'renameElement', 'unknownElement']);
  if (leaves.length === 0 && leafKinds.has(d.kind)) return xml; // nothing to change (e.g. already truncated away)
  const leaf = (nth: number) => leaves[nth % leaves.length]!;
  const splice = (m: RegExpMatchArray, replacement: string) => xml.slice(0, m.index) + replacement + xml.slice(m.index! + m[0].length);
  const body = xml.replace(/^<\?xml[^>]*\?>/, '');
  switch (d.kind) {
    case 'none':
      return xml;
    case 'leafText': {
      const m = leaf(d.nth);
      return splice(m, `<${m[1]}>${d.escape ? escapeXml(d.text) : d.text}</${m[1]}>`);
    }
    case 'dropElement':
      return splice(leaf(d.nth), '');
    case 'duplicateElement': {
      const m = leaf(d.nth);
      return splice(m, m[0].repeat(d.times + 1));
    }
    case 'renameElement': {
      const m = leaf(d.nth);
      return splice(m, `<${d.name}>${m[2]}</${d.name}>`);
    }
    case 'unknownElement':
      return splice(leaf(d.nth), `${leaf(d.nth)[0]}${'<Desconocido>x</Desconocido>'.repeat(d.times)}`);
    case 'attributes':
      return xml.replace('<Encabezado>', `<Encabezado ${Array.from({ length: d.count }, (_, i) => `a${i}="${i}"`).join(' ')}>`);
    case 'rootName':
      return xml.replace(/<ECF>/, `<${d.name}>`).replace(/<\/ECF>$/, `</${d.name}>`);
    case 'namespace':
      return d.prefixed ? xml.replace(/<ECF>/, `<e:ECF xmlns:e="${d.ns}">`).replace(/<\/ECF>$/, '</e:ECF>') : xml.replace(/<ECF>/, `<ECF xmlns="${d.ns}">`);
    case 'truncate':
      return xml.slice(0, d.at % xml.length);
    case 'declaration':
      return d.decl + body;
    case 'bom':
      return `\uFEFF${xml}`;
    case 'prolog':
      return xml.replace(/^(<\?xml[^>]*\?>)/, `$1${d.insert}`);
    case 'signature': {
      const sig = '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo/><SignatureValue>AAAA</SignatureValue></Signature>';
      if (d.where === 'root') return xml.replace(/<\/ECF>$/, `${sig}</ECF>`);
      if (d.where === 'prefixed') return xml.replace(/<\/ECF>$/, `${sig.replace(/<(\/?)Signature/g, '<$1ds:Signature').replace('xmlns=', 'xmlns:ds=')}</ECF>`);
      return xml.replace('</Encabezado>', `${sig}</Encabezado>`);
    }
    case 'padSignature': {
      // Repeats an element of the signature (a no-op on unsigned XML).
      const m = new RegExp(d.element === 'Transform' ? '<Transform [^>]*/>' : `<${d.element}>[\\s\\S]*?</${d.element}>`).exec(xml);
      return m ? splice(m, m[0].repeat(d.times)) : xml;
    }
    case 'entity': {
      const p = entityPayloads(canaryUrl)[d.payload]!;
      const withRef = p.reference ? xml.replace(/<RazonSocialEmisor>[^<]*<\/RazonSocialEmisor>/, `<RazonSocialEmisor>${p.reference}</RazonSocialEmisor>`) : xml;
      return withRef.replace(/^(<\?xml[^>]*\?>)/, `$1${p.prolog}`);
    }
    case 'field': {
      const re = new RegExp(`<${d.element}>[^<]*</${d.element}>`);
      return re.test(xml) ? xml.replace(re, `<${d.element}>${d.value}</${d.element}>`) : xml;
    }
  }
}

// ---------------------------------------------------------------------------------------------- multipart

export interface Part {
  name: string | null;
  fileName?: string;
  contentType?: string;
  content: Uint8Array | string;
}

/** Framing damage of a multipart body. */
export type FormDamage =
  | 'none'
  | 'noClosing'
  | 'wrongBoundary'
  | 'lfOnly'
  | 'noBlankLine'
  | 'noBoundaryParam'
  | 'quotedBoundary'
  | 'longBoundary'
  | 'emptyBody'
  | 'leadingNewlines'
  | 'garbagePreamble'
  | 'bareBody'
  | 'truncated'
  | 'nested';

export const formDamage: fc.Arbitrary<FormDamage> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('none' as const) },
  {
    weight: 6,
    arbitrary: fc.constantFrom<FormDamage>(
      'noClosing',
      'wrongBoundary',
      'lfOnly',
      'noBlankLine',
      'noBoundaryParam',
      'quotedBoundary',
      'longBoundary',
      'emptyBody',
      'leadingNewlines',
      'garbagePreamble',
      'bareBody',
      'truncated',
      'nested',
    ),
  },
);

/** A multipart/form-data body and its Content-Type, with the framing damaged as asked. */
export function multipart(parts: Part[], d: FormDamage, boundary = 'ecfHostileBoundary7MA4YWxk'): { contentType: string; body: Uint8Array } {
  const b = d === 'longBoundary' ? `${'b'.repeat(200)}` : boundary;
  const eol = d === 'lfOnly' ? '\n' : '\r\n';
  const chunks: Uint8Array[] = [];
  const text = (s: string) => chunks.push(enc.encode(s));
  if (d === 'garbagePreamble') text(`basura antes del primer delimitador${eol}`);
  if (d === 'leadingNewlines') text('\n'.repeat(5_000));
  if (d === 'bareBody') {
    for (const p of parts) chunks.push(typeof p.content === 'string' ? enc.encode(p.content) : p.content);
  } else if (d !== 'emptyBody') {
    for (const p of parts) {
      text(`--${b}${eol}`);
      const disposition = [
        'form-data',
        ...(p.name !== null ? [`name="${p.name}"`] : []),
        ...(p.fileName !== undefined ? [`filename="${p.fileName}"`] : []),
      ].join('; ');
      text(`Content-Disposition: ${disposition}${eol}`);
      if (p.contentType) text(`Content-Type: ${p.contentType}${eol}`);
      if (d !== 'noBlankLine') text(eol);
      if (d === 'nested') text(`--inner${eol}Content-Disposition: form-data; name="inner"${eol}${eol}`);
      chunks.push(typeof p.content === 'string' ? enc.encode(p.content) : p.content);
      text(eol);
    }
    if (d !== 'noClosing' && d !== 'truncated') text(`--${b}--${eol}`);
  }
  let body = concat(chunks);
  if (d === 'truncated') body = body.subarray(0, Math.floor(body.length / 2));
  const declared = d === 'wrongBoundary' ? 'otroLimite' : b;
  const contentType =
    d === 'noBoundaryParam'
      ? 'multipart/form-data'
      : d === 'quotedBoundary'
        ? `multipart/form-data; boundary="${declared}"`
        : `multipart/form-data; boundary=${declared}`;
  return { contentType, body };
}

export function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A few random bytes, flipped bytes of `valid`, or `valid` cut short. */
export function mangledBytes(valid: Uint8Array): fc.Arbitrary<Uint8Array> {
  return fc.oneof(
    fc.uint8Array({ maxLength: 2_048 }),
    fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, x]) => {
      const copy = new Uint8Array(valid);
      copy[at % copy.length] ^= x;
      return copy;
    }),
    fc.nat().map((at) => valid.subarray(0, at % valid.length)),
    fc.constant(new Uint8Array(0)),
  );
}

/** Base64 of bytes (for logging a counterexample compactly). */
export const b64 = (x: Uint8Array | string) =>
  Buffer.from(typeof x === 'string' ? x : x)
    .toString('base64')
    .slice(0, 120);

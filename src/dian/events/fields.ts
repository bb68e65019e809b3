/**
 * The fields of the event payload (dian-service.md "Event payloads") as one table: which keys each object takes,
 * which are required, and each leaf's check. `validateDianEvent` (build.ts) walks it to collect issues; the JSON
 * Schema of the request (`dianEventRequestJsonSchema`) is generated from the same rows and from the DIAN_EVENTS
 * columns that the validator's event rules read, so the two cannot drift. A leaf keeps its check and its schema
 * side by side.
 *
 * Pure: no I/O.
 */
import type { IssueCode } from '../../shared/issues.js';
import { DIAN_CLAIM_CONCEPTS, DIAN_EVENT_CODES, DIAN_EVENTS, DIAN_PARTY, type DianEventCode, type DianEventRow } from './table.js';

type Json = Record<string, unknown>;

/** What a leaf's check gives: the normalized value, or why not (code and Spanish message at the field's path). */
export type LeafResult = { ok: true; value: unknown } | { ok: false; code: IssueCode; message: string };

/** A leaf: its check (with the object it sits in, for sibling-dependent rules) and the JSON Schema saying the same. */
export interface EventLeaf {
  check(v: unknown, parent: Record<string, unknown>): LeafResult;
  schema: Json;
}

/** A field of the payload: a leaf, an object of fields, or a list of such objects. */
export interface EventField {
  key: string;
  doc: string;
  /** Present and not null. */
  required?: boolean;
  /** Message when a required field is missing (default "es obligatorio"). */
  missing?: string;
  /** null reads as absent (an optional field only). */
  nullable?: boolean;
  leaf?: EventLeaf;
  /** An object with these fields (unknown keys refused); `notObject` is the message when it is not one. */
  fields?: readonly EventField[];
  notObject?: string;
  /** A list of `fields` objects; `notList` when it is not a list, `notObject` for an item that is not an object. */
  list?: boolean;
  notList?: string;
  /** An object naming a person or company: when its type is 31 (NIT) the number is digits only (in the schema). */
  nit?: boolean;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const ok = (value: unknown): LeafResult => ({ ok: true, value });
const no = (code: IssueCode, message: string): LeafResult => ({ ok: false, code, message });

/** A positive integer, or the digits of one (`"900508908"`); null otherwise. */
export function positiveInt(v: unknown): number | null {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^[1-9]\d{0,14}$/.test(v)) return Number(v);
  return null;
}

const POSITIVE_INT_SCHEMA: Json = {
  anyOf: [
    { type: 'integer', minimum: 1, maximum: MAX_SAFE },
    { type: 'string', pattern: '^[1-9]\\d{0,14}$' },
  ],
};

function positiveLeaf(message: string): EventLeaf {
  return {
    check: (v) => {
      const n = positiveInt(v);
      return n === null ? no('invalid_type', message) : ok(n);
    },
    schema: POSITIVE_INT_SCHEMA,
  };
}

/** A string whose trimmed text matches `body` (a regex source without anchors). */
function trimmedPattern(body: string, code: IssueCode, message: string): EventLeaf {
  const re = new RegExp(`^${body}$`);
  return {
    check: (v) => (typeof v === 'string' && re.test(v.trim()) ? ok(v.trim()) : no(code, message)),
    schema: { type: 'string', pattern: `^\\s*${body}\\s*$` },
  };
}

/** A non-empty text once trimmed, of at most `max` characters (trimmed) when given. */
function textLeaf(message: string, max?: number, code: IssueCode = 'invalid_type'): EventLeaf {
  return {
    check: (v) => {
      const t = typeof v === 'string' ? v.trim() : '';
      return t === '' || (max !== undefined && t.length > max) ? no(code, message) : ok(t);
    },
    // The trimmed text: a first and a last non-space character with at most max-2 characters between them. (A
    // schema validator counts code points, `length` UTF-16 units: they differ only for characters beyond the BMP.)
    schema: { type: 'string', pattern: max === undefined ? '\\S' : `^\\s*\\S(?:[\\s\\S]{0,${max - 2}}\\S)?\\s*$` },
  };
}

const NIT_TYPE = 31;
const ID_TEXT = '[A-Za-z0-9-]{1,20}';
const NIT_DIGITS = '\\d{1,15}';

/** An identification number: text, or a positive integer; a NIT (type 31 beside it) is digits only. */
const ID_NUMBER: EventLeaf = {
  check: (v, parent) => {
    const t = typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? String(v) : typeof v === 'string' ? v.trim() : null;
    if (t === null || !new RegExp(`^${ID_TEXT}$`).test(t)) return no('pattern', 'debe tener de 1 a 20 letras, dígitos o guiones');
    if (positiveInt(parent.identification_type_code) === NIT_TYPE && !new RegExp(`^${NIT_DIGITS}$`).test(t))
      return no('pattern', 'un NIT son solo dígitos, sin dígito de verificación');
    return ok(t);
  },
  schema: {
    anyOf: [
      { type: 'integer', minimum: 1, maximum: MAX_SAFE },
      { type: 'string', pattern: `^\\s*${ID_TEXT}\\s*$` },
    ],
  },
};

/** JSON Schema's `if`/`then` pair. */
function ifThen(condition: Json, consequence: Json): Json {
  // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here, not a thenable
  return { if: condition, then: consequence };
}

/** What the schema adds for a NIT: when the type beside it is 31, the number is digits only. */
const NIT_RULE: Json = ifThen(
  { type: 'object', properties: { identification_type_code: { enum: [NIT_TYPE, String(NIT_TYPE)] } }, required: ['identification_type_code'] },
  {
    type: 'object',
    properties: {
      identification_number: {
        anyOf: [
          { type: 'integer', minimum: 1, maximum: 999_999_999_999_999 },
          { type: 'string', pattern: `^\\s*${NIT_DIGITS}\\s*$` },
        ],
      },
    },
  },
);

const TYPE_CODE: EventLeaf = {
  check: (v) => {
    const n = positiveInt(v);
    return n === null || n > 99 ? no('invalid_type', 'debe ser un código de tipo de identificación de la DIAN (entero de 2 dígitos: 13, 31, …)') : ok(n);
  },
  schema: {
    anyOf: [
      { type: 'integer', minimum: 1, maximum: 99 },
      { type: 'string', pattern: '^[1-9]\\d?$' },
    ],
  },
};

/** A code written with leading zeros, or the integer of one (`31` → `031`). */
function paddedCode(codes: readonly string[], width: number, message: () => string): EventLeaf {
  return {
    check: (v) => {
      const c = typeof v === 'number' && Number.isInteger(v) ? String(v).padStart(width, '0') : v;
      return typeof c === 'string' && codes.includes(c) ? ok(c) : no('enum', message());
    },
    schema: {
      anyOf: [
        { type: 'string', enum: [...codes] },
        { type: 'integer', enum: codes.map(Number) },
      ],
    },
  };
}

/** The claim concepts as the messages list them: `01 (documento con inconsistencias), …`. */
export function conceptList(): string {
  return Object.entries(DIAN_CLAIM_CONCEPTS)
    .map(([k, v]) => `${k} (${v.toLowerCase()})`)
    .join(', ');
}

/** `rejection_concept_code` (031): `01` … `04`, or their integers. */
export const CONCEPT_LEAF = paddedCode(Object.keys(DIAN_CLAIM_CONCEPTS), 2, () => `debe ser uno de ${conceptList()}`);

/** `event_code`: `030` … `034`, or their integers. */
export const EVENT_CODE_LEAF = paddedCode(DIAN_EVENT_CODES, 3, () => `debe ser uno de ${DIAN_EVENT_CODES.join(', ')}`);

const PARTY_FIELDS: readonly EventField[] = [
  { key: 'identification_type_code', doc: 'Tipo de identificación de la DIAN (31 NIT, 13 cédula, …).', required: true, leaf: TYPE_CODE },
  { key: 'identification_number', doc: 'Número de identificación, sin dígito de verificación.', required: true, leaf: ID_NUMBER },
  { key: 'name', doc: 'Razón social.', required: true, leaf: textLeaf('debe ser un texto no vacío de hasta 450 caracteres', 450) },
];

const PERSON_TEXT = textLeaf('debe ser un texto no vacío de hasta 200 caracteres', 200);
const PERSON_FIELDS: readonly EventField[] = [
  { key: 'identification_type_code', doc: 'Tipo de identificación de la persona.', required: true, leaf: TYPE_CODE },
  { key: 'identification_number', doc: 'Número de identificación de la persona.', required: true, leaf: ID_NUMBER },
  { key: 'first_name', doc: 'Nombres.', required: true, leaf: PERSON_TEXT },
  { key: 'family_name', doc: 'Apellidos.', required: true, leaf: PERSON_TEXT },
  { key: 'job_title', doc: 'Cargo.', nullable: true, leaf: PERSON_TEXT },
  { key: 'organization_department', doc: 'Área o dependencia.', nullable: true, leaf: PERSON_TEXT },
];

const PARTY_OBJECT = 'debe ser un objeto { identification_type_code, identification_number, name }';

/** The event payload's fields, in the order the validator reports them (the rules of DIAN_EVENTS rows come beside). */
export const DIAN_EVENT_FIELDS: readonly EventField[] = [
  { key: 'event_code', doc: 'Código del evento: 030 … 034.', required: true, leaf: EVENT_CODE_LEAF },
  {
    key: 'number',
    doc: 'Consecutivo del evento (único por empresa).',
    required: true,
    leaf: positiveLeaf('debe ser un número entero positivo (el consecutivo del evento)'),
  },
  {
    key: 'identification_number',
    doc: 'NIT de la empresa que genera el evento, sin dígito de verificación.',
    required: true,
    leaf: positiveLeaf('debe ser el NIT de la empresa que genera el evento, sin dígito de verificación (entero)'),
  },
  {
    key: 'send',
    doc: 'Enviar por correo al emisor y al receptor.',
    leaf: {
      check: (v) => (typeof v === 'boolean' ? ok(v) : no('invalid_type', 'debe ser verdadero o falso (booleano)')),
      schema: { type: 'boolean' },
    },
  },
  {
    key: 'sender_party',
    doc: 'Quien genera el evento; por omisión, la empresa. Su número debe ser identification_number.',
    fields: PARTY_FIELDS,
    notObject: PARTY_OBJECT,
    nit: true,
  },
  {
    key: 'receiver_party',
    doc: 'Receptor del evento (emisor o adquiriente de la factura).',
    fields: PARTY_FIELDS,
    notObject: PARTY_OBJECT,
    nit: true,
  },
  {
    key: 'document_reference',
    doc: 'La factura del evento: número y CUFE.',
    required: true,
    notObject: 'debe ser un objeto { number, uuid }',
    fields: [
      {
        key: 'number',
        doc: 'Número de la factura (prefijo y consecutivo).',
        required: true,
        leaf: trimmedPattern('[A-Za-z0-9-]{1,40}', 'pattern', 'debe ser el número de la factura (prefijo y consecutivo, hasta 40 letras, dígitos o guiones)'),
      },
      {
        key: 'uuid',
        doc: 'CUFE de la factura.',
        required: true,
        leaf: trimmedPattern('[0-9a-f]{96}', 'pattern', 'debe ser el CUFE de la factura: 96 caracteres hexadecimales en minúscula'),
      },
    ],
  },
  {
    key: 'person',
    doc: 'La persona que genera el evento en nombre de la empresa.',
    fields: PERSON_FIELDS,
    notObject: 'debe ser un objeto con los datos de la persona',
    nit: true,
  },
  { key: 'rejection_concept_code', doc: 'Concepto del reclamo (031): 01 … 04.', leaf: CONCEPT_LEAF },
  {
    key: 'notes',
    doc: 'Notas del evento; 034 exige la declaración bajo juramento.',
    list: true,
    notList: 'debe ser una lista de { text }',
    notObject: 'debe ser un objeto { text }',
    fields: [
      {
        key: 'text',
        doc: 'Texto de la nota.',
        required: true,
        missing: 'debe ser un texto no vacío',
        leaf: textLeaf('debe ser un texto no vacío', undefined, 'required'),
      },
    ],
  },
];

/** The field of `key` in `fields`. */
export function eventField(fields: readonly EventField[], key: string): EventField {
  const f = fields.find((x) => x.key === key);
  if (!f) throw new Error(`no event field ${key}`);
  return f;
}

// --- Checking (used by validateDianEvent) ---

/** Where the walk reports: the validator's issue list. */
export interface IssueSink {
  add(code: IssueCode, path: string, message: string): void;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

/** Unknown keys of `o` against `fields`, each an `unknown_field` issue. */
export function unknownKeys(is: IssueSink, o: Record<string, unknown>, fields: readonly EventField[], at: string): void {
  for (const k of Object.keys(o)) if (!fields.some((f) => f.key === k)) is.add('unknown_field', at ? `${at}.${k}` : k, 'no es un campo conocido del evento');
}

/**
 * Checks field `f` of object `o` at `path`: `undefined` when absent (a required one is an issue), `null` when it
 * has an issue (reported), else the normalized value (an object's value holds its valid fields).
 */
export function checkField(is: IssueSink, o: Record<string, unknown>, f: EventField, path: string): unknown {
  const v = own(o, f.key);
  if (v === undefined || (v === null && (f.required || f.nullable))) {
    if (f.required) is.add('required', path, f.missing ?? 'es obligatorio');
    return f.required ? null : undefined;
  }
  if (f.list) {
    if (!Array.isArray(v)) {
      is.add('invalid_type', path, f.notList ?? 'debe ser una lista');
      return null;
    }
    const out: unknown[] = [];
    let good = true;
    v.forEach((item: unknown, i) => {
      const r = checkObject(is, item, f, `${path}.${i}`);
      if (r === null) good = false;
      else out.push(r);
    });
    return good ? out : null;
  }
  if (f.fields) return checkObject(is, v, f, path);
  const r = f.leaf!.check(v, o);
  if (!r.ok) {
    is.add(r.code, path, r.message);
    return null;
  }
  return r.value;
}

function checkObject(is: IssueSink, v: unknown, f: EventField, path: string): Record<string, unknown> | null {
  if (!isObj(v)) {
    is.add('invalid_type', path, f.notObject ?? 'debe ser un objeto');
    return null;
  }
  unknownKeys(is, v, f.fields!, path);
  const out: Record<string, unknown> = {};
  let good = true;
  for (const sub of f.fields!) {
    const r = checkField(is, v, sub, `${path}.${sub.key}`);
    if (r === null) good = false;
    else if (r !== undefined) out[sub.key] = r;
  }
  return good ? out : null;
}

// --- The JSON Schema (2020-12) generated from the same rows ---

function fieldSchema(f: EventField): Json {
  let s: Json;
  if (f.fields) {
    const item = objectSchema(f.fields, f.nit);
    s = f.list ? { type: 'array', items: item } : item;
  } else s = { ...f.leaf!.schema };
  if (f.nullable) s = { anyOf: [s, { type: 'null' }] };
  return { description: f.doc, ...s };
}

function objectSchema(fields: readonly EventField[], nit = false): Json {
  const properties: Json = {};
  for (const f of fields) properties[f.key] = fieldSchema(f);
  const required = fields.filter((f) => f.required).map((f) => f.key);
  const s: Json = { type: 'object', properties };
  if (required.length) s.required = required;
  s.additionalProperties = false;
  // A party or person naming a NIT (type 31) gives digits only (the check of ID_NUMBER reads the type beside it).
  if (nit) s.allOf = [NIT_RULE];
  return s;
}

/** What a row of DIAN_EVENTS adds to the payload (the same columns validateDianEvent's rules read). */
function rowSchema(row: DianEventRow): Json {
  const required: string[] = [];
  const properties: Json = {};
  const s: Json = { type: 'object' };
  if (row.receiver === 'dian') {
    // DIAN-EVT-RECEIVER-DIAN: no receiver, or DIAN itself.
    properties.receiver_party = {
      type: 'object',
      properties: { identification_number: { anyOf: [{ const: Number(DIAN_PARTY.nit) }, { type: 'string', pattern: `^\\s*${DIAN_PARTY.nit}\\s*$` }] } },
    };
  } else required.push('receiver_party'); // DIAN-EVT-RECEIVER
  // DIAN-EVT-CONCEPT: the claim requires a concept; the other events take none.
  if (row.conceptRequired) required.push('rejection_concept_code');
  else properties.rejection_concept_code = false;
  if (row.noteRequired) {
    required.push('notes'); // DIAN-EVT-NOTE
    properties.notes = { type: 'array', minItems: 1 };
  }
  if (required.length) s.required = required;
  if (Object.keys(properties).length) s.properties = properties;
  return s;
}

/**
 * The JSON Schema (2020-12) of an event request, generated from DIAN_EVENT_FIELDS and the DIAN_EVENTS rows:
 * without `code`, the SDK's request (`event_code` required, each row's rules under `if`); with `code`, the body
 * of the service's `POST /v1/{code}` (the route names the code: `event_code` may be left out, else it is that
 * code, and that row's rules apply). Rules between values (`sender_party.identification_number` equal to
 * `identification_number`, the company of the token) are the validator's only.
 */
export function dianEventRequestJsonSchema(code?: DianEventCode): Record<string, unknown> {
  const base = objectSchema(DIAN_EVENT_FIELDS);
  const head = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://ecf-kit.dev/schemas/dian-event${code ? `-${code}` : ''}.schema.json`,
    title: code ? `DIAN event ${code}: ${DIAN_EVENTS[code].name} (POST /v1/${code})` : 'DIAN event request (ApplicationResponse 030–034)',
    description:
      'Generated from src/dian/events/fields.ts and the DIAN_EVENTS rows, the same that validateDianEvent checks with; the rules between values (sender_party.identification_number = identification_number, the company of the context) are checked by validateDianEvent only.',
  };
  if (code) {
    const properties = { ...(base.properties as Json), event_code: { description: 'Opcional; si se envía, el código de la ruta.', const: code } };
    return { ...head, ...base, properties, required: (base.required as string[]).filter((k) => k !== 'event_code'), allOf: [rowSchema(DIAN_EVENTS[code])] };
  }
  const rules = Object.values(DIAN_EVENTS).map((row) =>
    ifThen({ type: 'object', properties: { event_code: { enum: [row.code, Number(row.code)] } }, required: ['event_code'] }, rowSchema(row)),
  );
  return { ...head, ...base, allOf: rules };
}

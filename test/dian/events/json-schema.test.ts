/**
 * The event request's JSON Schema (dianEventRequestJsonSchema) and validateDianEvent agree: both come from the
 * same field table and DIAN_EVENTS rows, so a body one accepts the other accepts, and a body one refuses the other
 * refuses, for the SDK's request (`event_code` in the body) and for each route's (`POST /v1/{code}`). Checked with
 * Ajv (JSON Schema 2020-12, strict) on valid bodies of every code and on invalid ones that break one rule each.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { DIAN_EVENT_CODES, type DianEventCode, dianEventRequestJsonSchema, validateDianEvent } from '../../../src/dian/index.js';
import { eventRequest, INVOICE_REF } from './fixtures.js';

// Strict, except that a `required` inside `if`/`not` may name a property declared beside it rather than in it.
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
const sdk = ajv.compile(dianEventRequestJsonSchema());
const routes = Object.fromEntries(DIAN_EVENT_CODES.map((c) => [c, ajv.compile(dianEventRequestJsonSchema(c))])) as Record<
  DianEventCode,
  ReturnType<typeof ajv.compile>
>;

type Body = Record<string, unknown>;
const json = (v: unknown): Body => JSON.parse(JSON.stringify(v));

/** Valid bodies: every code as the fixtures write it, and the forms the validator normalizes (integers for codes, padded text). */
function validBodies(): Body[] {
  const out: Body[] = DIAN_EVENT_CODES.map((c) => json(eventRequest(c)));
  const claim = json(eventRequest('031'));
  out.push({ ...claim, event_code: 31, rejection_concept_code: 4, number: '12', identification_number: '900108281' });
  out.push({ ...claim, person: { ...(claim.person as Body), job_title: null, organization_department: undefined } });
  out.push({ ...claim, document_reference: { number: ' SETP990000001 ', uuid: ` ${INVOICE_REF.uuid} ` } });
  out.push({ ...claim, receiver_party: { identification_type_code: '13', identification_number: 'CC-1020 ', name: ' Ana ' }, send: true });
  const { notes: _n, person: _p, sender_party: _s, ...bare030 } = json(eventRequest('030'));
  out.push(bare030);
  out.push({ ...json(eventRequest('034')), receiver_party: { identification_type_code: 31, identification_number: 800197268, name: 'DIAN' } });
  return out;
}

/** Invalid bodies, each breaking one field or one row rule the schema states. */
function invalidBodies(): [string, Body][] {
  const claim = json(eventRequest('031'));
  const tacit = json(eventRequest('034'));
  const { receiver_party: _r, ...noReceiver } = json(eventRequest('032'));
  const { rejection_concept_code: _c, ...noConcept } = claim;
  const { notes: _n, ...noNote } = tacit;
  return [
    ['unknown property', { ...claim, colour: 'red' }],
    ['event code 035', { ...claim, event_code: '035' }],
    ['number 0', { ...claim, number: 0 }],
    ['number as text with a sign', { ...claim, number: '-3' }],
    ['NIT as text with letters', { ...claim, identification_number: '9001A' }],
    ['send as text', { ...claim, send: 'yes' }],
    ['sender name blank', { ...claim, sender_party: { ...(claim.sender_party as Body), name: '   ' } }],
    ['sender name too long', { ...claim, sender_party: { ...(claim.sender_party as Body), name: 'x'.repeat(451) } }],
    ['a NIT with its check digit', { ...claim, receiver_party: { ...(claim.receiver_party as Body), identification_number: '900508908-1' } }],
    ['identification type 100', { ...claim, receiver_party: { ...(claim.receiver_party as Body), identification_type_code: 100 } }],
    ['party not an object', { ...claim, receiver_party: 'Ferretería' }],
    ['CUFE in upper case', { ...claim, document_reference: { ...INVOICE_REF, uuid: INVOICE_REF.uuid.toUpperCase() } }],
    ['invoice number with a space', { ...claim, document_reference: { ...INVOICE_REF, number: 'SETP 1' } }],
    ['invoice number as an integer', { ...claim, document_reference: { ...INVOICE_REF, number: 990000001 } }],
    ['document reference missing', { ...claim, document_reference: undefined }],
    ['person without family name', { ...claim, person: { ...(claim.person as Body), family_name: undefined } }],
    ['person job title empty', { ...claim, person: { ...(claim.person as Body), job_title: '' } }],
    ['note with an unknown key', { ...claim, notes: [{ text: 'a', lang: 'es' }] }],
    ['note blank', { ...claim, notes: [{ text: ' ' }] }],
    ['notes not a list', { ...claim, notes: { text: 'a' } }],
    ['031 without concept', noConcept],
    ['031 concept 05', { ...claim, rejection_concept_code: '05' }],
    ['033 with a concept', { ...json(eventRequest('033')), rejection_concept_code: '01' }],
    ['032 without receiver', noReceiver],
    ['034 without its note', noNote],
    ['034 with an empty note list', { ...tacit, notes: [] }],
    ['034 to someone else than DIAN', { ...tacit, receiver_party: claim.receiver_party }],
    ['event code null', { ...claim, event_code: null }],
  ];
}

describe('dianEventRequestJsonSchema agrees with validateDianEvent', () => {
  it('the SDK request: valid bodies pass both, each invalid body fails both', () => {
    for (const body of validBodies()) {
      expect(validateDianEvent(body).issues, JSON.stringify(body)).toEqual([]);
      expect(sdk(body), JSON.stringify(sdk.errors)).toBe(true);
    }
    for (const [why, body] of invalidBodies()) {
      expect(validateDianEvent(body).issues.length, why).toBeGreaterThan(0);
      expect(sdk(body), why).toBe(false);
    }
  });

  it('each route’s request (`POST /v1/{code}`): the code comes from the route, the row’s rules apply', () => {
    const route = (code: DianEventCode, body: Body) => {
      // What the service does: a body's event_code must be the route's, then the SDK validates with the route's code.
      const { event_code, ...rest } = body;
      if (event_code !== undefined && event_code !== code) return false;
      return validateDianEvent({ ...rest, event_code: code }).issues.length === 0;
    };
    for (const body of validBodies()) {
      const code = (typeof body.event_code === 'number' ? String(body.event_code).padStart(3, '0') : body.event_code) as DianEventCode;
      const { event_code: _e, ...withoutCode } = body;
      expect(route(code, withoutCode), JSON.stringify(body)).toBe(true);
      expect(routes[code](withoutCode), JSON.stringify(routes[code].errors)).toBe(true);
    }
    for (const [why, body] of invalidBodies()) {
      const code = DIAN_EVENT_CODES.includes(body.event_code as DianEventCode) ? (body.event_code as DianEventCode) : '031';
      expect(route(code, body), why).toBe(false);
      expect(routes[code](body), why).toBe(false);
    }
    // Another code than the route's is refused by both.
    expect(route('030', json(eventRequest('031')))).toBe(false);
    expect(routes['030'](json(eventRequest('031')))).toBe(false);
  });

  it('a claim with a valid concept passes on 031 and fails on the other routes, as the rows say', () => {
    const { event_code: _e, ...claim } = json(eventRequest('031'));
    for (const code of DIAN_EVENT_CODES) {
      const agree = validateDianEvent({ ...claim, event_code: code }).issues.length === 0;
      expect(routes[code](claim), code).toBe(agree);
      expect(agree, code).toBe(code === '031');
    }
  });
});

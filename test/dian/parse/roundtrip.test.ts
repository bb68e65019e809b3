/**
 * parse(build(x)) gives back x: for the minimal request of every kind and a seeded corpus generated from the
 * request description (25 per kind), every field the mapping writes comes back with its value and JSON type; the
 * fields the mapping does not write for the kind (src/dian/spec/coverage.ts) are the only ones missing. Every
 * corpus document also validates against the official XSDs.
 */
import { describe, expect, it } from 'vitest';
import { buildDianDocument } from '../../../src/dian/build/build.js';
import { parseDianDocument } from '../../../src/dian/parse/parse.js';
import { writtenFields } from '../../../src/dian/spec/coverage.js';
import { DIAN_KIND_IDS, type DianKindId } from '../../../src/dian/spec/kinds.js';
import { createDianSchemaValidator, detectDianSchemaId } from '../../../src/dian/xsd/index.js';
import { CONTEXT, minimalRequest } from '../helpers/build-fixtures.js';
import { generateRequest } from '../helpers/corpus.js';
import { dianXsdDir } from '../helpers/env.js';

const validator = createDianSchemaValidator(dianXsdDir());
const PER_KIND = 25;

/** `value` without the fields the mapping does not write for `kind`. */
function writtenPart(kind: DianKindId, value: unknown, path = ''): unknown {
  const written = writtenFields(kind);
  if (Array.isArray(value)) return value.map((v) => writtenPart(kind, v, `${path}.*`));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const p = path === '' ? k : `${path}.${k}`;
    if (written.has(p)) out[k] = writtenPart(kind, v, p);
  }
  return out;
}

function roundTrip(kind: DianKindId, request: Record<string, unknown>) {
  const built = buildDianDocument(kind, request, CONTEXT);
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  const parsed = parseDianDocument(built.xml);
  if (!parsed.ok) throw new Error(parsed.message);
  return { built, parsed };
}

describe('parseDianDocument(buildDianDocument(x))', () => {
  it.each(DIAN_KIND_IDS)('%s: the minimal request comes back whole but for the fields not written', (kind) => {
    const req = minimalRequest(kind, 3);
    const { parsed } = roundTrip(kind, req);
    expect(parsed.kind).toBe(kind);
    expect(parsed.request).toEqual(writtenPart(kind, req));
  });

  it.each(DIAN_KIND_IDS)('%s: a seeded corpus builds, validates against the XSDs and comes back', (kind) => {
    for (let seed = 1; seed <= PER_KIND; seed++) {
      const req = generateRequest(kind, seed);
      const { built, parsed } = roundTrip(kind, req);
      const schema = detectDianSchemaId(built.xml)!;
      const xsd = validator.validate(built.xml, schema, { unsigned: true });
      expect(xsd.violations, `${kind} seed ${seed}`).toEqual([]);
      expect(parsed.request, `${kind} seed ${seed}`).toEqual(writtenPart(kind, req));
    }
  });

  it('gives back the context the XML states: company profile, software, resolution, environment', () => {
    const { parsed } = roundTrip('invoice', minimalRequest('invoice'));
    const { technical_key: _key, ...resolution } = CONTEXT.resolution!;
    const { pin: _pin, ...software } = CONTEXT.software;
    expect(parsed.context).toEqual({ company: CONTEXT.company, software, resolution, environment: '2' });
  });

  it('refuses what is not a DIAN invoice or note, as a value', () => {
    expect(parseDianDocument('<a/>')).toMatchObject({ ok: false, message: expect.stringContaining('raíz a') });
    expect(parseDianDocument('<a>')).toMatchObject({ ok: false });
    const wrongType = buildDianDocument('invoice', minimalRequest('invoice'), CONTEXT);
    if (!wrongType.ok) throw new Error('build');
    expect(parseDianDocument(wrongType.xml.replace('<cbc:InvoiceTypeCode>01<', '<cbc:InvoiceTypeCode>77<'))).toMatchObject({ ok: false });
  });
});

/** examples/dian/event-<code>.json: each builds with the example context, is XSD-valid unsigned and reads back as written. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDianEvent, DIAN_EVENT_CODES, parseDianEvent } from '../../../src/dian/index.js';
import { createDianSchemaValidator } from '../../../src/dian/xsd/index.js';
import { dianXsdDir } from '../helpers/env.js';
import { EXAMPLES_DIR, exampleContext } from '../helpers/examples.js';

const validator = createDianSchemaValidator(dianXsdDir());

describe('event examples', () => {
  it.each(DIAN_EVENT_CODES)('event-%s.json builds, validates and reads back', (code) => {
    const request = JSON.parse(readFileSync(resolve(EXAMPLES_DIR, `event-${code}.json`), 'utf8')) as Record<string, unknown>;
    expect(request.event_code).toBe(code);
    const r = buildDianEvent(request, exampleContext());
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(validator.validate(r.xml, 'ApplicationResponse', { unsigned: true })).toEqual({ valid: true, violations: [] });
    expect(parseDianEvent(r.xml)).toMatchObject({ ok: true, code, request });
  });
});

/**
 * Issue 13 item 3 at POST /api/v1/documents/{tipo} (passthrough XML): an 11.5 MB value of 2.3 million `&amp;`
 * took ~36 s of libxml2 schema validation; the linear pre-scan refuses it with a 422 naming the limit and the
 * field, before xmldom or libxml2 run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEcfXmlFromJson, type BuildContext, type IssuerProfile } from '../../../../src/ecf/index.js';
import type { SchemaValidator } from '../../../../src/ecf/xsd/index.js';
import { baseDoc } from '../../helpers/docs.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { body, createHarness, ISSUER_PROFILE, type Harness } from './harness.js';

let h: Harness;
let validations = 0;
const counting = new Proxy(schemaValidator(), {
  get(target, prop, receiver) {
    if (prop === 'validate')
      return (...args: unknown[]) => {
        validations++;
        return (target.validate as (...a: unknown[]) => unknown)(...args);
      };
    return Reflect.get(target, prop, receiver);
  },
}) as SchemaValidator;

beforeAll(async () => {
  h = await createHarness({ schemas: counting });
});
afterAll(async () => {
  await h.close();
});

function xml32(): string {
  const ctx: BuildContext = { emisor: ISSUER_PROFILE as unknown as IssuerProfile, encf: 'E320000000901', fecha_emision: '01-04-2026' };
  return buildEcfXmlFromJson('32', baseDoc('32'), ctx);
}

describe('passthrough: hostile sizes refused by the pre-scan', () => {
  it('2.3 million &amp; in one value (11.5 MB) → 422 naming the limit and the path, no schema validation', async () => {
    const xml = xml32().replace(/<RazonSocialEmisor>[^<]*</, `<RazonSocialEmisor>${'&amp;'.repeat(2_300_000)}<`);
    expect(xml.length).toBeGreaterThan(11_000_000);
    validations = 0;
    const res = await h.post('32', xml, { contentType: 'application/xml' });
    expect(res.status).toBe(422);
    const b = await body(res);
    expect(b.document.detailed_errors['/ECF/Encabezado/Emisor/RazonSocialEmisor'].join(' ')).toMatch(/más de 1000 caracteres/);
    expect(validations).toBe(0);
  });

  it('deep nesting and a flood of empty elements → 422, no schema validation', async () => {
    validations = 0;
    const deep = xml32().replace('</Encabezado>', `${'<a>'.repeat(200_000)}${'</a>'.repeat(200_000)}</Encabezado>`);
    expect((await h.post('32', deep, { contentType: 'application/xml' })).status).toBe(422);
    const flat = xml32().replace('</Encabezado>', `</Encabezado><X>${'<a/>'.repeat(2_500_000)}</X>`);
    const res = await h.post('32', flat, { contentType: 'application/xml' });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await body(res))).toMatch(/elementos hijos/);
    expect(validations).toBe(0);
  });
});

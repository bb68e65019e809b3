/**
 * Issue 13 item 3: the linear pre-scan refuses, before xmldom or libxml2 see it, an 11.5 MB value of
 * 2.3 million `&amp;` (36 s of XSD validation before), at the inbound reception and approval services.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaValidator } from '../../../../src/ecf/xsd/index.js';
import { schemaValidator } from '../../helpers/xsd.js';
import { createHarness, login, postXml, RECEPTOR_A, remoteEcf, type Harness } from './harness.js';

let h: Harness;
let token: string;
let validations = 0;
const real = schemaValidator();
const counting = new Proxy(real, {
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
  token = await login(h);
});
afterAll(() => h.close());

const flood = (xml: string) => xml.replace(/<RazonSocialEmisor>[^<]*</, `<RazonSocialEmisor>${'&amp;'.repeat(2_300_000)}<`);

describe('inbound: an 11.5 MB &amp; value is refused before any parser', () => {
  it('recepcion: acknowledged as not received (motivo 1) naming the limit, without schema validation', async () => {
    const xml = flood(await remoteEcf('31', { buyer: RECEPTOR_A, n: 900 }));
    expect(xml.length).toBeGreaterThan(11_000_000);
    validations = 0;
    const res = await postXml(h, '/fe/recepcion/api/ecf', xml, { token });
    const ack = await res.text();
    expect(ack).toMatch(/<Estado>1<\/Estado>/);
    expect(ack).toMatch(/<CodigoMotivoNoRecibido>1<\/CodigoMotivoNoRecibido>/);
    expect(validations).toBe(0);
  });

  it('aprobacioncomercial: 413 (an ACECF is a few KB), without schema validation', async () => {
    validations = 0;
    const res = await postXml(h, '/fe/aprobacioncomercial/api/ecf', `<ACECF><A>${'&amp;'.repeat(2_300_000)}</A></ACECF>`, { token });
    expect(res.status).toBe(413);
    expect(validations).toBe(0);
  });
});

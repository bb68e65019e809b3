/**
 * GET /api/v1/documents?rnc_comprador=…&numero_factura_interna=… (issue 16): a client finds what it already
 * sent by the buyer's RNC / cédula or by its own invoice number, for documents issued as JSON and as
 * passthrough XML; the parameters are validated with Spanish messages. Runs on SQLite here and on PostgreSQL
 * through test/ecf/server/postgres-api/list-filters.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEcfXml, type IssuerProfile } from '../../../../src/ecf/index.js';
import { baseDoc } from '../../helpers/docs.js';
import { body, createHarness, ISSUER_PROFILE, type Harness } from './harness.js';

let h: Harness;
const encf: Record<string, string> = {};
beforeAll(async () => {
  h = await createHarness();
  const issue = async (name: string, doc: Record<string, any>) => {
    const res = await h.post('31', doc);
    expect(res.status, name).toBe(202);
    encf[name] = (await body(res)).document.e_ncf;
  };
  const withNumber = (rnc: string, numero?: string) => {
    const d = baseDoc('31');
    d.comprador.rnc = rnc;
    if (numero) d.emisor = { numero_factura_interna: numero };
    return d;
  };
  await issue('a', withNumber('131880738', 'FI-2026-0001'));
  await issue('b', withNumber('131880738', 'FI-2026-0002'));
  await issue('c', withNumber('101672919'));
  // Passthrough with a cédula buyer and an internal number.
  const xml = buildEcfXml('31', withNumber('00112345674', 'XML-77'), {
    emisor: ISSUER_PROFILE as unknown as IssuerProfile,
    encf: 'E310000000500',
    fecha_emision: '01-04-2026',
    fecha_vencimiento_secuencia: '31-12-2027',
  });
  const res = await h.post('31', xml, { contentType: 'application/xml' });
  expect(res.status).toBe(202);
  encf.x = 'E310000000500';
  // The other issuer sold to the same buyer with the same number: never in our list.
  expect((await h.post('31', withNumber('131880738', 'FI-2026-0001'), { token: h.other.token })).status).toBe(202);
});
afterAll(async () => {
  await h.close();
});

async function list(query: string): Promise<string[]> {
  const res = await h.call(`/api/v1/documents?${query}`);
  expect(res.status, query).toBe(200);
  return (await body(res)).data.items.map((i: any) => i.e_ncf);
}

describe('list filters', () => {
  it('rnc_comprador: the issuer’s documents to that buyer (RNC or cédula), newest first', async () => {
    expect(await list('rnc_comprador=131880738')).toEqual([encf.b, encf.a]);
    expect(await list('rnc_comprador=101672919')).toEqual([encf.c]);
    expect(await list('rnc_comprador=00112345674')).toEqual([encf.x]);
    expect(await list('rnc_comprador=999999999')).toEqual([]);
  });

  it('numero_factura_interna: exact match, JSON and passthrough', async () => {
    expect(await list('numero_factura_interna=FI-2026-0001')).toEqual([encf.a]);
    expect(await list('numero_factura_interna=XML-77')).toEqual([encf.x]);
    expect(await list('numero_factura_interna=FI-2026')).toEqual([]);
    expect(await list(`numero_factura_interna=${encodeURIComponent('fi-2026-0001')}`)).toEqual([]);
  });

  it('combines with the other filters and the cursor', async () => {
    expect(await list('rnc_comprador=131880738&numero_factura_interna=FI-2026-0002')).toEqual([encf.b]);
    expect(await list('rnc_comprador=101672919&numero_factura_interna=FI-2026-0002')).toEqual([]);
    expect(await list('rnc_comprador=131880738&tipo=33')).toEqual([]);
    const page = await body(await h.call('/api/v1/documents?rnc_comprador=131880738&limit=1'));
    expect(page.data.items.map((i: any) => i.e_ncf)).toEqual([encf.b]);
    expect(await list(`rnc_comprador=131880738&cursor=${page.data.next_cursor}`)).toEqual([encf.a]);
  });

  it('invalid values → 422 with Spanish messages per parameter', async () => {
    for (const [q, param, msg] of [
      ['rnc_comprador=12345', 'rnc_comprador', /9 dígitos \(RNC\) u 11 dígitos \(cédula\)/],
      ['rnc_comprador=131-88073-8', 'rnc_comprador', /sin guiones/],
      ['rnc_comprador=1318807380', 'rnc_comprador', /RNC o cédula inválido/],
      ['numero_factura_interna=', 'numero_factura_interna', /no puede estar vacío/],
      [`numero_factura_interna=${'x'.repeat(21)}`, 'numero_factura_interna', /como máximo 20 caracteres/],
    ] as const) {
      const res = await h.call(`/api/v1/documents?${q}`);
      expect(res.status, q).toBe(422);
      const b = await body(res);
      expect(b.message).toBe('Parámetros de consulta inválidos.');
      expect(b.document.detailed_errors[param].join(' '), q).toMatch(msg);
    }
  });
});

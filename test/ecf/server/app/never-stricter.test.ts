/**
 * Issue 15, part 1 ("never stricter than DGII"): documents DGII accepts, which this service refused with a 422, are
 * accepted on both paths — passthrough (unsigned XML) and canonical JSON, including the JSON `parseEcfXml` reads from
 * that XML — and where the spec is stricter than DGII its reading travels as a warning with the 202.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEcfXmlFromJson, parseEcfXml, type BuildContext, type EcfType, type IssuerProfile } from '../../../../src/ecf/index.js';
import { baseDoc } from '../../helpers/docs.js';
import { body, createHarness, ISSUER_PROFILE, NO_EXPIRY, type Harness } from './harness.js';

type Json = Record<string, any>;

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

let next = 100;
const seq = (tipo: string, n: number) => `E${tipo}${String(n).padStart(10, '0')}`;

function ctxFor(tipo: EcfType, n: number): BuildContext {
  const ctx: BuildContext = { emisor: ISSUER_PROFILE as unknown as IssuerProfile, encf: seq(tipo, n), fecha_emision: '01-04-2026' };
  if (!NO_EXPIRY.includes(tipo)) ctx.fecha_vencimiento_secuencia = '31-12-2027';
  return ctx;
}

/** POSTs `xml` in passthrough, expects a 202 and returns the body. */
async function acceptedXml(tipo: EcfType, xml: string): Promise<Json> {
  const res = await h.post(tipo, xml, { contentType: 'application/xml' });
  const b = await body(res);
  expect(res.status, JSON.stringify(b)).toBe(202);
  return b;
}

/** POSTs canonical JSON, expects a 202 and returns the body. */
async function acceptedJson(tipo: EcfType, doc: Json): Promise<Json> {
  const res = await h.post(tipo, doc);
  const b = await body(res);
  expect(res.status, JSON.stringify(b)).toBe(202);
  return b;
}

/**
 * The XML written as DGII's documents write it (`edit` turns our rendering into theirs), accepted in passthrough and,
 * read back by `parseEcfXml`, accepted as JSON. Returns both 202 bodies.
 */
async function acceptedBothWays(tipo: EcfType, doc: Json, edit: (xml: string) => string = (x) => x): Promise<{ xml: Json; json: Json }> {
  const n = next++;
  const xml = edit(buildEcfXmlFromJson(tipo, doc, ctxFor(tipo, n)));
  const xmlBody = await acceptedXml(tipo, xml);
  expect(xmlBody.document.e_ncf).toBe(seq(tipo, n));
  const parsed = parseEcfXml(xml);
  expect(parsed.issues).toEqual([]);
  const jsonBody = await acceptedJson(tipo, parsed.document as Json);
  return { xml: xmlBody, json: jsonBody };
}

const ruleIds = (b: Json): string[] => (b.warnings ?? []).map((w: Json) => w.rule_id);

describe('country names (PaisComprador, PaisOrigen, PaisDestino take a name; Alfa60Type)', () => {
  it('46 with "USA" in PaisComprador, PaisOrigen and PaisDestino → 202 on both paths, written unchanged', async () => {
    const doc = baseDoc('46');
    doc.transporte = { pais_origen: 'DO', pais_destino: 'US' };
    const { xml } = await acceptedBothWays('46', doc, (x) =>
      x
        .replace('<PaisComprador>Estados Unidos</PaisComprador>', '<PaisComprador>USA</PaisComprador>')
        .replace('<PaisOrigen>República Dominicana</PaisOrigen>', '<PaisOrigen>USA</PaisOrigen>')
        .replace('<PaisDestino>Estados Unidos</PaisDestino>', '<PaisDestino>USA</PaisDestino>'),
    );
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, xml.document.e_ncf))!;
    expect(rec.unsignedXml).toContain('<PaisComprador>USA</PaisComprador>');
    expect(rec.unsignedXml).toContain('<PaisOrigen>USA</PaisOrigen>');
  });

  it('JSON transporte.pais_origen / pais_destino as names ("Estados Unidos") and codes → 202, names written as given', async () => {
    const doc = baseDoc('46');
    doc.comprador.pais = 'USA';
    doc.transporte = { pais_origen: 'Estados Unidos', pais_destino: 'DO' };
    const b = await acceptedJson('46', doc);
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, b.document.e_ncf))!;
    expect(rec.unsignedXml).toContain('<PaisComprador>USA</PaisComprador>');
    expect(rec.unsignedXml).toContain('<PaisOrigen>Estados Unidos</PaisOrigen>');
    expect(rec.unsignedXml).toContain('<PaisDestino>República Dominicana</PaisDestino>');
  });

  it('47 PaisDestino as a name → 202', async () => {
    const doc = baseDoc('47');
    doc.transporte = { pais_destino: 'Alemania' };
    const b = await acceptedJson('47', doc);
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, b.document.e_ncf))!;
    expect(rec.unsignedXml).toContain('<PaisDestino>Alemania</PaisDestino>');
  });

  it('two capitals that are no ISO code are still refused (422 at comprador.pais)', async () => {
    const doc = baseDoc('46');
    doc.comprador.pais = 'XX';
    const res = await h.post('46', doc);
    expect(res.status).toBe(422);
    expect((await body(res)).document.detailed_errors['comprador.pais']).toBeDefined();
  });
});

describe('32 with MontoGravadoTotal and TotalITBIS 0.00 and no taxed lines', () => {
  it('→ 202 on both paths with ECF-TOT-CERO warnings', async () => {
    const doc = baseDoc('32');
    doc.items = [{ indicador_facturacion: 4, nombre: 'Libro', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 100, monto: 100 }];
    doc.totales = { monto_gravado_total: 0, monto_exento: 100, total_itbis: 0, monto_total: 100 };
    const { xml, json } = await acceptedBothWays('32', doc);
    for (const b of [xml, json]) {
      expect(ruleIds(b)).toEqual(['ECF-TOT-CERO', 'ECF-TOT-CERO']);
      expect(b.warnings.map((w: Json) => w.path).sort()).toEqual(['totales.monto_gravado_total', 'totales.total_itbis']);
      expect(b.warnings[0].message).toMatch(/puede omitir este campo/);
    }
  });
});

describe('credit note correcting text (CodigoModificacion 2) as DGII certification writes it', () => {
  it('one non-billable line of 1.00, MontoNoFacturable 1.00, MontoTotal 0.00 → 202 on both paths with an ECF-NC-TEXTO warning', async () => {
    const doc = baseDoc('34');
    doc.referencia.codigo_modificacion = '2';
    doc.referencia.razon_modificacion = 'Corrección del nombre del comprador';
    doc.items = [{ indicador_facturacion: 0, nombre: 'Corrección de texto', indicador_bien_servicio: '2', cantidad: 1, precio_unitario: 1, monto: 1 }];
    doc.totales = { monto_no_facturable: 1, monto_total: 0 };
    const { xml, json } = await acceptedBothWays('34', doc);
    for (const b of [xml, json]) {
      expect(ruleIds(b)).toEqual(['ECF-NC-TEXTO']);
      expect(b.warnings[0]).toMatchObject({ path: 'items.0.monto', code: 'rule' });
    }
  });
});

describe('a 34 that modifies a 41, without TipoIngresos (optional in the 34 XSD; the 41 has none)', () => {
  it('→ 202 on both paths with an ECF-IDDOC-TIPO-INGRESOS warning; the XML carries no TipoIngresos', async () => {
    const doc = baseDoc('34');
    doc.referencia.ncf_modificado = 'E410000000001';
    delete doc.id_doc.tipo_ingresos;
    const { xml, json } = await acceptedBothWays('34', doc);
    for (const b of [xml, json]) expect(ruleIds(b)).toEqual(['ECF-IDDOC-TIPO-INGRESOS']);
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, json.document.e_ncf))!;
    expect(rec.unsignedXml).not.toContain('<TipoIngresos>');
  });
});

describe('warnings travel only when there are some', () => {
  it('a clean document has no warnings key', async () => {
    const b = await acceptedJson('31', baseDoc('31'));
    expect(b).not.toHaveProperty('warnings');
  });
});

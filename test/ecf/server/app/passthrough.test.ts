/**
 * POST /api/v1/documents/{tipo} in passthrough mode (unsigned XML): every check of the spec's table with its
 * reason, XSD and business rules with the declared FechaEmision, XXE / entity refusal, and nothing consumed
 * on failure (the same e-NCF is accepted once the XML is fixed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEcfXmlFromJson, type BuildContext, type EcfType, type IssuerProfile } from '../../../../src/ecf/index.js';
import { p12Signer, readP12, signEcf } from '../../../../src/ecf/sign/index.js';
import { modernP12 } from '../../helpers/certs.js';
import { baseDoc, withLines } from '../../helpers/docs.js';
import { body, createHarness, ISSUER_PROFILE, NO_EXPIRY, NOW, type Harness } from './harness.js';

const seq = (tipo: string, n: number) => `E${tipo}${String(n).padStart(10, '0')}`;

/** Unsigned XML of the base document of `tipo`, as a client would build it. */
function xmlFor(tipo: EcfType, n: number, options: { emisor?: IssuerProfile; fecha?: string; doc?: Record<string, any> } = {}): string {
  const ctx: BuildContext = {
    emisor: options.emisor ?? (ISSUER_PROFILE as unknown as IssuerProfile),
    encf: seq(tipo, n),
    fecha_emision: options.fecha ?? '01-04-2026',
  };
  if (!NO_EXPIRY.includes(tipo)) ctx.fecha_vencimiento_secuencia = '31-12-2027';
  return buildEcfXmlFromJson(tipo, options.doc ?? baseDoc(tipo), ctx);
}

const postXml = (h: Harness, tipo: string, xml: string, contentType = 'application/xml') => h.post(tipo, xml, { contentType });

async function expectRefused(res: Response, reason: RegExp, path?: string): Promise<any> {
  expect(res.status).toBe(422);
  const b = await body(res);
  expect(b.status).toBe('error');
  expect(b.message).toMatch(/no superó las verificaciones de recepción/);
  expect(b.document).toMatchObject({ status_code: 2, status: 'rejected_validation' });
  expect(
    b.document.errors.some((e: string) => reason.test(e)),
    JSON.stringify(b.document.errors),
  ).toBe(true);
  if (path) expect(b.document.detailed_errors[path]?.some((e: string) => reason.test(e))).toBe(true);
  return b;
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

describe('passthrough: accepted', () => {
  it('a valid unsigned XML → the same 202 as JSON, stored unchanged, with the declared issue date', async () => {
    const xml = xmlFor('31', 7, { fecha: '28-03-2026' });
    const res = await postXml(h, '31', xml);
    expect(res.status).toBe(202);
    const b = await body(res);
    expect(Object.keys(b.document).sort()).toEqual(['document_id', 'e_ncf', 'ecf_type_code', 'status', 'status_code', 'status_description', 'track_id']);
    expect(b.document).toMatchObject({ ecf_type_code: '31', e_ncf: seq('31', 7), track_id: null, status_code: 1, status: 'received' });
    const rec = (await h.storage.getDocumentByEncf(h.issuer.id, seq('31', 7)))!;
    expect(rec.unsignedXml).toBe(xml);
    expect(rec).toMatchObject({ source: 'xml', issuedAt: '28-03-2026', totalAmount: '236.00', totalItbis: '36.00', summary: false });
  });

  it('text/xml with charset=utf-8 is the same resource; a 32 below the threshold is a summary', async () => {
    const xml = xmlFor('32', 3);
    const res = await postXml(h, '32', xml, 'text/xml; charset=UTF-8');
    expect(res.status).toBe(202);
    expect((await h.storage.getDocumentByEncf(h.issuer.id, seq('32', 3)))!.summary).toBe(true);
  });

  it('a 10,000-line type 32 below the threshold (XSD with the relaxed line limit)', async () => {
    const doc = withLines('32', 10_000, { indicador_facturacion: 4, nombre: 'Chicle', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 5 });
    const xml = xmlFor('32', 900, { doc });
    expect(Buffer.byteLength(xml)).toBeLessThan(12 * 1024 * 1024);
    const res = await postXml(h, '32', xml);
    expect(res.status).toBe(202);
    expect((await h.storage.getDocumentByEncf(h.issuer.id, seq('32', 900)))!).toMatchObject({ summary: true, totalAmount: '50000.00' });
  });

  it('applies the business rules with the declared FechaEmision (the 34 thirty-day rule)', async () => {
    // The base 34 modifies a receipt of 15-03-2026 with indicador_nota_credito 0 (within 30 days).
    // buildEcfXmlFromJson would refuse it, so the client's XML is built for 01-04-2026 and its date edited.
    const late = xmlFor('34', 5).replace('<FechaEmision>01-04-2026</FechaEmision>', '<FechaEmision>20-04-2026</FechaEmision>');
    expect(late).toContain('20-04-2026');
    const b = await expectRefused(await postXml(h, '34', late), /30 días|indicador_nota_credito/i);
    expect(Object.keys(b.document.detailed_errors)).toContain('id_doc.indicador_nota_credito');
    expect((await postXml(h, '34', xmlFor('34', 5, { fecha: '01-04-2026' }))).status).toBe(202);
  });
});

describe('passthrough: the checks of the spec, each with its reason, nothing consumed', () => {
  it('XML well formed', async () => {
    const xml = xmlFor('31', 20);
    await expectRefused(await postXml(h, '31', xml.slice(0, -10)), /XML mal formado/);
    await expectRefused(await postXml(h, '31', '   '), /XML mal formado/);
    expect((await postXml(h, '31', xml)).status).toBe(202);
  });

  it('root element ECF', async () => {
    await expectRefused(await postXml(h, '31', '<?xml version="1.0" encoding="utf-8"?><RFCE><Encabezado/></RFCE>'), /raíz debe ser ECF/);
    await expectRefused(await postXml(h, '31', xmlFor('31', 21).replace('<ECF>', '<ECF xmlns="urn:otro">')), /raíz debe ser ECF/);
  });

  it('TipoeCF equals the {tipo} of the path', async () => {
    await expectRefused(
      await postXml(h, '31', xmlFor('32', 21)),
      /TipoeCF del XML \(32\) no coincide con el tipo de la ruta \(31\)/,
      '/ECF/Encabezado/IdDoc/TipoeCF',
    );
    expect((await postXml(h, '32', xmlFor('32', 21))).status).toBe(202);
  });

  it('RNCEmisor equals the tax id of the credential', async () => {
    const foreign = xmlFor('31', 22, { emisor: { rnc: '131880738', razon_social: 'Otra Empresa SRL', direccion: 'Calle 2' } });
    await expectRefused(
      await postXml(h, '31', foreign),
      /RNCEmisor del XML \(131880738\) no corresponde al emisor de la credencial \(130182452\)/,
      '/ECF/Encabezado/Emisor/RNCEmisor',
    );
    // The same XML is fine for the issuer it belongs to.
    expect((await h.post('31', foreign, { token: h.other.token, contentType: 'application/xml' })).status).toBe(202);
    expect((await postXml(h, '31', xmlFor('31', 22))).status).toBe(202);
  });

  it('not already signed', async () => {
    const cert = modernP12();
    const signed = await signEcf(xmlFor('31', 23), p12Signer(readP12(cert.p12, cert.password)), () => NOW);
    await expectRefused(await postXml(h, '31', signed), /ya está firmado/, '/ECF/Signature');
    expect((await postXml(h, '31', xmlFor('31', 23))).status).toBe(202);
  });

  it('eNCF structure E + type + 10 digits', async () => {
    const xml = xmlFor('31', 24);
    await expectRefused(
      await postXml(h, '31', xml.replace(seq('31', 24), 'E3100000024')),
      /no tiene la estructura E \+ tipo \(31\) \+ 10 dígitos/,
      '/ECF/Encabezado/IdDoc/eNCF',
    );
    await expectRefused(await postXml(h, '31', xml.replace(seq('31', 24), 'E320000000024')), /no tiene la estructura/);
  });

  it('e-NCF inside an authorized sequence', async () => {
    await expectRefused(
      await postXml(h, '31', xmlFor('31', 5000)),
      /E310000005000 no está dentro de ninguna secuencia autorizada/,
      '/ECF/Encabezado/IdDoc/eNCF',
    );
  });

  it('sequence active', async () => {
    const t = await createHarness();
    try {
      await t.storage.setSequenceActive(t.sequences.get('33')!.id, false);
      await expectRefused(await postXml(t, '33', xmlFor('33', 2)), /no está activa/);
      await t.storage.setSequenceActive(t.sequences.get('33')!.id, true);
      expect((await postXml(t, '33', xmlFor('33', 2))).status).toBe(202);
    } finally {
      await t.close();
    }
  });

  it('sequence not expired (judged on the reception date)', async () => {
    const t = await createHarness();
    try {
      t.now.value = new Date('2028-01-02T14:00:00Z');
      await expectRefused(await postXml(t, '31', xmlFor('31', 2)), /está vencida/);
      t.now.value = NOW;
      expect((await postXml(t, '31', xmlFor('31', 2))).status).toBe(202);
    } finally {
      await t.close();
    }
  });

  it('no sequence at all for the type', async () => {
    const t = await createHarness({ sequences: false });
    try {
      await expectRefused(await postXml(t, '31', xmlFor('31', 1)), /No existe una secuencia de e-NCF autorizada para el tipo 31/);
    } finally {
      await t.close();
    }
  });

  it('e-NCF not already used (by passthrough or by the JSON reservation)', async () => {
    expect((await postXml(h, '41', xmlFor('41', 30))).status).toBe(202);
    await expectRefused(await postXml(h, '41', xmlFor('41', 30)), /E410000000030 ya fue utilizado/);
    const fromJson = (await body(await h.post('43', baseDoc('43')))).document.e_ncf as string;
    await expectRefused(await postXml(h, '43', xmlFor('43', Number(fromJson.slice(3)))), /ya fue utilizado/);
  });

  it('e-NCF not in a voided range (settled or pending)', async () => {
    const voided = await h.storage.createVoidBatch(h.issuer.id, 'lote-1', [{ tipo: '44', from: 40, to: 45 }]);
    await h.storage.settleVoidBatch(voided.id, true, []);
    await expectRefused(await postXml(h, '44', xmlFor('44', 42)), /E440000000042 pertenece a un rango anulado/);
    await h.storage.createVoidBatch(h.issuer.id, 'lote-2', [{ tipo: '44', from: 50, to: 50 }]);
    await expectRefused(await postXml(h, '44', xmlFor('44', 50)), /rango anulado/);
    expect((await postXml(h, '44', xmlFor('44', 46))).status).toBe(202);
  });
});

describe('passthrough: same rigor as JSON', () => {
  it('business rules: totals that do not reconcile → 422 at the JSON path', async () => {
    // buildEcfXmlFromJson refuses invalid documents, so the test builds a valid one and edits the total in the XML.
    const bad = xmlFor('31', 60).replace(/<MontoTotal>[^<]+<\/MontoTotal>/, '<MontoTotal>246.00</MontoTotal>');
    expect(bad).toContain('<MontoTotal>246.00</MontoTotal>');
    const b = await expectRefused(await postXml(h, '31', bad), /./);
    expect(Object.keys(b.document.detailed_errors)).toContain('totales.monto_total');
    expect((await postXml(h, '31', xmlFor('31', 60))).status).toBe(202);
  });

  it('XSD: elements out of order (which the reader tolerates) → 422 with the XSD reason', async () => {
    const xml = xmlFor('31', 61);
    const swapped = xml.replace(/(<RNCEmisor>[^<]*<\/RNCEmisor>)(<RazonSocialEmisor>[^<]*<\/RazonSocialEmisor>)/, '$2$1');
    expect(swapped).not.toBe(xml);
    const b = await expectRefused(await postXml(h, '31', swapped), /esquema XSD oficial del tipo 31/);
    expect(Object.keys(b.document.detailed_errors).some((k) => k.startsWith('/ECF/'))).toBe(true);
    expect((await postXml(h, '31', xml)).status).toBe(202);
  });

  it('unknown elements → 422', async () => {
    const xml = xmlFor('31', 62).replace('</Encabezado>', '<Extra>1</Extra></Encabezado>');
    await expectRefused(await postXml(h, '31', xml), /Extra/);
  });

  it('a non-UTF-8 encoding declaration → 422', async () => {
    const xml = xmlFor('31', 63).replace(/encoding="utf-8"/i, 'encoding="ISO-8859-1"');
    await expectRefused(await postXml(h, '31', xml), /codificación ISO-8859-1; debe ser UTF-8/);
  });
});

describe('passthrough: DTDs and entities are refused', () => {
  it('billion laughs', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><ECF>&lol2;</ECF>`;
    await expectRefused(await postXml(h, '31', bomb), /DOCTYPE ni ENTITY/);
  });

  it('external entity (XXE)', async () => {
    const xml = xmlFor('31', 70)
      .replace('<?xml version="1.0" encoding="utf-8"?>', '<?xml version="1.0" encoding="utf-8"?><!DOCTYPE ECF [<!ENTITY x SYSTEM "file:///etc/passwd">]>')
      .replace('<RazonSocialEmisor>', '<RazonSocialEmisor>&x;');
    await expectRefused(await postXml(h, '31', xml), /DOCTYPE ni ENTITY/);
    expect((await postXml(h, '31', xmlFor('31', 70))).status).toBe(202);
  });

  it('413 above the XML limit', async () => {
    const t = await createHarness({ limits: { xmlBytes: 1024 } });
    try {
      const res = await postXml(t, '31', xmlFor('31', 1));
      expect(res.status).toBe(413);
      expect((await body(res)).message).toMatch(/1 KB/);
    } finally {
      await t.close();
    }
  });
});

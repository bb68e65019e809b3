import { describe, expect, it } from 'vitest';
import { fillTotals } from '../../../src/ecf/calc/totals.js';
import { fileNameFor } from '../../../src/ecf/derive/file-name.js';
import { qrUrlFromSignedXml } from '../../../src/ecf/derive/qr-url.js';
import { securityCode } from '../../../src/ecf/derive/security-code.js';
import { deriveRfceXml, isBelowSummaryThreshold, parseRfceXml } from '../../../src/ecf/rfce/derive.js';
import { signEcf, signXml } from '../../../src/ecf/sign/sign-xml.js';
import { RFCE_TABLE } from '../../../src/ecf/spec/other-tables.gen.js';
import { buildEcfXmlFromJson } from '../../../src/ecf/xml/ecf.js';
import { caseContext, loadExamples } from '../helpers/corpus.js';
import { baseContext, baseDoc } from '../helpers/docs.js';
import { expectSignedAndValid, expectXsdValid, issuesOf, SIGNING_CLOCK, testSigner } from '../documents/support.js';
import { splitSigned } from '../sign/reference.js';

type Json = Record<string, any>;

/** A 32 whose amounts end in 0 (616.50, 1.00): a passthrough client may write them with 1 decimal. */
const consumo: Json = fillTotals('32', {
  id_doc: { tipo_ingresos: '01', tipo_pago: '1', formas_pago: [{ forma: '1', monto: 616.5 }] },
  comprador: { razon_social: 'Consumidor "final" & Cía' },
  items: [{ indicador_facturacion: 1, nombre: 'Pan "sobao" & café <grande>', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: 522.46 }],
});

const AMOUNT_ELEMENTS = RFCE_TABLE.rows.filter((r) => r.jsonKind === 'amount' && r.source === 'doc').map((r) => r.name);
const CODE = /<CodigoSeguridadeCF>([^<]*)<\/CodigoSeguridadeCF>/;

async function signed32(doc: Json = consumo): Promise<string> {
  return signEcf(buildEcfXmlFromJson('32', doc, baseContext('32')), testSigner(), SIGNING_CLOCK);
}

/** What a passthrough client may send: amounts with 1 decimal where the second is 0, pretty-printed. */
function passthroughStyle(xml: string): string {
  return xml.replace(/>(\d+\.\d)0</g, '>$1<').replace(/></g, '>\n  <');
}

function amountsOf(xml: string): string[] {
  return AMOUNT_ELEMENTS.flatMap((n) => [...xml.matchAll(new RegExp(`<${n}>([^<]*)</${n}>`, 'g'))].map((m) => m[1]!));
}

describe('RFCE derived from a signed type 32 below 250,000.00', () => {
  it("carries the 32's security code, amounts with 2 decimals; signed, valid against the RFCE XSD, verifies", async () => {
    const full = await signed32();
    expectSignedAndValid(full, 'ECF-32');
    const rfce = deriveRfceXml(full);
    expect(CODE.exec(rfce)![1]).toBe(securityCode(full));
    expect(rfce).toBe(
      '<?xml version="1.0" encoding="utf-8"?><RFCE><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>32</TipoeCF><eNCF>E320000000001</eNCF>' +
        '<TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago><TablaFormasPago><FormaDePago><FormaPago>1</FormaPago><MontoPago>616.50</MontoPago></FormaDePago></TablaFormasPago></IdDoc>' +
        '<Emisor><RNCEmisor>101672919</RNCEmisor><RazonSocialEmisor>Emisor SRL</RazonSocialEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>' +
        '<Comprador><RazonSocialComprador>Consumidor &quot;final&quot; &amp; Cía</RazonSocialComprador></Comprador>' +
        '<Totales><MontoGravadoTotal>522.46</MontoGravadoTotal><MontoGravadoI1>522.46</MontoGravadoI1><TotalITBIS>94.04</TotalITBIS><TotalITBIS1>94.04</TotalITBIS1>' +
        `<MontoTotal>616.50</MontoTotal></Totales><CodigoSeguridadeCF>${securityCode(full)}</CodigoSeguridadeCF></Encabezado></RFCE>`,
    );
    const signed = await signXml(rfce, testSigner());
    expect(splitSigned(signed).rest).toBe(rfce);
    expectSignedAndValid(signed, 'RFCE');
    // The printed timbre of the RFCE and of the full 32 are the same consumer-invoice URL.
    expect(qrUrlFromSignedXml(signed, { environment: 'testecf' })).toBe(qrUrlFromSignedXml(full, { environment: 'testecf' }));
    expect(fileNameFor(signed)).toBe('101672919E320000000001.xml');
  });

  it('writes Comprador even when the 32 has no buyer data (the RFCE XSD requires it)', async () => {
    const noBuyer = structuredClone(consumo);
    delete noBuyer.comprador;
    const full = await signed32(noBuyer);
    expect(full).toContain('<Comprador></Comprador>');
    const rfce = deriveRfceXml(full);
    expect(rfce).toContain('</Emisor><Comprador></Comprador><Totales>');
    expectSignedAndValid(await signXml(rfce, testSigner()), 'RFCE');
  });

  it('every amount has 0 or exactly 2 decimals, also for the maximal example (payments, additional taxes, buyer RNC)', async () => {
    const maximal = loadExamples().find((e) => e.tipo === '32' && e.variant === 'maximal')!;
    const full = await signEcf(buildEcfXmlFromJson('32', maximal.doc, caseContext('32', 'maximal')), testSigner(), SIGNING_CLOCK);
    const rfce = deriveRfceXml(full);
    for (const el of ['TablaFormasPago', 'RNCComprador', 'ImpuestosAdicionales', 'MontoNoFacturable', 'MontoPeriodo']) expect(rfce).toContain(`<${el}>`);
    expect(amountsOf(rfce).length).toBeGreaterThan(15);
    for (const a of amountsOf(rfce)) expect(a).toMatch(/^-?\d+(\.\d{2})?$/);
    expect(CODE.exec(rfce)![1]).toBe(securityCode(full));
    expectSignedAndValid(await signXml(rfce, testSigner()), 'RFCE');
  });

  it('a passthrough-style 32 (1-decimal amounts, pretty-printed before signing) gives the same RFCE, but for the code', async () => {
    const built = buildEcfXmlFromJson('32', consumo, baseContext('32'));
    const passthrough = passthroughStyle(built);
    expect(passthrough).toContain('<MontoTotal>616.5</MontoTotal>');
    expect(passthrough).toContain('\n  <Totales>');
    const fullPassthrough = await signEcf(passthrough, testSigner(), SIGNING_CLOCK);
    expectSignedAndValid(fullPassthrough, 'ECF-32'); // the e-CF XSD accepts 1 decimal
    expect(fullPassthrough).toContain('<MontoTotal>616.5</MontoTotal>');
    const fullBuilt = await signed32();

    const fromPassthrough = deriveRfceXml(fullPassthrough);
    const fromBuilt = deriveRfceXml(fullBuilt);
    expect(CODE.exec(fromPassthrough)![1]).toBe(securityCode(fullPassthrough));
    expect(securityCode(fullPassthrough)).not.toBe(securityCode(fullBuilt)); // different bytes, different signature
    const withoutCode = (x: string) => x.replace(CODE, '<CodigoSeguridadeCF>······</CodigoSeguridadeCF>');
    expect(withoutCode(fromPassthrough)).toBe(withoutCode(fromBuilt));
    expect(fromPassthrough).toContain('<MontoTotal>616.50</MontoTotal>');
    const { codigo_seguridad_ecf: a, ...semantics } = parseRfceXml(fromPassthrough).data;
    const { codigo_seguridad_ecf: b, ...expected } = parseRfceXml(fromBuilt).data;
    expect(semantics).toEqual(expected);
    expect([a, b]).toEqual([securityCode(fullPassthrough), securityCode(fullBuilt)]);
    expectSignedAndValid(await signXml(fromPassthrough, testSigner()), 'RFCE');
  });

  it('parse: round trip of a signed RFCE', async () => {
    const full = await signed32();
    const signed = await signXml(deriveRfceXml(full), testSigner());
    expect(parseRfceXml(signed)).toEqual({
      data: {
        id_doc: { tipo_ecf: '32', encf: 'E320000000001', tipo_ingresos: '01', tipo_pago: '1', forma_de_pago: [{ forma_pago: '1', monto_pago: 616.5 }] },
        emisor: { rnc_emisor: '101672919', razon_social_emisor: 'Emisor SRL', fecha_emision: '01-04-2026' },
        comprador: { razon_social_comprador: 'Consumidor "final" & Cía' },
        totales: { monto_gravado_total: 522.46, monto_gravado_i1: 522.46, total_itbis: 94.04, total_itbis1: 94.04, monto_total: 616.5 },
        codigo_seguridad_ecf: securityCode(full),
      },
      version: '1.0',
      signed: true,
      issues: [],
    });
  });
});

describe('RFCE: what cannot be summarised', () => {
  const exento = (precio: number): Json =>
    fillTotals('32', {
      id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
      comprador: { rnc: '131880738', razon_social: 'Cliente SRL' },
      items: [{ indicador_facturacion: 4, nombre: 'Equipo', indicador_bien_servicio: '1', cantidad: 1, precio_unitario: precio }],
    });

  it('a 32 of 250,000.00 or more is refused; 249,999.99 is summarised', async () => {
    expect(isBelowSummaryThreshold(249_999.99)).toBe(true);
    expect(isBelowSummaryThreshold(250_000)).toBe(false);
    const at = await signed32(exento(250_000));
    expect(at).toContain('<MontoTotal>250000.00</MontoTotal>');
    expect(issuesOf(() => deriveRfceXml(at))).toEqual([
      expect.objectContaining({ code: 'rule', ruleId: 'RFCE-ORIGEN', message: expect.stringMatching(/RD\$250,000\.00 o más se envía completa/) }),
    ]);
    const below = deriveRfceXml(await signed32(exento(249_999.99)));
    expect(below).toContain('<MontoExento>249999.99</MontoExento><MontoTotal>249999.99</MontoTotal>');
    expectXsdValid(await signXml(below, testSigner()), 'RFCE');
  });

  it('another type is refused', async () => {
    const signed31 = await signEcf(buildEcfXmlFromJson('31', baseDoc('31'), baseContext('31')), testSigner(), SIGNING_CLOCK);
    expect(issuesOf(() => deriveRfceXml(signed31))).toEqual([
      expect.objectContaining({ ruleId: 'RFCE-ORIGEN', message: 'Solo una factura de consumo (tipo 32) se resume como RFCE; el documento es tipo 31.' }),
    ]);
  });

  it('an unsigned 32 is refused', () => {
    expect(issuesOf(() => deriveRfceXml(buildEcfXmlFromJson('32', consumo, baseContext('32'))))).toEqual([
      expect.objectContaining({ ruleId: 'RFCE-ORIGEN', message: expect.stringMatching(/firmada.*no tiene firma/) }),
    ]);
  });

  it('a 32 with elements or values ecf-kit cannot read is refused with those issues', async () => {
    const odd = (await signed32()).replace('<MontoGravadoI1>522.46</MontoGravadoI1>', '<MontoGravadoI1>522,46</MontoGravadoI1><Extra>1</Extra>');
    const issues = issuesOf(() => deriveRfceXml(odd));
    expect(issues.map((i) => i.path)).toEqual(['', '/ECF/Encabezado/Totales/MontoGravadoI1', '/ECF/Encabezado/Totales/Extra']);
  });

  it('not XML, or not an e-CF, is refused', () => {
    expect(() => deriveRfceXml('<ECF>')).toThrow(/mal formado/);
    expect(() => deriveRfceXml('<RFCE><Encabezado/></RFCE>')).toThrow(/raíz debe ser ECF/);
  });
});

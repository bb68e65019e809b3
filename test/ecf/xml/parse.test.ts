/**
 * parseEcfXml edge cases: arrays decided by the table, empty groups, unknown elements, malformed input,
 * DOCTYPE refusal (XXE, billion laughs) and the country name ↔ ISO code mapping.
 */
import { describe, expect, it } from 'vitest';
import { EcfValidationError } from '../../../src/shared/errors/index.js';
import { COUNTRY_NAMES } from '../../../src/ecf/spec/countries.gen.js';
import { buildEcfXmlFromJson, parseEcfXml, renderEcfXml } from '../../../src/ecf/xml/ecf.js';
import { validateEcfJson } from '../../../src/ecf/validate/index.js';
import { fixedContext } from '../helpers/corpus.js';

const issuer = { rnc: '130182452', razon_social: 'Distribuidora Peña & Asociados, S.R.L.', direccion: 'Av. Abraham Lincoln No. 1003' };

const item = (n: number) => ({
  indicador_facturacion: 1,
  nombre: `Artículo ${n}`,
  indicador_bien_servicio: '1',
  cantidad: 1,
  precio_unitario: 100,
  monto: 100,
});

const doc31 = (items = 1) => ({
  id_doc: { tipo_ingresos: '01', tipo_pago: '1', formas_pago: [{ forma: '1', monto: 118 * items }] },
  comprador: { rnc: '101543213', razon_social: 'Ferretería Ñañez & Hermanos, S.A.' },
  totales: {
    monto_gravado_total: 100 * items,
    monto_gravado_i1: 100 * items,
    itbis1: 18,
    total_itbis: 18 * items,
    total_itbis1: 18 * items,
    monto_total: 118 * items,
  },
  items: Array.from({ length: items }, (_, i) => item(i + 1)),
});

const ctx31 = fixedContext('31', issuer);
const xml31 = (items = 1) => renderEcfXml('31', doc31(items), ctx31);

/** Runs `fn`, expecting an EcfValidationError; returns it. */
function validationError(fn: () => unknown): EcfValidationError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(EcfValidationError);
    return e as EcfValidationError;
  }
  throw new Error('expected an EcfValidationError');
}

describe('parseEcfXml: arrays come from the table, not from the element count', () => {
  it('a single Item is still an array', () => {
    const parsed = parseEcfXml(xml31(1));
    expect(Array.isArray(parsed.document.items)).toBe(true);
    expect(parsed.document.items).toEqual([item(1)]);
  });

  it('a single FormaDePago and a single TelefonoEmisor are still arrays', () => {
    const xml = renderEcfXml('31', doc31(1), fixedContext('31', { ...issuer, telefonos: ['809-555-0101'] }));
    const parsed = parseEcfXml(xml);
    expect((parsed.document.id_doc as Record<string, unknown>).formas_pago).toEqual([{ forma: '1', monto: 118 }]);
    expect(parsed.context.emisor.telefonos).toEqual(['809-555-0101']);
  });

  it('several Items keep their order; NumeroLinea is derived, not carried in JSON', () => {
    const parsed = parseEcfXml(xml31(3));
    expect(parsed.document.items).toEqual([item(1), item(2), item(3)]);
    expect(JSON.stringify(parsed.document)).not.toContain('numero_linea');
  });
});

describe('parseEcfXml: empty and absent groups', () => {
  const doc32 = {
    id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
    totales: { monto_gravado_total: 100, monto_gravado_i1: 100, itbis1: 18, total_itbis: 18, total_itbis1: 18, monto_total: 118 },
    items: [item(1)],
  };
  const ctx32 = fixedContext('32', issuer);

  it('a 32 without buyer renders the required empty Comprador and reads it back as absent', () => {
    const xml = renderEcfXml('32', doc32, ctx32);
    expect(xml).toContain('<Comprador></Comprador>');
    const parsed = parseEcfXml(xml);
    expect(parsed.document).not.toHaveProperty('comprador');
    expect(parsed.document).toEqual(doc32);
    expect(parsed.issues).toEqual([]);
  });

  it('a self-closing <Comprador/> also reads as absent', () => {
    const xml = renderEcfXml('32', doc32, ctx32).replace('<Comprador></Comprador>', '<Comprador/>');
    expect(parseEcfXml(xml).document).not.toHaveProperty('comprador');
  });

  it('a Comprador holding only whitespace reads as absent', () => {
    const xml = renderEcfXml('32', doc32, ctx32).replace('<Comprador></Comprador>', '<Comprador>\n  </Comprador>');
    expect(parseEcfXml(xml).document).not.toHaveProperty('comprador');
  });

  it('the context carries what the document does not: issuer, e-NCF, dates', () => {
    const parsed = parseEcfXml(renderEcfXml('32', doc32, ctx32));
    expect(parsed.tipo).toBe('32');
    expect(parsed.context).toEqual(ctx32);
    expect(parsed.signed).toBe(false);
    expect(parsed.fecha_hora_firma).toBeUndefined();
  });
});

describe('null is the same as absent', () => {
  it('a document with null fields builds the same XML as without them and parses back without them', () => {
    const withNulls = { ...doc31(), referencia: null, comprador: { ...doc31().comprador, contacto: null, correo: undefined } };
    const xml = buildEcfXmlFromJson('31', withNulls, ctx31); // validates: null passes as absent
    expect(xml).toBe(xml31());
    expect(parseEcfXml(xml).document).toEqual(doc31());
  });
});

describe('parseEcfXml: unknown elements and bad values are reported with an XML path', () => {
  it('an unknown element inside an Item', () => {
    const xml = xml31(2).replace('<NombreItem>Artículo 2</NombreItem>', '<NombreItem>Artículo 2</NombreItem><Color>rojo</Color>');
    const parsed = parseEcfXml(xml);
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'unknown_field', path: '/ECF/DetallesItems/Item[2]/Color', severity: 'error' })]);
    // The rest still parses.
    expect(parsed.document.items).toEqual([item(1), item(2)]);
  });

  it('an unknown element under the root and one in Encabezado', () => {
    const xml = xml31().replace('</Encabezado>', '<Extra>1</Extra></Encabezado>').replace('</ECF>', '<Anexo/></ECF>');
    const paths = parseEcfXml(xml).issues.map((i) => i.path);
    expect(paths).toEqual(['/ECF/Encabezado/Extra', '/ECF/Anexo']);
  });

  it('an element that exists in other types but not in this one is unknown here', () => {
    // IndicadorNotaCredito belongs to type 34 only.
    const xml = xml31().replace('<TipoIngresos>', '<IndicadorNotaCredito>0</IndicadorNotaCredito><TipoIngresos>');
    expect(parseEcfXml(xml).issues).toEqual([expect.objectContaining({ code: 'unknown_field', path: '/ECF/Encabezado/IdDoc/IndicadorNotaCredito' })]);
  });

  it('a value that cannot be converted is reported and left out', () => {
    const xml = xml31().replace('<CantidadItem>1.00</CantidadItem>', '<CantidadItem>uno</CantidadItem>');
    const parsed = parseEcfXml(xml);
    expect(parsed.issues).toEqual([expect.objectContaining({ code: 'invalid_type', path: '/ECF/DetallesItems/Item[1]/CantidadItem' })]);
    expect((parsed.document.items as Array<Record<string, unknown>>)[0]).not.toHaveProperty('cantidad');
  });

  it('a Signature under the root marks the document signed and is not an issue', () => {
    const xml = xml31().replace(
      '</ECF>',
      '<FechaHoraFirma>01-04-2026 10:00:00</FechaHoraFirma><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo/></Signature></ECF>',
    );
    const parsed = parseEcfXml(xml);
    expect(parsed.signed).toBe(true);
    expect(parsed.fecha_hora_firma).toBe('01-04-2026 10:00:00');
    expect(parsed.issues).toEqual([]);
  });
});

describe('parseEcfXml: input that is not an e-CF throws EcfValidationError', () => {
  it.each([
    ['empty string', ''],
    ['plain text', 'factura'],
    ['unclosed element', '<ECF><Encabezado></ECF>'],
    ['mismatched tags', '<ECF><Encabezado></Emisor></ECF>'],
    ['two roots', '<ECF></ECF><ECF></ECF>'],
    ['truncated document', () => xml31().slice(0, 200)],
  ])('malformed XML: %s', (_name, input) => {
    const xml = typeof input === 'function' ? input() : input;
    const e = validationError(() => parseEcfXml(xml));
    expect(e.issues[0]).toMatchObject({ code: 'invalid_type', severity: 'error' });
  });

  it('wrong root element', () => {
    const e = validationError(() => parseEcfXml(xml31().replace('<ECF>', '<RFCE>').replace('</ECF>', '</RFCE>')));
    expect(e.issues[0]!.message).toMatch(/ECF/);
  });

  it('root with a namespace (the XSDs have no target namespace)', () => {
    validationError(() => parseEcfXml(xml31().replace('<ECF>', '<ECF xmlns="http://dgii.gov.do/eCF">')));
  });

  it('missing or unknown TipoeCF', () => {
    validationError(() => parseEcfXml(xml31().replace('<TipoeCF>31</TipoeCF>', '')));
    validationError(() => parseEcfXml(xml31().replace('<TipoeCF>31</TipoeCF>', '<TipoeCF>99</TipoeCF>')));
  });
});

describe('parseEcfXml: TipoeCF comes from the tree (issue 13, finding 10)', () => {
  it('a commented-out TipoeCF, or one in a CDATA section of an earlier field, does not choose the type', () => {
    const commented = xml31().replace('<Encabezado>', '<Encabezado><!--<TipoeCF>32</TipoeCF>-->');
    expect(parseEcfXml(commented).tipo).toBe('31');
    const cdata = xml31().replace('<Version>1.0</Version>', '<Version>1.0<![CDATA[<TipoeCF>32</TipoeCF>]]></Version>');
    expect(parseEcfXml(cdata).tipo).toBe('31');
  });
});

describe('parseEcfXml: DOCTYPE is refused (XXE, entity expansion)', () => {
  const body = () => xml31().replace(/^<\?xml[^>]*\?>/, '');

  it('external entity (XXE)', () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE ECF [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${body().replace('Artículo 1', '&xxe;')}`;
    const e = validationError(() => parseEcfXml(xml));
    expect(e.issues[0]!.message).toMatch(/DOCTYPE/);
  });

  it('billion laughs: refused before any expansion, fast', () => {
    const ents = ['<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++) ents.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    const xml = `<?xml version="1.0"?><!DOCTYPE ECF [${ents.join('')}]>${body().replace('Artículo 1', '&lol9;')}`;
    const t0 = performance.now();
    validationError(() => parseEcfXml(xml));
    expect(performance.now() - t0).toBeLessThan(100);
  });

  it('a DOCTYPE without internal subset, in any letter case', () => {
    validationError(() => parseEcfXml(`<!DOCTYPE ECF SYSTEM "http://example.com/ecf.dtd">${body()}`));
    validationError(() => parseEcfXml(`<!doctype ECF>${body()}`));
  });

  it('a byte order mark before the declaration is accepted', () => {
    expect(parseEcfXml(`\uFEFF${xml31()}`).document).toEqual(doc31());
  });
});

describe('parseEcfXml: countries are ISO codes in JSON and Spanish names in XML', () => {
  const doc46 = (pais: string, origen: string, destino: string) => ({
    id_doc: { tipo_ingresos: '01', tipo_pago: '1' },
    comprador: { razon_social: 'Caribbean Imports LLC', identificador_extranjero: 'EIN 12-3456789', pais },
    transporte: { via_transporte: '02', pais_origen: origen, pais_destino: destino },
    totales: { monto_gravado_total: 100, monto_gravado_i3: 100, itbis3: 0, total_itbis: 0, total_itbis3: 0, monto_total: 100 },
    items: [{ ...item(1), indicador_facturacion: 3 }],
  });
  const ctx46 = fixedContext('46', issuer);

  it('US / DO / ES render as Spanish names and parse back to their codes', () => {
    const doc = doc46('US', 'DO', 'ES');
    const xml = renderEcfXml('46', doc, ctx46);
    expect(xml).toContain('<PaisComprador>Estados Unidos</PaisComprador>');
    expect(xml).toContain('<PaisOrigen>República Dominicana</PaisOrigen>');
    expect(xml).toContain('<PaisDestino>España</PaisDestino>');
    expect(parseEcfXml(xml).document).toEqual(doc);
  });

  it('every country of the table round-trips', () => {
    for (const code of Object.keys(COUNTRY_NAMES)) {
      const doc = doc46(code, code, code);
      const parsed = parseEcfXml(renderEcfXml('46', doc, ctx46));
      expect(parsed.issues, code).toEqual([]);
      expect(parsed.document, code).toEqual(doc);
    }
  });

  it('names are matched ignoring letter case and surrounding blanks', () => {
    const xml = renderEcfXml('46', doc46('US', 'DO', 'ES'), ctx46).replace('<PaisComprador>Estados Unidos<', '<PaisComprador> ESTADOS UNIDOS <');
    expect((parseEcfXml(xml).document.comprador as Record<string, unknown>).pais).toBe('US');
  });

  it('a country name outside the table (e.g. "USA", accepted by DGII) reads back as written, not as an issue (issue 15)', () => {
    const xml = renderEcfXml('46', doc46('US', 'DO', 'ES'), ctx46)
      .replace('<PaisComprador>Estados Unidos<', '<PaisComprador>USA<')
      .replace('<PaisOrigen>República Dominicana<', '<PaisOrigen>Rep Dominicana<');
    const parsed = parseEcfXml(xml);
    expect(parsed.issues).toEqual([]);
    expect((parsed.document as Record<string, any>).comprador.pais).toBe('USA');
    expect((parsed.document as Record<string, any>).transporte.pais_origen).toBe('Rep Dominicana');
    // …and the JSON path takes it back: validated, then written unchanged.
    const clean = validateEcfJson('46', parsed.document, { fechaEmision: ctx46.fecha_emision });
    const again = renderEcfXml('46', clean as unknown as Record<string, unknown>, ctx46);
    expect(again).toContain('<PaisComprador>USA</PaisComprador>');
    expect(again).toContain('<PaisOrigen>Rep Dominicana</PaisOrigen>');
  });
});

describe('parseEcfXml: text and escaping', () => {
  it('entity references and the five special characters come back verbatim', () => {
    const name = `Tornillos 3/8" & tuercas <acero> 'inox' — Ñandú`;
    const doc = doc31();
    doc.items[0]!.nombre = name;
    const xml = renderEcfXml('31', doc, ctx31);
    expect(xml).toContain('Tornillos 3/8&quot; &amp; tuercas &lt;acero&gt; &apos;inox&apos; — Ñandú');
    expect((parseEcfXml(xml).document.items as Array<Record<string, unknown>>)[0]!.nombre).toBe(name);
  });

  it('CDATA and character references are read as text', () => {
    const xml = xml31().replace('<NombreItem>Artículo 1</NombreItem>', '<NombreItem><![CDATA[A & B]]> &#241;</NombreItem>');
    expect((parseEcfXml(xml).document.items as Array<Record<string, unknown>>)[0]!.nombre).toBe('A & B ñ');
  });

  it('pretty-printed XML (indentation between elements) parses to the same document', () => {
    const pretty = xml31(2).replace(/></g, '>\n  <');
    expect(parseEcfXml(pretty).document).toEqual(doc31(2));
  });
});

describe('XML 1.0 line ends', () => {
  // Regression: @xmldom/xmldom 0.9 normalised U+0085, U+2028 and U+2029 to LF (XML 1.1 rules) in XML 1.0 documents.
  it.each([
    ['U+0085', '\u0085'],
    ['U+2028', '\u2028'],
    ['U+2029', '\u2029'],
  ])('%s in a text value round-trips', (_name, c) => {
    const doc = doc31();
    doc.items[0]!.nombre = `Línea A${c}Línea B`;
    expect((parseEcfXml(renderEcfXml('31', doc, ctx31)).document.items as Array<Record<string, unknown>>)[0]!.nombre).toBe(`Línea A${c}Línea B`);
  });
});

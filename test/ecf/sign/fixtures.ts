/** Inline test documents (the real XML builder lives in src/ecf/xml/; these do not depend on it). */
const DECL = '<?xml version="1.0" encoding="utf-8"?>';

/** Compact e-CF 31 as ecf-kit's builder writes it: accents, ñ, & and quotes escaped. */
export const compactEcf31 =
  `${DECL}<ECF><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>31</TipoeCF><eNCF>E310000000001</eNCF>` +
  `<FechaVencimientoSecuencia>31-12-2026</FechaVencimientoSecuencia><IndicadorMontoGravado>0</IndicadorMontoGravado>` +
  `<TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc><Emisor><RNCEmisor>130000001</RNCEmisor>` +
  `<RazonSocialEmisor>Panadería La Española &amp; Hijos, S.R.L.</RazonSocialEmisor>` +
  `<DireccionEmisor>Av. Núñez de Cáceres #12, Piantini</DireccionEmisor><FechaEmision>10-01-2026</FechaEmision></Emisor>` +
  `<Comprador><RNCComprador>131880738</RNCComprador><RazonSocialComprador>Comercial &quot;El Cañón&quot; &apos;SRL&apos;</RazonSocialComprador></Comprador>` +
  `<Totales><MontoGravadoTotal>1000.00</MontoGravadoTotal><MontoGravadoI1>1000.00</MontoGravadoI1><ITBIS1>18</ITBIS1>` +
  `<TotalITBIS>180.00</TotalITBIS><TotalITBIS1>180.00</TotalITBIS1><MontoTotal>1180.00</MontoTotal></Totales></Encabezado>` +
  `<DetallesItems><Item><NumeroLinea>1</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion>` +
  `<NombreItem>Pan de agua &lt;grande&gt; 100% harina</NombreItem><IndicadorBienoServicio>1</IndicadorBienoServicio>` +
  `<CantidadItem>10.00</CantidadItem><PrecioUnitarioItem>100.00</PrecioUnitarioItem><MontoItem>1000.00</MontoItem></Item></DetallesItems></ECF>`;

/**
 * Compact e-CF with accents, ñ, `&amp;` and `&lt;` but no quotes, no `>` and no empty elements:
 * xml-crypto writes it back unchanged, so the whole signed document equals xml-crypto's.
 */
export const plainEcf32 =
  `${DECL}<ECF><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>32</TipoeCF><eNCF>E320000000002</eNCF>` +
  `<TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc><Emisor><RNCEmisor>130000001</RNCEmisor>` +
  `<RazonSocialEmisor>Ferretería Núñez &amp; Asociados</RazonSocialEmisor><FechaEmision>10-01-2026</FechaEmision></Emisor>` +
  `<Comprador><RazonSocialComprador>Consumidor final &lt;anónimo</RazonSocialComprador></Comprador>` +
  `<Totales><MontoTotal>616.50</MontoTotal></Totales></Encabezado></ECF>`;

/** Same shape with raw `>` and quotes, non-BMP characters, tabs/newlines inside text, and empty elements. */
export const compactOddities =
  `${DECL}<ECF><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>32</TipoeCF><eNCF>E320000000007</eNCF></IdDoc>` +
  `<Emisor><RNCEmisor>130000001</RNCEmisor><RazonSocialEmisor>A > B "C" 'D' ¿Qué? ☕ 🇩🇴</RazonSocialEmisor>` +
  `<FechaEmision>10-01-2026</FechaEmision><Nota>línea 1\nlínea\t2</Nota><Vacio/><VacioPar></VacioPar></Emisor>` +
  `<Totales><MontoTotal>6225.09</MontoTotal></Totales></Encabezado></ECF>`;

/** No XML declaration. */
export const noDeclaration =
  '<ARECF><DetalleAcusedeRecibo><Version>1.0</Version><RNCEmisor>130000001</RNCEmisor>' +
  '<RNCComprador>131880738</RNCComprador><eNCF>E310000000001</eNCF><Estado>0</Estado>' +
  '<FechaHoraAcuseRecibo>10-01-2026 10:00:00</FechaHoraAcuseRecibo></DetalleAcusedeRecibo></ARECF>';

/** The e-CF above pretty-printed with CRLF and tabs (normalises back to the compact subset). */
export const prettyEcf =
  compactEcf31.replace(DECL, `${DECL}\r\n`).replace(/<(\/?)(Encabezado|IdDoc|Emisor|Comprador|Totales|DetallesItems|Item)>/g, '\r\n\t<$1$2>\r\n\t\t') + '\r\n';

/** DGII's seed, as DGII returns it: pretty-printed, with xsi/xsd declared in that (non-canonical) order. */
export const prettySeed =
  `${DECL}\r\n<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">\r\n` +
  `  <valor>5Vv0PqhjOPe7v0mvbMBnQyPJh5Ld6ilpZ9VbHDZjUVr+k0Ua1j4nqUIGa/NtsMG2aSs4aYbB9lx0Va3rA3Y8+RrsyIr6Ce4Ta4Oh6yyM=</valor>\r\n` +
  `  <fecha>2026-01-10T14:33:32.8617792-04:00</fecha>\r\n</SemillaModel>\r\n`;

/** Attributes (unordered, single-quoted, with specials), namespaces, a comment, CDATA and character references. */
export const generalFeatures =
  `<?xml version="1.0" encoding="UTF-8"?>\n<!-- leading comment -->\n` +
  `<r:Doc xmlns:r="urn:example:r" xmlns="urn:example:default" z='1' a="x&quot;&lt;&#9;&#10;y">\n` +
  `  <Item b="2" a="1" r:c="3">texto &#233; &#x1F600; a&#13;b</Item>\n` +
  `  <!-- inner comment -->\n  <Data><![CDATA[<no> & "parse"]]></Data>\n` +
  `  <other xmlns="urn:example:other"><leaf xml:lang="es">hola</leaf></other>\n</r:Doc>`;

/** e-CF whose root carries a default namespace. */
export const namespacedEcf = `${DECL}<ECF xmlns="http://dgii.gov.do/eCF"><Encabezado><Version>1.0</Version></Encabezado></ECF>`;

/**
 * Signing / verification throughput for a ~10-line e-CF: ecf-kit's fast path vs xml-crypto 6, and
 * the floor (one node:crypto RSA-2048 SHA-256 signature); verification of a 10,000-line e-CF 32 by
 * ecf-kit (both paths) and by xml-crypto 6. Run: `npx tsx bench/sign.ts`.
 */
import { createHash, sign as rsaSign, verify as rsaVerify, X509Certificate } from 'node:crypto';
import { signWithXmlCrypto, verifyWithXmlCrypto } from '../test/ecf/sign/reference.js';
import { p12Signer, readP12, signEcf, signXml, verifyXml } from '../src/ecf/sign/index.js';
import { modernP12, TEST_PASSWORD } from '../test/ecf/helpers/certs.js';
import { measure, measureAsync, printTable, quick, round, writeResults } from './lib.js';

const DECL = '<?xml version="1.0" encoding="utf-8"?>';
const item = (n: number) =>
  `<Item><NumeroLinea>${n}</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion><NombreItem>Artículo ${n} &quot;Peña&quot; &amp; Cía</NombreItem>` +
  `<IndicadorBienoServicio>1</IndicadorBienoServicio><CantidadItem>2.00</CantidadItem><PrecioUnitarioItem>50.00</PrecioUnitarioItem><MontoItem>100.00</MontoItem></Item>`;
const doc =
  `${DECL}<ECF><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>31</TipoeCF><eNCF>E310000000001</eNCF><FechaVencimientoSecuencia>31-12-2026</FechaVencimientoSecuencia>` +
  `<IndicadorMontoGravado>0</IndicadorMontoGravado><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc><Emisor><RNCEmisor>130000001</RNCEmisor>` +
  `<RazonSocialEmisor>Panadería La Española, S.R.L.</RazonSocialEmisor><DireccionEmisor>Av. Núñez de Cáceres #12</DireccionEmisor><FechaEmision>10-01-2026</FechaEmision></Emisor>` +
  `<Comprador><RNCComprador>131880738</RNCComprador><RazonSocialComprador>Comercial El Cañón SRL</RazonSocialComprador></Comprador>` +
  `<Totales><MontoGravadoTotal>1000.00</MontoGravadoTotal><MontoGravadoI1>1000.00</MontoGravadoI1><ITBIS1>18</ITBIS1><TotalITBIS>180.00</TotalITBIS>` +
  `<TotalITBIS1>180.00</TotalITBIS1><MontoTotal>1180.00</MontoTotal></Totales></Encabezado><DetallesItems>` +
  Array.from({ length: 10 }, (_, i) => item(i + 1)).join('') +
  `</DetallesItems><FechaHoraFirma>10-01-2026 08:00:00</FechaHoraFirma></ECF>`;
const pretty = doc.replace(/></g, '>\n  <');
const seed =
  '<?xml version="1.0" encoding="utf-8"?>\r\n<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">\r\n' +
  '  <valor>5Vv0PqhjOPe7v0mvbMBnQyPJh5Ld6ilpZ9VbHDZjUVr+k0Ua1j4nqUIGa/NtsMG2aSs4aYbB9lx0Va3rA3Y8+RrsyIr6Ce4Ta4Oh6yyM=</valor>\r\n' +
  '  <fecha>2026-01-10T14:33:32.8617792-04:00</fecha>\r\n</SemillaModel>';

const t = modernP12();
const identity = readP12(t.p12, TEST_PASSWORD);
const signer = p12Signer(identity);
const clock = () => new Date('2026-01-10T12:00:00Z');

const xmlCryptoSign = (xml: string) => signWithXmlCrypto(xml, t.keyPem, t.certificatePem);

const signed = await signXml(doc, signer);
// The fast path keeps the document's bytes and writes xml-crypto's Signature element, byte for byte.
const signatureOf = (xml: string) => xml.slice(xml.indexOf('<Signature '), xml.lastIndexOf('</ECF>'));
if (signatureOf(signed) !== signatureOf(xmlCryptoSign(doc))) throw new Error('fast path and xml-crypto disagree on the Signature');
if (signed.replace(signatureOf(signed), '') !== doc) throw new Error('the fast path changed the document');
const unstamped = doc.replace(/<FechaHoraFirma>[^<]*<\/FechaHoraFirma>/, '');
const digest = createHash('sha256').update('x').digest();
const publicKey = new X509Certificate(t.certificateDer).publicKey;
const floorSignature = rsaSign('sha256', digest, identity.privateKey);

const floor = measure('floor: node:crypto RSA-2048 SHA-256 sign (32-byte input)', () => rsaSign('sha256', digest, identity.privateKey));
const floorVerify = measure('floor: node:crypto RSA-2048 SHA-256 verify', () => rsaVerify('sha256', digest, publicKey, floorSignature));
const fast = await measureAsync('signXml, fast path (compact e-CF)', () => signXml(doc, signer));
const fixedSignature = rsaSign('sha256', digest, identity.privateKey);
const noopSigner = { certificate: signer.certificate, sign: () => fixedSignature };
const ownWork = await measureAsync("signXml, fast path, no-op Signer (ecf-kit's own work)", () => signXml(doc, noopSigner));
const fastEcf = await measureAsync('signEcf, fast path (stamps FechaHoraFirma)', () => signEcf(unstamped, signer, clock));
const indented = await measureAsync('signXml, indented e-CF (whitespace dropped, fast path)', () => signXml(pretty, signer));
const general = await measureAsync('signXml, general path (DGII seed: namespaces, indented)', () => signXml(seed, signer));
const reference = measure('xml-crypto 6 computeSignature', () => xmlCryptoSign(doc));
const verification = measure('verifyXml (ecf-kit, compact path)', () => verifyXml(signed));
const signedSeed = await signXml(seed, signer);
const verificationGeneral = measure('verifyXml (ecf-kit, DOM path: DGII seed)', () => verifyXml(signedSeed));
const verificationXmlCrypto = measure('xml-crypto 6 checkSignature (the verifier before issue 13)', () => verifyWithXmlCrypto(signed));

// Issue 13 item 4: a valid 10,000-line e-CF 32 (BENCH_QUICK: 2,000 lines). xml-crypto's XPath node sets made
// verification quadratic (~20 s); it is timed once, ours as usual.
const bigLines = quick(10_000, 2_000);
const bigItem = (n: number) =>
  `<Item><NumeroLinea>${n}</NumeroLinea><IndicadorFacturacion>4</IndicadorFacturacion><NombreItem>Artículo ${n} &amp; Cía</NombreItem>` +
  `<IndicadorBienoServicio>1</IndicadorBienoServicio><CantidadItem>1</CantidadItem><PrecioUnitarioItem>10.00</PrecioUnitarioItem><MontoItem>10.00</MontoItem></Item>`;
const big32 = await signXml(
  `${DECL}<ECF><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>32</TipoeCF><eNCF>E320000000001</eNCF></IdDoc><Emisor><RNCEmisor>130000001</RNCEmisor></Emisor>` +
    `<Totales><MontoTotal>100000.00</MontoTotal></Totales></Encabezado><DetallesItems>${Array.from({ length: bigLines }, (_, i) => bigItem(i + 1)).join('')}</DetallesItems></ECF>`,
  signer,
);
const big32Refs = big32.replaceAll('&amp;', '&#38;'); // same infoset, outside the compact subset: DOM path
if (!verifyXml(big32).valid || !verifyXml(big32Refs).valid) throw new Error('the big e-CF 32 does not verify');
const bigRows = [
  measure(`verifyXml, ${bigLines}-line e-CF 32 (compact path)`, () => verifyXml(big32), { minMs: 3000, warmup: 2 }),
  measure(`verifyXml, ${bigLines}-line e-CF 32 (DOM path)`, () => verifyXml(big32Refs), { minMs: 3000, warmup: 1 }),
  measure(`xml-crypto 6 checkSignature, ${bigLines}-line e-CF 32 (once)`, () => verifyWithXmlCrypto(big32), { minMs: 1, warmup: 0 }),
];

/**
 * The ratio fast path / floor, measured in alternating short rounds so that load from other jobs on
 * a shared machine hits both sides alike; the median of the per-round ratios is reported.
 */
async function interleavedRatio(rounds = quick(40, 6), perRound = quick(100, 20)): Promise<{ median: number; min: number; max: number }> {
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    for (let i = 0; i < perRound; i++) rsaSign('sha256', digest, identity.privateKey);
    const floorMs = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < perRound; i++) await signXml(doc, signer);
    ratios.push((performance.now() - t) / floorMs);
  }
  ratios.sort((a, b) => a - b);
  return { median: round(ratios[Math.floor(rounds / 2)]!, 2), min: round(ratios[0]!, 2), max: round(ratios[rounds - 1]!, 2) };
}
const interleaved = await interleavedRatio();

const rows = [floor, floorVerify, fast, ownWork, fastEcf, indented, general, reference, verification, verificationGeneral, verificationXmlCrypto];
console.log(`document: ${Buffer.byteLength(doc)} bytes, ${doc.split('<Item>').length - 1} detail lines; RSA-2048`);
printTable('Signing and verification, one core', rows);
const ratio = fast.ms_per_op / floor.ms_per_op;
const speedup = reference.ms_per_op / fast.ms_per_op;
console.log(
  `fast path / floor: ${round(ratio, 2)}× (separate runs); interleaved rounds: median ${interleaved.median}× (${interleaved.min}–${interleaved.max}×)`,
);
console.log(`xml-crypto / fast path: ${round(speedup, 1)}×`);
console.log(`big document: ${Buffer.byteLength(big32)} bytes, ${bigLines} detail lines`);
printTable('Verification of a large e-CF 32, one core', bigRows);
writeResults('sign.json', {
  document_bytes: Buffer.byteLength(doc),
  results: rows,
  fast_path_over_floor: round(ratio, 2),
  fast_path_over_floor_interleaved: interleaved,
  xml_crypto_over_fast_path: round(speedup, 1),
  big_document: { lines: bigLines, bytes: Buffer.byteLength(big32), results: bigRows },
});

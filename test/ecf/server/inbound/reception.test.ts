import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArecfXml } from '../../../../src/ecf/index.js';
import { createSelfSignedIdentity, signXml, verifyXml } from '../../../../src/ecf/sign/index.js';
import { schemaValidator } from '../../helpers/xsd.js';
import {
  call,
  createHarness,
  form,
  login,
  postXml,
  providerIdentity,
  RECEPTOR_A,
  RECEPTOR_B,
  REMOTE,
  remoteEcf,
  remoteIdentity,
  replaceOnce,
  T0,
  T0_DO,
  textOf,
  type Harness,
} from './harness.js';

const RECEPCION = '/fe/recepcion/api/ecf';

let h: Harness;
let token: string;
let seq = 100;
/** A fresh e-NCF sequence per test, so tests sharing the harness never collide as duplicates. */
const next = () => ++seq;

beforeAll(async () => {
  h = await createHarness();
  token = await login(h);
});
afterAll(() => h.close());

/** Posts an e-CF and returns the verified, parsed ARECF. */
async function deliver(xml: string, path = RECEPCION, init: { token?: string | null } = {}) {
  const res = await postXml(h, path, xml, { token: init.token === undefined ? token : init.token, fileName: `${REMOTE}E31.xml` });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/xml/);
  const arecf = await res.text();
  const verified = verifyXml(arecf);
  expect(verified.valid).toBe(true);
  expect(schemaValidator().validate(arecf, 'ARECF').valid).toBe(true);
  const parsed = parseArecfXml(arecf);
  expect(parsed.issues).toEqual([]);
  return { arecf, certificate: verified.certificate, ...parsed.data };
}

async function jsonError(res: Response): Promise<string> {
  return ((await res.json()) as { mensaje: string }).mensaje;
}

describe('inbound e-CF reception: received', () => {
  it('records a valid 31 and answers an ARECF Estado 0 signed by the receiving issuer', async () => {
    const n = next();
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n });
    const encf = `E31${String(n).padStart(10, '0')}`;
    const ack = await deliver(xml);
    expect(ack).toMatchObject({ rnc_emisor: REMOTE, rnc_comprador: RECEPTOR_A, encf, estado: '0', fecha_hora_acuse_recibo: T0_DO });
    expect(ack.codigo_motivo_no_recibido).toBeUndefined();
    // Signed with the receiving issuer's signer (provider mode: the provider certificate).
    expect(ack.certificate).toBe(providerIdentity().signer.certificate);

    const rec = await h.storage.getReceivedDocument(h.a.id, encf, REMOTE);
    expect(rec).toMatchObject({
      issuerId: h.a.id,
      emisorRnc: REMOTE,
      emisorName: 'Emisor SRL',
      encf,
      tipo: '31',
      fechaEmision: '01-04-2026',
      montoTotal: textOf(xml, 'MontoTotal'),
      totalItbis: textOf(xml, 'TotalITBIS'),
      xml,
      arecfXml: ack.arecf,
      estado: 0,
      motivo: null,
      receivedAt: T0.getTime(),
      approvalEstado: null,
    });
    expect(await h.storage.getReceivedDocument(h.b.id, encf, REMOTE)).toBeNull();
  });

  it('accepts every type that travels emisor → receptor (31, 33, 34, 44)', async () => {
    for (const tipo of ['33', '34', '44'] as const) {
      const n = next();
      const ack = await deliver(await remoteEcf(tipo, { buyer: RECEPTOR_B, n }));
      expect(ack).toMatchObject({ estado: '0', rnc_comprador: RECEPTOR_B, encf: `E${tipo}${String(n).padStart(10, '0')}` });
    }
    const list = await h.storage.listReceivedDocuments(h.b.id, { limit: 10 });
    expect(list.map((d) => d.tipo)).toEqual(['44', '34', '33']);
  });

  it('routes by tenant prefix: the prefix issuer receives and signs', async () => {
    const n = next();
    const ack = await deliver(await remoteEcf('31', { buyer: RECEPTOR_B, n }), `/t/${RECEPTOR_B}${RECEPCION}`);
    expect(ack).toMatchObject({ estado: '0', rnc_comprador: RECEPTOR_B });
    expect(await h.storage.getReceivedDocument(h.b.id, `E31${String(n).padStart(10, '0')}`)).not.toBeNull();
  });

  it('matches paths case-insensitively, with or without a trailing slash', async () => {
    const ack = await deliver(await remoteEcf('31', { buyer: RECEPTOR_A, n: next() }), '/FE/Recepcion/API/ECF/');
    expect(ack.estado).toBe('0');
    const tenant = await deliver(await remoteEcf('31', { buyer: RECEPTOR_A, n: next() }), `/T/${RECEPTOR_A}/fe/RECEPCION/api/Ecf`);
    expect(tenant.estado).toBe('0');
    const seed = await call(h, '/Fe/AutenticaCion/Api/Semilla');
    expect(seed.status).toBe(200);
  });
});

describe('inbound e-CF reception: not received (Estado 1)', () => {
  async function refused(xml: string, motivo: '1' | '2' | '3' | '4', path = RECEPCION) {
    const before = (await h.storage.listReceivedDocuments(h.a.id, { limit: 1000 })).length;
    const ack = await deliver(xml, path);
    expect(ack).toMatchObject({ estado: '1', codigo_motivo_no_recibido: motivo, fecha_hora_acuse_recibo: T0_DO });
    expect((await h.storage.listReceivedDocuments(h.a.id, { limit: 1000 })).length).toBe(before);
    return ack;
  }

  it('motivo 3: a second delivery of the same e-CF is a duplicate and is not recorded again', async () => {
    const n = next();
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n });
    expect((await deliver(xml)).estado).toBe('0');
    const ack = await refused(xml, '3');
    expect(ack).toMatchObject({ rnc_emisor: REMOTE, rnc_comprador: RECEPTOR_A, encf: `E31${String(n).padStart(10, '0')}` });
    // The recorded document is the first one.
    const rec = await h.storage.getReceivedDocument(h.a.id, ack.encf, REMOTE);
    expect(rec!.xml).toBe(xml);
    // The same e-NCF from another issuer (signing with its own certificate, since issue 13) is another document.
    const otherIssuer = createSelfSignedIdentity({ commonName: 'OTRO EMISOR', serialNumber: '132000001', now: new Date('2026-03-01T00:00:00Z'), days: 3650 });
    const other = await remoteEcf('31', {
      buyer: RECEPTOR_A,
      n,
      signer: otherIssuer,
      editXml: (x) => replaceOnce(x, `<RNCEmisor>${REMOTE}</RNCEmisor>`, '<RNCEmisor>132000001</RNCEmisor>'),
    });
    expect((await deliver(other, RECEPCION, { token: await login(h, '', otherIssuer) })).estado).toBe('0');
  });

  it('motivo 3 under concurrent deliveries: exactly one is received', async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
    const acks = await Promise.all(Array.from({ length: 6 }, () => deliver(xml)));
    expect(acks.map((a) => a.estado).sort()).toEqual(['0', '1', '1', '1', '1', '1']);
    for (const a of acks.filter((x) => x.estado === '1')) expect(a.codigo_motivo_no_recibido).toBe('3');
  });

  it('motivo 1: XSD-invalid e-CF (signed as it is)', async () => {
    const xml = await remoteEcf('31', {
      buyer: RECEPTOR_A,
      n: next(),
      editXml: (x) => replaceOnce(x, /<TipoIngresos>01<\/TipoIngresos>/, '<TipoIngresos>99</TipoIngresos>'),
    });
    await refused(xml, '1');
  });

  it('motivo 1: a type that does not travel emisor → receptor (41, 46, 32)', async () => {
    await refused(await remoteEcf('41', { buyer: RECEPTOR_A, n: next() }), '1');
    await refused(await remoteEcf('32', { buyer: RECEPTOR_A, n: next() }), '1');
  });

  it('motivo 1: malformed XML and XML with a DOCTYPE, still answered to the right sender', async () => {
    const good = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
    const broken = good.replace('</Encabezado>', '');
    const ack = await refused(broken, '1');
    expect(ack).toMatchObject({ rnc_emisor: REMOTE, rnc_comprador: RECEPTOR_A });
    const doctype = good.replace(/^<\?xml[^>]*\?>/, '<?xml version="1.0" encoding="utf-8"?><!DOCTYPE ECF [<!ENTITY x "y">]>');
    expect(doctype).toContain('<!DOCTYPE');
    await refused(doctype, '1');
  });

  it('motivo 1: an e-NCF of another type than TipoeCF', async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next(), editXml: (x) => x.replace(/<eNCF>E31/, '<eNCF>E33') });
    await refused(xml, '1');
  });

  it('motivo 2: content altered after signing, or a signature by another key', async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
    await refused(replaceOnce(xml, '<RazonSocialComprador>Cliente SRL</RazonSocialComprador>', '<RazonSocialComprador>Cliente SA</RazonSocialComprador>'), '2');
    const swapped = replaceOnce(
      xml,
      /<X509Certificate>[^<]+<\/X509Certificate>/,
      `<X509Certificate>${providerIdentity().signer.certificate}</X509Certificate>`,
    );
    await refused(swapped, '2');
    // Unsigned: no Signature at all fails the XSD first (the e-CF schema requires it).
    await refused(xml.replace(/<Signature[\s\S]*<\/Signature>/, ''), '1');
  });

  it('motivo 4: under a tenant prefix, a document for another buyer (ours or not) is refused, signed by the prefix tenant', async () => {
    const ours = await refused(await remoteEcf('31', { buyer: RECEPTOR_B, n: next() }), '4', `/t/${RECEPTOR_A}${RECEPCION}`);
    expect(ours.rnc_comprador).toBe(RECEPTOR_A);
    const unknown = await refused(await remoteEcf('31', { buyer: '401000001', n: next() }), '4', `/t/${RECEPTOR_A}${RECEPCION}`);
    expect(unknown.rnc_comprador).toBe(RECEPTOR_A);
    expect(await h.storage.listReceivedDocuments(h.b.id, { limit: 100, emisorRnc: REMOTE, encf: ours.encf })).toEqual([]);
  });

  it('no tenant to sign as (root path, buyer not ours or absent): a plain 400, nothing recorded', async () => {
    const res = await postXml(h, RECEPCION, await remoteEcf('31', { buyer: '401000001', n: next() }), { token });
    expect(res.status).toBe(400);
    expect(await jsonError(res)).toMatch(/401000001 no corresponde a ningún receptor/);
    const noBuyer = await postXml(h, RECEPCION, await remoteEcf('43', { n: next() }), { token });
    expect(noBuyer.status).toBe(400);
    expect(await jsonError(noBuyer)).toMatch(/\(ausente\)/);
    const garbage = await postXml(h, RECEPCION, 'esto no es XML', { token });
    expect(garbage.status).toBe(400);
  });

  it('an e-CF without a usable RNCEmisor or eNCF cannot be acknowledged: 400', async () => {
    const res = await postXml(h, `/t/${RECEPTOR_A}${RECEPCION}`, '<ECF><Encabezado/></ECF>', { token });
    expect(res.status).toBe(400);
    expect(await jsonError(res)).toMatch(/RNCEmisor y un eNCF válidos/);
  });

  it('logs refusals with their motivo', async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
    await refused(replaceOnce(xml, '<RazonSocialComprador>Cliente SRL</RazonSocialComprador>', '<RazonSocialComprador>Otro</RazonSocialComprador>'), '2');
    const entry = h.logs.filter((l) => l.level === 'warn' && l.msg === 'inbound e-CF not received').at(-1);
    expect(entry?.obj).toMatchObject({ receiver: RECEPTOR_A, rncEmisor: REMOTE, motivo: 2 });
  });
});

describe('inbound routing and HTTP', () => {
  it('declines paths that are not inbound services', async () => {
    for (const path of ['/api/v1/documents/31', '/fe/recepcion/api/otra', '/fe/recepcion/api/ecf/extra', '/x/fe/recepcion/api/ecf', '/t/131880738', '/']) {
      expect(await h.handler(new Request(`http://receptor.test${path}`, { method: 'POST' }))).toBeNull();
    }
  });

  it('answers 405 for the wrong method and 404 for a prefix RNC that is not ours', async () => {
    const get = await call(h, RECEPCION);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await call(h, '/fe/autenticacion/api/semilla', { method: 'POST' })).status).toBe(405);
    const unknown = await call(h, '/t/401000001/fe/autenticacion/api/semilla');
    expect(unknown.status).toBe(404);
    expect(await jsonError(unknown)).toMatch(/401000001/);
    expect((await call(h, '/t/abc/fe/recepcion/api/ecf', { method: 'POST' })).status).toBe(404);
  });

  it('refuses bodies over the limit with 413, by Content-Length and while reading', async () => {
    const small = await createHarness({ requireAuth: false, maxBodyBytes: 2_000 });
    try {
      const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
      const declared = await call(small, RECEPCION, { method: 'POST', body: xml, headers: { 'content-type': 'application/xml' } });
      expect(declared.status).toBe(413);
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(xml));
          c.close();
        },
      });
      const streamed = await call(small, RECEPCION, {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/xml' },
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(await jsonError(streamed)).toMatch(/2000 bytes/);
      expect(await small.storage.listReceivedDocuments(small.a.id, { limit: 5 })).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('answers 503 when the receiving issuer has no signer, and records nothing', async () => {
    const own = await h.storage.createIssuer({ rnc: '130000003', name: 'Sin certificado', profile: {}, signingMode: 'own' });
    const res = await postXml(h, RECEPCION, await remoteEcf('31', { buyer: '130000003', n: next() }), { token });
    expect(res.status).toBe(503);
    expect(await jsonError(res)).toMatch(/no puede firmar/);
    expect(await h.storage.listReceivedDocuments(own.id, { limit: 5 })).toEqual([]);
  });

  it('answers errors in XML when the caller accepts only XML', async () => {
    const res = await postXml(h, RECEPCION, await remoteEcf('31', { buyer: '401000001', n: next() }), { token, accept: 'application/xml' });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^<\?xml[^>]*\?><RespuestaError><Estado>Error<\/Estado><Mensaje>El RNCComprador 401000001/);
  });
});

describe('inbound multipart leniency (DGII sends odd part headers)', () => {
  const B = 'xYzBoUnDaRy42';

  async function raw(body: string, contentType: string | null) {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (contentType !== null) headers['content-type'] = contentType;
    const res = await call(h, RECEPCION, { method: 'POST', body, headers });
    expect(res.status).toBe(200);
    return parseArecfXml(await res.text()).data;
  }

  it('unquoted name and filename, CRLF', async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
    const body = `--${B}\r\nContent-Disposition: form-data; name=xml; filename=aprobacionComercial.xml\r\nContent-Type: text/xml\r\n\r\n${xml}\r\n--${B}--\r\n`;
    expect((await raw(body, `multipart/form-data; boundary=${B}`)).estado).toBe('0');
  });

  it('LF-only line ends and a part declared as multipart/form-data', async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
    const body = `--${B}\nContent-Disposition: form-data; name="xml"; filename="f.xml"\nContent-Type: multipart/form-data;\n\n${xml}\n--${B}--\n`;
    expect((await raw(body, `multipart/form-data; boundary="${B}"`)).estado).toBe('0');
  });

  it('no boundary parameter in Content-Type, a preamble line, and filename* only', async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
    const body = `--${B}\r\nContent-Disposition: form-data; name=archivo; filename*=utf-8''${REMOTE}E31.xml\r\n\r\n${xml}\r\n--${B}--`;
    expect((await raw(body, 'multipart/form-data')).estado).toBe('0');
  });

  it('other fields besides xml, and a UTF-8 BOM in the document', async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
    const body = `--${B}\r\nContent-Disposition: form-data; name="otro"\r\n\r\nvalor\r\n--${B}\r\nContent-Disposition: form-data; name="xml"; filename="a.xml"\r\n\r\n\uFEFF${xml}\r\n--${B}--\r\n`;
    expect((await raw(body, `multipart/form-data; boundary=${B}`)).estado).toBe('0');
  });

  it('the XML itself as the body', async () => {
    const xml = await remoteEcf('31', { buyer: RECEPTOR_A, n: next() });
    expect((await raw(xml, 'application/xml')).estado).toBe('0');
    expect((await raw(await remoteEcf('31', { buyer: RECEPTOR_A, n: next() }), null)).estado).toBe('0');
  });

  it('keeps non-ASCII text intact (the signature covers it)', async () => {
    const xml = await remoteEcf('31', {
      buyer: RECEPTOR_A,
      n: next(),
      change: (d) => {
        d.comprador.razon_social = 'Peña & Muñoz, S.R.L. — Año 2026';
      },
    });
    const body = `--${B}\r\nContent-Disposition: form-data; name=xml\r\n\r\n${xml}\r\n--${B}--\r\n`;
    const ack = await raw(body, `multipart/form-data; boundary=${B}`);
    expect(ack.estado).toBe('0');
    const rec = await h.storage.getReceivedDocument(h.a.id, ack.encf, REMOTE);
    expect(rec!.xml).toContain('Peña &amp; Muñoz, S.R.L. — Año 2026');
  });

  it('an empty form or a form without a file is "Multipart cannot be empty" (400)', async () => {
    for (const body of [
      `--${B}--\r\n`,
      `--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${B}\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--${B}--`,
    ]) {
      const res = await call(h, RECEPCION, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${B}` },
      });
      expect(res.status).toBe(400);
      expect(await jsonError(res)).toMatch(/Multipart cannot be empty/);
    }
    const empty = await call(h, RECEPCION, { method: 'POST', body: form(' \r\n'), headers: { authorization: `Bearer ${token}` } });
    expect(empty.status).toBe(400);
  });

  it('signing the seed and posting it work the same through a hand-written multipart', async () => {
    const seed = await (await call(h, '/fe/autenticacion/api/semilla')).text();
    const signed = await signXml(seed, remoteIdentity().signer);
    const body = `--${B}\nContent-Disposition: form-data; name=xml; filename=semilla.xml\nContent-Type: multipart/form-data;\n\n${signed}\n--${B}--`;
    const res = await call(h, '/fe/autenticacion/api/validacioncertificado', { method: 'POST', body, headers: { 'content-type': 'multipart/form-data' } });
    expect(res.status).toBe(200);
  });
});

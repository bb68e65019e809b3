/**
 * Received documents (rows recorded through the storage's inbound methods, as the reception service does):
 * list with filters and pagination, detail, commercial approval delivered to a loopback receiver (the
 * issuer's `urlAceptacion` in the simulator's directory) and copied to the simulator, with its refusals,
 * partial failures and retries, the live fiscal status, and issuer isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildArecfXml, parseAcecfXml } from '../../../../src/ecf/index.js';
import { signXml, verifyXml } from '../../../../src/ecf/sign/index.js';
import type { NewReceivedDocument, ReceivedDocument } from '../../../../src/ecf/server/storage/types.js';
import { body, createV2Harness, foreignEcf, sendToAuthority, startReceiver, type LoopbackReceiver, type V2Harness } from './harness.js';

const X = '101000001';
const Y = '101000003';
const Z = '101000005';

let h: V2Harness;
let receiver: LoopbackReceiver;
const rows = new Map<string, ReceivedDocument>();

/** Records a received e-CF for `issuerId` as the reception service would. */
async function record(
  issuerId: number,
  key: string,
  args: { emisor: string; encf: string; tipo?: '31' | '32' | '33'; fecha?: string; buyer?: string; estado?: 0 | 1 },
): Promise<ReceivedDocument> {
  const tipo = args.tipo ?? '31';
  const buyer = args.buyer ?? h.issuer.rnc;
  const xml = await foreignEcf({ rnc: args.emisor, buyerRnc: buyer, encf: args.encf, signer: h.providerSigner, clock: h.clock, tipo });
  const arecf = await signXml(
    buildArecfXml({
      rnc_emisor: args.emisor,
      rnc_comprador: buyer,
      encf: args.encf,
      estado: args.estado === 1 ? '1' : '0',
      ...(args.estado === 1 ? { codigo_motivo_no_recibido: '1' as const } : {}),
      fecha_hora_acuse_recibo: '01-04-2026 10:00:05',
    }),
    h.providerSigner,
  );
  const doc: NewReceivedDocument = {
    emisorRnc: args.emisor,
    emisorName: `Proveedor ${args.emisor} SRL`,
    encf: args.encf,
    tipo,
    fechaEmision: args.fecha ?? '01-04-2026',
    montoTotal: /<MontoTotal>([^<]+)<\/MontoTotal>/.exec(xml)![1]!,
    totalItbis: /<TotalITBIS>([^<]+)<\/TotalITBIS>/.exec(xml)?.[1] ?? null,
    xml,
    arecfXml: arecf,
    estado: args.estado ?? 0,
    motivo: args.estado === 1 ? 1 : null,
    receivedAt: h.now.value.getTime(),
  };
  const row = (await h.storage.addReceivedDocument(issuerId, doc))!;
  rows.set(key, row);
  return row;
}

/** Sends the row's e-CF to the authority as its issuer (so that the approval copy can be accepted). */
async function atAuthority(key: string): Promise<void> {
  const row = rows.get(key)!;
  expect(await sendToAuthority(h, row.emisorRnc, row.xml, h.providerSigner)).toBe(1);
}

function approve(encf: string, payload: unknown, query = '', token?: string): Promise<Response> {
  return h.postJson(`/api/v1/received-documents/${encf}/commercial-approval${query}`, payload, token);
}

/** The ACECF the receiver got in its n-th request (multipart part `xml`). */
function acecfAt(n: number): string {
  const req = receiver.requests[n]!;
  expect(req.method).toBe('POST');
  expect(req.url).toBe('/fe/aprobacioncomercial/api/ecf');
  expect(req.contentType).toMatch(/^multipart\/form-data; boundary=/);
  return /<ACECF[\s\S]*<\/ACECF>/.exec(req.body)![0];
}

beforeAll(async () => {
  h = await createV2Harness();
  receiver = await startReceiver();
  h.sim.addDirectoryEntry({ nombre: 'PROVEEDOR UNO SRL', rnc: X, urlRecepcion: receiver.url, urlAceptacion: receiver.url, urlOpcional: null });
  await record(h.issuer.id, 'x1', { emisor: X, encf: 'E310000000001' });
  await record(h.issuer.id, 'x2', { emisor: X, encf: 'E310000000002' });
  await record(h.issuer.id, 'y1', { emisor: Y, encf: 'E310000000001' });
  await record(h.issuer.id, 'x32', { emisor: X, encf: 'E320000000001', tipo: '32' });
  await record(h.issuer.id, 'x4', { emisor: X, encf: 'E310000000004' });
  await record(h.issuer.id, 'x5', { emisor: X, encf: 'E310000000005' });
  await record(h.issuer.id, 'z33', { emisor: Z, encf: 'E330000000001', tipo: '33', fecha: '15-03-2026' });
  await record(h.issuer.id, 'x6', { emisor: X, encf: 'E310000000006', estado: 1 });
  await record(h.other.issuer.id, 'b3', { emisor: X, encf: 'E310000000003', buyer: h.other.issuer.rnc });
  for (const k of ['x1', 'x2', 'x5']) await atAuthority(k);
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

describe('GET /api/v1/received-documents', () => {
  it('lists the caller’s received e-CF, newest first, without the XML', async () => {
    const res = await h.call('/api/v1/received-documents');
    expect(res.status).toBe(200);
    const b = await body(res);
    const items = b.data.items as any[];
    expect(items.map((i) => `${i.rnc_emisor}/${i.e_ncf}`)).toEqual([
      `${X}/E310000000006`,
      `${Z}/E330000000001`,
      `${X}/E310000000005`,
      `${X}/E310000000004`,
      `${X}/E320000000001`,
      `${Y}/E310000000001`,
      `${X}/E310000000002`,
      `${X}/E310000000001`,
    ]);
    expect(b.data.next_cursor).toBeNull();
    const first = items.find((i) => i.e_ncf === 'E310000000002');
    expect(first).toMatchObject({
      id: rows.get('x2')!.id,
      ecf_type_code: '31',
      rnc_emisor: X,
      razon_social_emisor: `Proveedor ${X} SRL`,
      fecha_emision: '01-04-2026',
      monto_total: rows.get('x2')!.montoTotal,
      total_itbis: rows.get('x2')!.totalItbis,
      recibido_en: '01-04-2026 10:00:00',
      acuse_recibo: { estado: 0, descripcion: 'e-CF recibido.', codigo_motivo_no_recibido: null },
    });
    expect(first.xml_ecf).toBeUndefined();
    expect(items.find((i) => i.e_ncf === 'E310000000006').acuse_recibo).toEqual({ estado: 1, descripcion: 'e-CF no recibido.', codigo_motivo_no_recibido: 1 });
  });

  it('filters by issuer, type and issue dates; pages with the cursor', async () => {
    const get = async (q: string) => (await body(await h.call(`/api/v1/received-documents?${q}`))).data;
    expect((await get(`rnc_emisor=${Y}`)).items.map((i: any) => i.e_ncf)).toEqual(['E310000000001']);
    expect((await get('tipo=32')).items.map((i: any) => i.e_ncf)).toEqual(['E320000000001']);
    expect((await get('hasta=31-03-2026')).items.map((i: any) => i.e_ncf)).toEqual(['E330000000001']);
    expect((await get('desde=01-04-2026&tipo=33')).items).toEqual([]);
    const p1 = await get('limit=3');
    expect(p1.items).toHaveLength(3);
    const p2 = await get(`limit=3&cursor=${p1.next_cursor}`);
    const p3 = await get(`limit=3&cursor=${p2.next_cursor}`);
    expect(p3.next_cursor).toBeNull();
    expect([...p1.items, ...p2.items, ...p3.items].map((i: any) => i.id)).toEqual((await get('')).items.map((i: any) => i.id));
  });

  it('422 for invalid parameters', async () => {
    for (const [q, key] of [
      ['rnc_emisor=12ab', 'rnc_emisor'],
      ['desde=31-02-2026', 'desde'],
      ['desde=02-04-2026&hasta=01-04-2026', 'desde'],
      ['tipo=30', 'tipo'],
      ['limit=0', 'limit'],
    ] as const) {
      const res = await h.call(`/api/v1/received-documents?${q}`);
      expect(res.status, q).toBe(422);
      expect(Object.keys((await body(res)).document.detailed_errors), q).toContain(key);
    }
  });
});

describe('GET /api/v1/received-documents/{eNCF}', () => {
  it('the detail carries the original XML and the receipt acknowledgment', async () => {
    const res = await h.call('/api/v1/received-documents/E310000000002');
    expect(res.status).toBe(200);
    const d = (await body(res)).data;
    expect(d.xml_ecf).toBe(rows.get('x2')!.xml);
    expect(d.xml_acuse_recibo).toBe(rows.get('x2')!.arecfXml);
    expect(verifyXml(d.xml_acuse_recibo).valid).toBe(true);
    expect(d.xml_aprobacion_comercial).toBeNull();
    expect(d.aprobacion_comercial).toBeNull();
  });

  it('two issuers sent the same e-NCF: 409 until rnc_emisor says which', async () => {
    const res = await h.call('/api/v1/received-documents/E310000000001');
    expect(res.status).toBe(409);
    const m = (await body(res)).message as string;
    expect(m).toContain(X);
    expect(m).toContain(Y);
    expect(m).toContain('?rnc_emisor=');
    const y = await h.call(`/api/v1/received-documents/E310000000001?rnc_emisor=${Y}`);
    expect(y.status).toBe(200);
    expect((await body(y)).data.id).toBe(rows.get('y1')!.id);
    expect((await h.call(`/api/v1/received-documents/E310000000001?rnc_emisor=${Z}`)).status).toBe(404);
    expect((await h.call('/api/v1/received-documents/E310000000001?rnc_emisor=x')).status).toBe(422);
  });

  it('404 for an unknown or malformed e-NCF', async () => {
    expect((await h.call('/api/v1/received-documents/E310000000099')).status).toBe(404);
    expect((await h.call('/api/v1/received-documents/F31')).status).toBe(404);
  });
});

describe('POST /api/v1/received-documents/{eNCF}/commercial-approval: refusals (422, nothing sent)', () => {
  async function refused(encf: string, payload: unknown, pattern: RegExp, query = ''): Promise<void> {
    const sent = receiver.requests.length;
    const approvals = h.sim.stats().approvals;
    const res = await approve(encf, payload, query);
    expect(res.status).toBe(422);
    const b = await body(res);
    expect(b.document.errors.join(' | ')).toMatch(pattern);
    expect(receiver.requests.length).toBe(sent);
    expect(h.sim.stats().approvals).toBe(approvals);
  }

  it('estado must be 1 or 2; motivo_rechazo required on 2, at most 250 characters, only on 2', async () => {
    await refused('E310000000002', { estado: 2 }, /motivo_rechazo es requerido cuando estado es 2/);
    await refused('E310000000002', { estado: 2, motivo_rechazo: '   ' }, /motivo_rechazo es requerido cuando estado es 2/);
    await refused('E310000000002', { estado: 2, motivo_rechazo: 'x'.repeat(251) }, /motivo_rechazo admite como máximo 250 caracteres \(tiene 251\)/);
    await refused('E310000000002', { estado: 3 }, /estado es requerido: 1 \(acepta\) o 2 \(rechaza\)/);
    await refused('E310000000002', { estado: '1' }, /estado es requerido/);
    await refused('E310000000002', { estado: 1, motivo_rechazo: 'no aplica' }, /solo se indica cuando estado es 2/);
    expect(rows.get('x2')!.approvalEstado).toBeNull();
    expect((await h.storage.getReceivedDocument(h.issuer.id, 'E310000000002', X))!.approvalEstado).toBeNull();
  });

  it('a type that does not admit commercial approval, and an e-CF answered as not received', async () => {
    await refused('E320000000001', { estado: 1 }, /El tipo de e-CF 32 no admite aprobación comercial \(solo 31, 33, 34, 44, 45\)/);
    await refused('E310000000006', { estado: 1 }, /no recibido/);
  });
});

describe('POST /api/v1/received-documents/{eNCF}/commercial-approval: delivery', () => {
  it('estado 1: a signed ACECF with the e-CF’s values goes to the issuer’s receiver and a copy to the authority', async () => {
    const approvals = h.sim.stats().approvals;
    const res = await approve('E310000000001', { estado: 1 }, `?rnc_emisor=${X}`);
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b).toMatchObject({ status: 'success', message: 'Aprobación comercial enviada al emisor y a la autoridad tributaria.' });
    expect(b.data).toMatchObject({
      e_ncf: 'E310000000001',
      rnc_emisor: X,
      estado: 1,
      motivo_rechazo: null,
      enviada_en: '01-04-2026 10:00:00',
      emisor: { entregada: true, url: `${receiver.url}/fe/aprobacioncomercial/api/ecf`, http_status: 200, error: null },
      autoridad: { entregada: true, codigo: '1', error: null },
    });
    expect(h.sim.stats().approvals).toBe(approvals + 1);

    const acecf = acecfAt(receiver.requests.length - 1);
    expect(verifyXml(acecf).valid).toBe(true);
    const parsed = parseAcecfXml(acecf);
    expect(parsed.issues).toEqual([]);
    expect(parsed.data).toMatchObject({ rnc_emisor: X, encf: 'E310000000001', fecha_emision: '01-04-2026', rnc_comprador: h.issuer.rnc, estado: '1' });
    expect(Number(parsed.data.monto_total).toFixed(2)).toBe(rows.get('x1')!.montoTotal);
    expect(receiver.requests.at(-1)!.body).toContain(`filename="${h.issuer.rnc}E310000000001.xml"`);

    const stored = (await h.storage.getReceivedDocument(h.issuer.id, 'E310000000001', X))!;
    expect(stored).toMatchObject({ approvalEstado: 1, approvalMotivo: null });
    expect(stored.approvalXml!.endsWith(acecf)).toBe(true);
    const detail = (await body(await h.call(`/api/v1/received-documents/E310000000001?rnc_emisor=${X}`))).data;
    expect(detail.aprobacion_comercial).toMatchObject({ estado: 1, motivo_rechazo: null, enviada_en: '01-04-2026 10:00:00' });
    expect(detail.aprobacion_comercial.entrega.emisor.entregada).toBe(true);
    expect(detail.xml_aprobacion_comercial).toBe(stored.approvalXml);
  });

  it('one approval per document: a repeat once delivered, or a different decision, is 409', async () => {
    const sent = receiver.requests.length;
    expect((await approve('E310000000001', { estado: 1 }, `?rnc_emisor=${X}`)).status).toBe(409);
    const change = await approve('E310000000001', { estado: 2, motivo_rechazo: 'cambio' }, `?rnc_emisor=${X}`);
    expect(change.status).toBe(409);
    expect((await body(change)).message).toMatch(/ya tiene una aprobación comercial registrada \(estado 1\)/);
    expect(receiver.requests.length).toBe(sent);
  });

  it('estado 2 with a 250-character reason carries DetalleMotivoRechazo', async () => {
    const motivo = `Mercancía dañada ${'ñ'.repeat(233)}`;
    expect([...motivo]).toHaveLength(250);
    const res = await approve('E310000000005', { estado: 2, motivo_rechazo: motivo });
    expect(res.status).toBe(200);
    expect((await body(res)).data).toMatchObject({ estado: 2, motivo_rechazo: motivo });
    const parsed = parseAcecfXml(acecfAt(receiver.requests.length - 1));
    expect(parsed.data).toMatchObject({ estado: '2', detalle_motivo_rechazo: motivo, encf: 'E310000000005' });
  });

  it('failures are reported per destination (502) and a repeat resends only where it failed', async () => {
    receiver.status.value = 400;
    const first = await approve('E310000000004', { estado: 1 });
    expect(first.status).toBe(502);
    const f = await body(first);
    expect(f.message).toMatch(/no fue aceptada por: el emisor y la autoridad tributaria\. Repita la misma solicitud/);
    expect(f.document.emisor).toMatchObject({ entregada: false, http_status: 400 });
    // Issue 13, finding 5: the receiver's own answer ('Error') is logged, never returned.
    expect(f.document.emisor.respuesta).toBeUndefined();
    expect(f.document.autoridad).toMatchObject({ entregada: false, codigo: '2' });
    expect(f.document.autoridad.mensajes.join(' ')).toMatch(/no existe o no ha sido aceptado/);
    expect(f.document.errors.length).toBeGreaterThanOrEqual(2);
    const toIssuer = receiver.requests.filter((r) => r.body.includes('E310000000004')).length;
    expect(toIssuer).toBe(1);

    // The receiver recovers; the authority accepts the copy once it has the e-CF.
    receiver.status.value = 200;
    await atAuthority('x4');
    const second = await approve('E310000000004', { estado: 1 });
    expect(second.status).toBe(200);
    const s = await body(second);
    expect(s.data.emisor).toMatchObject({ entregada: true, http_status: 200 });
    expect(s.data.autoridad).toMatchObject({ entregada: true, codigo: '1' });
    const bodies = receiver.requests.filter((r) => r.body.includes('E310000000004')).map((r) => /<ACECF[\s\S]*<\/ACECF>/.exec(r.body)![0]);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
  });

  it('an issuer without an approval URL in the directory: reported, the copy still goes to the authority', async () => {
    const res = await approve('E310000000001', { estado: 1 }, `?rnc_emisor=${Y}`);
    expect(res.status).toBe(502);
    const b = await body(res);
    expect(b.document.emisor).toMatchObject({
      entregada: false,
      url: null,
      error: `El emisor ${Y} no publica una URL de aprobación comercial en el directorio de la autoridad tributaria.`,
    });
    // Y's e-CF never reached the authority, so its copy is refused too.
    expect(b.document.autoridad.entregada).toBe(false);
  });
});

describe('GET /api/v1/received-documents/{eNCF}/authority-status', () => {
  it('asks the authority live with the issuer, the e-NCF, the buyer and the security code', async () => {
    const res = await h.call('/api/v1/received-documents/E310000000002/authority-status');
    expect(res.status).toBe(200);
    const d = (await body(res)).data;
    expect(d).toMatchObject({
      e_ncf: 'E310000000002',
      servicio: 'estado_ecf',
      codigo: 1,
      valido_fiscalmente: true,
      rnc_emisor: X,
      rnc_comprador: h.issuer.rnc,
    });
    expect(d.codigo_seguridad).toHaveLength(6);
    const unknown = await body(await h.call(`/api/v1/received-documents/E310000000001/authority-status?rnc_emisor=${Y}`));
    expect(unknown.data).toMatchObject({ codigo: 0, valido_fiscalmente: false });
  });
});

describe('received documents: issuers are isolated', () => {
  it('a token of one issuer never reads, approves or queries another’s received documents', async () => {
    expect((await h.call('/api/v1/received-documents/E310000000003')).status).toBe(404);
    expect((await approve('E310000000003', { estado: 1 })).status).toBe(404);
    expect((await h.call('/api/v1/received-documents/E310000000003/authority-status')).status).toBe(404);
    expect((await h.call('/api/v1/received-documents/E310000000002', { token: h.other.token })).status).toBe(404);
    expect((await approve('E310000000002', { estado: 1 }, '', h.other.token)).status).toBe(404);
    const theirs = (await body(await h.call('/api/v1/received-documents', { token: h.other.token }))).data.items;
    expect(theirs.map((i: any) => i.e_ncf)).toEqual(['E310000000003']);
    expect((await h.call('/api/v1/received-documents', { token: null })).status).toBe(401);
    expect((await approve('E310000000002', { estado: 1 }, '', 'ecf_nope')).status).toBe(401);
    expect((await h.storage.getReceivedDocument(h.other.issuer.id, 'E310000000003'))!.approvalEstado).toBeNull();
  });
});

describe('commercial approval under concurrent requests', () => {
  it('two simultaneous approvals of one document: one is sent, the other is 409', async () => {
    const before = receiver.requests.filter((r) => r.body.includes('E310000000002')).length;
    const results = await Promise.all([approve('E310000000002', { estado: 1 }), approve('E310000000002', { estado: 1 })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(receiver.requests.filter((r) => r.body.includes('E310000000002')).length).toBe(before + 1);
  });
});

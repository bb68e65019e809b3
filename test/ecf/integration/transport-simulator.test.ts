/**
 * The DGII client (createDgiiClient) against the DGII simulator (startSimulator) over real loopback
 * HTTP, with real signed documents: every AuthorityTransport operation end to end, the token cache,
 * retries and unknown outcomes through the simulator's faults, timeouts, and the three environments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityCode } from '../../../src/ecf/index.js';
import { AuthorityError, createDgiiClient, TransportError, type DgiiClient, type DgiiClientOptions, type DirectoryEntry } from '../../../src/ecf/dgii/index.js';
import { SIMULATOR_RNC, startSimulator, type Simulator, type SimulatorOptions } from '../../../src/ecf/simulator/index.js';
import { xsdDir } from '../helpers/env.js';
import { COMPRADOR, EMISOR, encfOf, eventually, failureOf, fileOf, issuer, signedAcecf, signedAnecf, signedEcf, signedRfce, waitVerdict } from './support.js';

const RECEPCION = 'recepcion/api/facturaselectronicas';
const CLIENTE: DirectoryEntry = {
  nombre: 'CLIENTE SRL',
  rnc: COMPRADOR,
  urlRecepcion: 'https://cliente.example.do/fe/recepcion/api/ecf',
  urlAceptacion: 'https://cliente.example.do/fe/aprobacioncomercial/api/ecf',
  urlOpcional: 'https://cliente.example.do/fe/autenticacion/api/semilla',
};

const simulators: Simulator[] = [];
const clients: DgiiClient[] = [];
async function simulator(options: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  const sim = await startSimulator({ xsdDir: xsdDir(), processingDelayMs: 20, seed: 20260401, ...options });
  simulators.push(sim);
  return sim;
}
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(simulators.splice(0).map((s) => s.close()));
});

let sim: Simulator;
/** A client of the main simulator: short backoff, `Retry-After` (1 s on a 503) cut to 20 ms. */
function client(options: Partial<DgiiClientOptions> = {}): DgiiClient {
  const c = createDgiiClient({
    environment: 'testecf',
    baseUrl: sim.url,
    apiKey: 'clave-de-prueba',
    retries: 3,
    backoffMs: 5,
    maxBackoffMs: 50,
    maxRetryAfterMs: 20,
    timeoutMs: 10_000,
    ...options,
  });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  sim = await simulator({ directory: [CLIENTE] });
});

const who = issuer();

/** Runs `body` with faults installed on the main simulator, and always removes them afterwards. */
async function withFaults<T>(faults: Parameters<Simulator['setFaults']>[0], body: () => Promise<T>): Promise<T> {
  sim.setFaults(faults);
  try {
    return await body();
  } finally {
    sim.setFaults({});
  }
}

async function withScenarios<T>(scenarios: Parameters<Simulator['setScenarios']>[0], body: () => Promise<T>): Promise<T> {
  sim.setScenarios(scenarios);
  try {
    return await body();
  } finally {
    sim.setScenarios({});
  }
}

/** Sends a signed 31 of sequence `n` and waits for its verdict. */
async function sendAndWait(c: DgiiClient, n: number) {
  const xml = await signedEcf('31', n);
  const { trackId } = await c.sendEcf(who, { fileName: fileOf(encfOf('31', n)), xml });
  return { xml, trackId, result: await waitVerdict(c, who, trackId) };
}

describe('authentication and the token cache', () => {
  it('authenticates with a signed seed and reuses the token, per RNC and per client instance, across concurrent calls', async () => {
    const c = client();
    const t0 = sim.stats().tokens;
    const token = await c.authenticate(who);
    expect(token.token).toMatch(/^\S{20,}$/);
    expect(token.expiresAt.getTime() - token.issuedAt.getTime()).toBe(3_600_000);
    expect(sim.stats().tokens).toBe(t0 + 1);

    await Promise.all([
      ...Array.from({ length: 8 }, () => c.trackIds(who, { rncEmisor: EMISOR, encf: encfOf('31', 9_999) })),
      c.directory(who),
      c.authenticate(who),
    ]);
    expect((await c.authenticate(who)).token).toBe(token.token);
    expect(sim.stats().tokens).toBe(t0 + 1);

    // The cache is keyed by RNC, and belongs to one client instance.
    await c.authenticate(issuer(COMPRADOR));
    expect(sim.stats().tokens).toBe(t0 + 2);
    const fresh = client();
    await Promise.all(Array.from({ length: 10 }, () => fresh.directory(who)));
    expect(sim.stats().tokens).toBe(t0 + 3);
  });

  it('renews a short-lived token before it expires, and renews once on a 401 for a token the authority no longer honours', async () => {
    // Both clocks stand still unless moved here, so a slow machine cannot renew a token early.
    const t0 = Date.now();
    let simOffset = 0;
    let clientOffset = 0;
    const tsim = await simulator({ tokenTtlMs: 61_000, clock: () => new Date(t0 + simOffset) });
    const c = client({ baseUrl: tsim.url, clock: () => new Date(t0 + clientOffset) });

    const first = await c.authenticate(who);
    expect(first.expiresAt.getTime() - first.issuedAt.getTime()).toBe(61_000);
    await c.directory(who);
    expect(tsim.stats().tokens).toBe(1);

    // 61 s tokens are renewed 60 s early: two seconds later the client fetches a new one by itself.
    clientOffset += 2_000;
    await c.directory(who);
    expect(tsim.stats().tokens).toBe(2);
    const second = await c.authenticate(who);
    expect(second.token).not.toBe(first.token);

    // The client's clock says the token is fresh, the authority's says it expired: 401, one renewal, one repeat.
    clientOffset -= 600_000;
    simOffset += 120_000;
    const requests = tsim.stats().requests;
    expect((await c.directory(who)).map((e) => e.rnc)).toContain(SIMULATOR_RNC);
    expect(tsim.stats().tokens).toBe(3);
    expect(tsim.stats().requests - requests).toBe(4); // 401, seed, signed seed, the repeated query
    expect((await c.authenticate(who)).token).not.toBe(second.token);
  });
});

describe('e-CF reception, results, status and track ids', () => {
  it('sendEcf → En Proceso → Aceptado; trackIds; consultaestado with the right and wrong security codes', async () => {
    const c = client();
    const encf = encfOf('31', 1);
    const xml = await signedEcf('31', 1);
    const { trackId, received, inProcess, ids } = await withScenarios({ forceState: { [encf]: 'En Proceso' } }, async () => {
      const receipt = await c.sendEcf(who, { fileName: fileOf(encf), xml });
      return {
        trackId: receipt.trackId,
        received: receipt,
        inProcess: await c.result(who, receipt.trackId),
        ids: await c.trackIds(who, { rncEmisor: EMISOR, encf }),
      };
    });
    expect(received).toEqual({ trackId: expect.stringMatching(/^[0-9a-f-]{36}$/), mensaje: null });
    expect(inProcess).toMatchObject({ trackId, codigo: 3, estado: 'En Proceso', rnc: EMISOR, encf });
    expect(ids).toEqual([{ trackId, estado: 'En Proceso', fechaRecepcion: expect.any(Date) }]);

    const result = await waitVerdict(c, who, trackId);
    expect(result).toEqual({
      trackId,
      codigo: 1,
      estado: 'Aceptado',
      rnc: EMISOR,
      encf,
      secuenciaUtilizada: true,
      fechaRecepcion: expect.any(Date),
      mensajes: [],
    });
    expect(Math.abs(result.fechaRecepcion!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await c.trackIds(who, { rncEmisor: EMISOR, encf })).toEqual([{ trackId, estado: 'Aceptado', fechaRecepcion: result.fechaRecepcion }]);

    const code = securityCode(xml);
    const status = await c.status(who, { rncEmisor: EMISOR, encf, rncComprador: COMPRADOR, codigoSeguridad: code });
    expect(status).toEqual({
      codigo: 1,
      estado: 'Aceptado',
      rncEmisor: EMISOR,
      ncfElectronico: encf,
      montoTotal: '236.00',
      totalITBIS: '36.00',
      fechaEmision: '01-04-2026',
      fechaFirma: '01-04-2026 10:00:00',
      rncComprador: COMPRADOR,
      codigoSeguridad: code,
      idExtranjero: null,
    });
    const wrongCode = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    expect(await c.status(who, { rncEmisor: EMISOR, encf, rncComprador: COMPRADOR, codigoSeguridad: wrongCode })).toMatchObject({
      codigo: 0,
      estado: 'No encontrado',
      montoTotal: null,
    });
    expect(await c.status(who, { rncEmisor: EMISOR, encf, rncComprador: '401000001', codigoSeguridad: code })).toMatchObject({
      codigo: 0,
      estado: 'No encontrado',
    });
  });

  it('rejections and conditional acceptance come back with their mensajes', async () => {
    const c = client();
    const verdicts = await withScenarios({ rejectEncfSuffixes: ['0099'], conditionalEncfSuffixes: ['0098'] }, async () => ({
      rejected: (await sendAndWait(c, 99)).result,
      conditional: (await sendAndWait(c, 98)).result,
    }));
    expect(verdicts.rejected).toMatchObject({
      codigo: 2,
      estado: 'Rechazado',
      encf: encfOf('31', 99),
      secuenciaUtilizada: true,
      mensajes: [{ codigo: null, valor: expect.stringContaining('escenario') }],
    });
    expect(verdicts.conditional).toMatchObject({ codigo: 4, estado: 'Aceptado Condicional', mensajes: [{ valor: expect.stringContaining('condicional') }] });

    // Altered after signing: the real signature check rejects it, and the sequence stays usable.
    const signed = await signedEcf('31', 2);
    expect(signed).toContain('<MontoTotal>236.00</MontoTotal>');
    const altered = signed.replace('<MontoTotal>236.00</MontoTotal>', '<MontoTotal>237.00</MontoTotal>');
    const { trackId } = await c.sendEcf(who, { fileName: fileOf(encfOf('31', 2)), xml: altered });
    expect(await waitVerdict(c, who, trackId)).toMatchObject({
      codigo: 2,
      estado: 'Rechazado',
      secuenciaUtilizada: false,
      mensajes: [{ valor: expect.stringContaining('firma') }],
    });

    // A consumer invoice below RD$250,000 belongs to the RFCE service, not to Recepción.
    const small32 = await signedEcf('32', 3);
    const sent32 = await c.sendEcf(who, { fileName: fileOf(encfOf('32', 3)), xml: small32 });
    expect(await waitVerdict(c, who, sent32.trackId)).toMatchObject({ estado: 'Rechazado', mensajes: [{ valor: expect.stringContaining('RFCE') }] });
  });

  it('the same e-CF sent twice: trackIds lists both submissions, and the second is a duplicate', async () => {
    const c = client();
    const encf = encfOf('31', 4);
    const first = await sendAndWait(c, 4);
    expect(first.result.estado).toBe('Aceptado');
    const again = await c.sendEcf(who, { fileName: fileOf(encf), xml: first.xml });
    expect(again.trackId).not.toBe(first.trackId);
    expect(await waitVerdict(c, who, again.trackId)).toMatchObject({ estado: 'Rechazado', mensajes: [{ valor: expect.stringContaining('duplicado') }] });
    const ids = await c.trackIds(who, { rncEmisor: EMISOR, encf });
    expect(ids.map((e) => [e.trackId, e.estado])).toEqual([
      [first.trackId, 'Aceptado'],
      [again.trackId, 'Rechazado'],
    ]);
    expect(sim.stats().receptions[`${EMISOR}${encf}`]).toBe(2);
    expect(await c.trackIds(who, { rncEmisor: EMISOR, encf: encfOf('31', 4_444) })).toEqual([]);
  });
});

describe('RFCE (consumer invoices below RD$250,000)', () => {
  it('sendRfce gives the verdict synchronously; rfceStatus and consultaestado find it only with its security code', async () => {
    const c = client();
    const { rfce, encf, codigoSeguridad } = await signedRfce(1);
    const verdict = await c.sendRfce(who, { fileName: fileOf(encf), xml: rfce });
    expect(verdict).toMatchObject({ codigo: 1, estado: 'Aceptado', encf, secuenciaUtilizada: true, mensajes: [] });
    expect(sim.stats().rfce[`${EMISOR}${encf}`]).toBe(1);

    expect(await c.rfceStatus(who, { rncEmisor: EMISOR, encf, codigoSeguridad })).toMatchObject({
      codigo: 1,
      estado: 'Aceptado',
      encf,
      secuenciaUtilizada: true,
    });
    const wrongCode = codigoSeguridad === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    expect(await c.rfceStatus(who, { rncEmisor: EMISOR, encf, codigoSeguridad: wrongCode })).toMatchObject({ codigo: 0, estado: 'No encontrado' });
    expect(await c.status(who, { rncEmisor: EMISOR, encf, codigoSeguridad })).toMatchObject({
      codigo: 1,
      estado: 'Aceptado',
      montoTotal: '236.00',
      codigoSeguridad,
    });

    // Sent again: a duplicate, refused synchronously; the accepted one still answers the query.
    expect(await c.sendRfce(who, { fileName: fileOf(encf), xml: rfce })).toMatchObject({
      codigo: 2,
      estado: 'Rechazado',
      mensajes: [{ valor: expect.stringContaining('duplicado') }],
    });
    expect(await c.rfceStatus(who, { rncEmisor: EMISOR, encf, codigoSeguridad })).toMatchObject({ estado: 'Aceptado' });
  });

  it('a rejected RFCE: the verdict and its mensajes come back at once, and rfceStatus reports it', async () => {
    const c = client();
    const { rfce, encf, codigoSeguridad } = await signedRfce(97);
    const verdict = await withScenarios({ rejectEncfSuffixes: ['0097'] }, () => c.sendRfce(who, { fileName: fileOf(encf), xml: rfce }));
    expect(verdict).toMatchObject({ codigo: 2, estado: 'Rechazado', encf, mensajes: [{ codigo: null, valor: expect.stringContaining('escenario') }] });
    expect(await c.rfceStatus(who, { rncEmisor: EMISOR, encf, codigoSeguridad })).toMatchObject({ codigo: 2, estado: 'Rechazado' });
  });
});

describe('commercial approval (ACECF) and range voiding (ANECF)', () => {
  it('an ACECF about an accepted 31 is approved; about an e-CF never accepted, or with another amount, it is refused', async () => {
    const c = client();
    const encf = encfOf('31', 10);
    expect((await sendAndWait(c, 10)).result.estado).toBe('Aceptado');
    const approvals = sim.stats().approvals;
    expect(await c.sendApproval(who, { fileName: fileOf(encf, COMPRADOR), xml: await signedAcecf(encf) })).toEqual({
      codigo: '1',
      estado: 'Aprobación comercial aprobada',
      mensajes: [expect.any(String)],
    });

    const unknown = encfOf('31', 11);
    const refused = await c.sendApproval(who, { fileName: fileOf(unknown, COMPRADOR), xml: await signedAcecf(unknown) });
    expect(refused).toMatchObject({ codigo: '2', estado: 'Aprobación comercial rechazada' });
    expect(refused.mensajes.join(' ')).toContain('no ha sido aceptado');

    const otherAmount = await c.sendApproval(who, { fileName: fileOf(encf, COMPRADOR), xml: await signedAcecf(encf, 300) });
    expect(otherAmount.codigo).toBe('2');
    expect(otherAmount.mensajes.join(' ')).toContain('MontoTotal');
    expect(sim.stats().approvals).toBe(approvals + 3);
  });

  it('an ANECF voids an unused range; a range holding a received e-NCF, or one already voided, is refused', async () => {
    const c = client();
    const voided = await c.voidRanges(who, { fileName: `${EMISOR}anulacion.xml`, xml: await signedAnecf('31', 500, 510) });
    expect(voided).toEqual({ rnc: EMISOR, codigo: '1', nombre: 'Aceptado', mensajes: [expect.stringContaining('11')], accepted: true });
    expect((await sendAndWait(c, 505)).result).toMatchObject({ estado: 'Rechazado', mensajes: [{ valor: expect.stringContaining('anulado') }] });

    // Sequence 1 was received in an earlier test: it cannot be voided (a credit note is needed).
    const used = await c.voidRanges(who, { fileName: `${EMISOR}anulacion.xml`, xml: await signedAnecf('31', 1, 3) });
    expect(used).toMatchObject({ rnc: EMISOR, codigo: '2', accepted: false });
    expect(used.mensajes.join(' ')).toContain('ya recibidos');
    const twice = await c.voidRanges(who, { fileName: `${EMISOR}anulacion.xml`, xml: await signedAnecf('31', 500, 510) });
    expect(twice.accepted).toBe(false);
    expect(twice.mensajes.join(' ')).toContain('ya fue anulado');
  });
});

describe('directory and service status', () => {
  it('directory: the whole list, and one taxpayer by RNC, which the authority answers as a bare object', async () => {
    const c = client();
    const list = await c.directory(who);
    expect(list.map((e) => e.rnc)).toEqual(expect.arrayContaining([SIMULATOR_RNC, COMPRADOR]));
    expect(list.find((e) => e.rnc === COMPRADOR)).toEqual(CLIENTE);

    // The wire answer for one taxpayer is an object, not an array; the client normalises it.
    const { token } = await c.authenticate(who);
    const raw = (await (
      await fetch(`${c.endpoints.directorioPorRnc}?RNC=${COMPRADOR}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })
    ).json()) as unknown;
    expect(Array.isArray(raw)).toBe(false);
    expect(raw).toMatchObject({ rnc: COMPRADOR });
    expect(await c.directory(who, COMPRADOR)).toEqual([CLIENTE]);
    expect(await c.directory(who, '999999999')).toEqual([]);
  });

  it('serviceStatus: every service per environment with the API key, a service marked unavailable, 401 without the key', async () => {
    const c = client();
    const tokens = sim.stats().tokens;
    const all = await c.serviceStatus();
    expect(new Set(all.map((s) => s.ambiente))).toEqual(new Set(['PreCertificación', 'Producción', 'Certificación']));
    expect(all.length).toBeGreaterThanOrEqual(9);
    expect(all.every((s) => s.estatus === 'Disponible')).toBe(true);

    const down = await withScenarios({ unavailableServices: ['Recepción e-CF'] }, () => c.serviceStatus());
    expect(down.filter((s) => s.estatus === 'No Disponible').map((s) => s.servicio)).toEqual(['Recepción e-CF', 'Recepción e-CF', 'Recepción e-CF']);
    expect(sim.stats().tokens).toBe(tokens); // no seed authentication for statusecf

    const noKey = client({ apiKey: undefined });
    const error = await failureOf(noKey.serviceStatus());
    expect(error).toBeInstanceOf(AuthorityError);
    expect(error).toMatchObject({ code: 'unauthorized', status: 401 });
  });
});

describe('retries, unknown outcomes and timeouts through simulator faults', () => {
  it('HTTP 503 is retried automatically, for queries and uploads alike, until it succeeds; the upload is received once', async () => {
    const c = client();
    await c.authenticate(who);
    let before = sim.stats();
    const list = await withFaults({ http503Rate: 1, paths: ['consultadirectorio'], limit: 2 }, () => c.directory(who));
    expect(list.length).toBeGreaterThan(0);
    expect(sim.stats().faults.http503 - before.faults.http503).toBe(2);
    expect(sim.stats().requests - before.requests).toBe(3);

    before = sim.stats();
    const encf = encfOf('31', 20);
    const xml = await signedEcf('31', 20);
    const receipt = await withFaults({ http503Rate: 1, paths: [RECEPCION], limit: 3 }, () => c.sendEcf(who, { fileName: fileOf(encf), xml }));
    expect(sim.stats().faults.http503 - before.faults.http503).toBe(3);
    expect(sim.stats().receptions[`${EMISOR}${encf}`]).toBe(1);
    expect(await waitVerdict(c, who, receipt.trackId)).toMatchObject({ estado: 'Aceptado' });

    // At a 40 % rate, with enough retries, every call gets through.
    const patient = client({ retries: 12 });
    before = sim.stats();
    const results = await withFaults({ http503Rate: 0.4, paths: ['consultaresultado'] }, async () => {
      const out = [];
      for (let i = 0; i < 20; i++) out.push(await patient.result(who, receipt.trackId));
      return out;
    });
    expect(results.every((r) => r.estado === 'Aceptado')).toBe(true);
    const injected = sim.stats().faults.http503 - before.faults.http503;
    expect(injected).toBeGreaterThan(0);
    expect(sim.stats().requests - before.requests).toBe(20 + injected + 2); // + seed and signed seed of the new client
  });

  it('HTTP 500 on an upload is an unknown outcome and is not resent; trackIds says it was not received, so it is sent again', async () => {
    const c = client();
    await c.authenticate(who);
    const encf = encfOf('31', 21);
    const xml = await signedEcf('31', 21);
    const before = sim.stats();
    const error = await withFaults({ http500Rate: 1, paths: [RECEPCION], limit: 1 }, () => failureOf(c.sendEcf(who, { fileName: fileOf(encf), xml })));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'server_error', status: 500, retryable: true, outcomeUnknown: true });
    expect(sim.stats().requests - before.requests).toBe(1);

    expect(await c.trackIds(who, { rncEmisor: EMISOR, encf })).toEqual([]);
    const { trackId } = await c.sendEcf(who, { fileName: fileOf(encf), xml });
    expect(await waitVerdict(c, who, trackId)).toMatchObject({ estado: 'Aceptado' });
    expect(sim.stats().receptions[`${EMISOR}${encf}`]).toBe(1);

    // The same 500 on a query is simply retried.
    const mid = sim.stats();
    expect(await withFaults({ http500Rate: 1, paths: ['consultatrackids'], limit: 1 }, () => c.trackIds(who, { rncEmisor: EMISOR, encf }))).toHaveLength(1);
    expect(sim.stats().faults.http500 - mid.faults.http500).toBe(1);
    expect(sim.stats().requests - mid.requests).toBe(2);
  });

  it('a connection dropped after processing: unknown outcome; the track id (or the RFCE verdict) is found and adopted, nothing is resent', async () => {
    const c = client();
    await c.authenticate(who);
    const encf = encfOf('31', 22);
    const xml = await signedEcf('31', 22);
    const error = await withFaults({ dropAfterRate: 1, paths: [RECEPCION], limit: 1 }, () => failureOf(c.sendEcf(who, { fileName: fileOf(encf), xml })));
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'network', retryable: true, outcomeUnknown: true });
    const ids = await c.trackIds(who, { rncEmisor: EMISOR, encf });
    expect(ids).toHaveLength(1);
    expect(await waitVerdict(c, who, ids[0]!.trackId)).toMatchObject({ estado: 'Aceptado', encf });
    expect(sim.stats().receptions[`${EMISOR}${encf}`]).toBe(1);

    const summary = await signedRfce(22);
    const rfceError = await withFaults({ dropAfterRate: 1, paths: ['recepcionfc'], limit: 1 }, () =>
      failureOf(c.sendRfce(who, { fileName: fileOf(summary.encf), xml: summary.rfce })),
    );
    expect(rfceError).toMatchObject({ name: 'TransportError', outcomeUnknown: true });
    expect(await c.rfceStatus(who, { rncEmisor: EMISOR, encf: summary.encf, codigoSeguridad: summary.codigoSeguridad })).toMatchObject({
      codigo: 1,
      estado: 'Aceptado',
    });
    expect(sim.stats().rfce[`${EMISOR}${summary.encf}`]).toBe(1);
  });

  it('a connection dropped before processing: also unknown to the client; trackIds finds nothing, so the e-CF is sent again', async () => {
    const c = client();
    await c.authenticate(who);
    const encf = encfOf('31', 23);
    const xml = await signedEcf('31', 23);
    const before = sim.stats();
    const error = await withFaults({ dropBeforeRate: 1, paths: [RECEPCION], limit: 1 }, () => failureOf(c.sendEcf(who, { fileName: fileOf(encf), xml })));
    expect(error).toMatchObject({ name: 'TransportError', code: 'network', outcomeUnknown: true });
    expect(sim.stats().faults.dropBefore - before.faults.dropBefore).toBe(1);
    expect(await c.trackIds(who, { rncEmisor: EMISOR, encf })).toEqual([]);
    const { trackId } = await c.sendEcf(who, { fileName: fileOf(encf), xml });
    expect(await waitVerdict(c, who, trackId)).toMatchObject({ estado: 'Aceptado' });
    expect(sim.stats().receptions[`${EMISOR}${encf}`]).toBe(1);

    // A query whose connection drops is idempotent: retried without the caller noticing.
    const mid = sim.stats();
    expect(await withFaults({ dropBeforeRate: 1, paths: ['consultatrackids'], limit: 1 }, () => c.trackIds(who, { rncEmisor: EMISOR, encf }))).toHaveLength(1);
    expect(sim.stats().requests - mid.requests).toBe(2);
  });

  it('a definitive rejection (HTTP 400) is an AuthorityError and is not retried', async () => {
    const c = client();
    await c.authenticate(who);
    const encf = encfOf('31', 24);
    const xml = await signedEcf('31', 24);
    const before = sim.stats().requests;
    const error = await failureOf(c.sendEcf(who, { fileName: `${EMISOR}${encf.slice(0, -1)}.xml`, xml }));
    expect(error).toBeInstanceOf(AuthorityError);
    expect(error).toMatchObject({
      code: 'rejected',
      status: 400,
      trackId: null,
      mensajes: [{ codigo: '3243', valor: expect.stringContaining('nombre del archivo') }],
    });
    expect(sim.stats().requests - before).toBe(1);
    expect(await c.trackIds(who, { rncEmisor: EMISOR, encf })).toEqual([]);
  });

  it('latency beyond the client timeout: TransportError timeout; a timed-out upload may still be received, which is why trackIds comes first', async () => {
    const quick = client({ timeoutMs: 150, retries: 0 });
    await quick.authenticate(who);
    const q = await withFaults({ latencyMs: 600, paths: ['consultadirectorio'] }, () => failureOf(quick.directory(who)));
    expect(q).toBeInstanceOf(TransportError);
    expect(q).toMatchObject({ code: 'timeout', retryable: true, outcomeUnknown: false });

    const retrying = client({ timeoutMs: 150, retries: 1, backoffMs: 1 });
    await retrying.authenticate(who);
    const before = sim.stats().requests;
    const r = await withFaults({ latencyMs: 600, paths: ['consultadirectorio'] }, () => failureOf(retrying.directory(who)));
    expect(r).toMatchObject({ code: 'timeout' });
    expect(sim.stats().requests - before).toBe(2);

    const encf = encfOf('31', 25);
    const xml = await signedEcf('31', 25);
    const u = await withFaults({ latencyMs: 600, paths: [RECEPCION] }, () => failureOf(quick.sendEcf(who, { fileName: fileOf(encf), xml })));
    expect(u).toMatchObject({ name: 'TransportError', code: 'timeout', outcomeUnknown: true });
    // The authority was still working on it: the submission appears once its latency has passed.
    const ids = await eventually(async () => {
      const list = await quick.trackIds(who, { rncEmisor: EMISOR, encf });
      return list.length ? list : null;
    });
    expect(ids).toHaveLength(1);
    expect(await waitVerdict(quick, who, ids[0]!.trackId)).toMatchObject({ estado: 'Aceptado' });
  });
});

describe('environments', () => {
  it('testecf, certecf and ecf are routed separately: each has its own tokens and its own ledger', async () => {
    const encf = encfOf('31', 700);
    const tracks: Record<string, string> = {};
    const tokens: Record<string, string> = {};
    const receptions = sim.stats().receptions[`${EMISOR}${encf}`] ?? 0;
    for (const environment of ['testecf', 'certecf', 'ecf'] as const) {
      const c = client({ environment });
      expect(c.endpoints.recepcion).toBe(`${sim.url}/${environment}/${RECEPCION}`);
      expect(c.endpoints.recepcionFc).toBe(`${sim.url}/${environment}/recepcionfc/api/recepcion/ecf`);
      tokens[environment] = (await c.authenticate(who)).token;
      // The same e-NCF is a first submission in each environment, not a duplicate.
      const sent = await sendAndWait(c, 700);
      expect(sent.result).toMatchObject({ estado: 'Aceptado', encf });
      tracks[environment] = sent.trackId;
      expect(await c.trackIds(who, { rncEmisor: EMISOR, encf })).toEqual([expect.objectContaining({ trackId: sent.trackId })]);
      const summary = await signedRfce(700);
      expect(await c.sendRfce(who, { fileName: fileOf(summary.encf), xml: summary.rfce })).toMatchObject({ estado: 'Aceptado' });
      expect(await c.rfceStatus(who, { rncEmisor: EMISOR, encf: summary.encf, codigoSeguridad: summary.codigoSeguridad })).toMatchObject({
        estado: 'Aceptado',
      });
    }
    expect(sim.stats().receptions[`${EMISOR}${encf}`]).toBe(receptions + 3);

    // A track id of certecf is unknown in testecf, and a testecf token does not open certecf.
    const test = client({ environment: 'testecf' });
    expect(await test.result(who, tracks.certecf!)).toMatchObject({ codigo: 0, estado: 'No encontrado' });
    const cert = client({ environment: 'certecf' });
    const res = await fetch(`${cert.endpoints.consultaTrackIds}?rncemisor=${EMISOR}&encf=${encf}`, {
      headers: { authorization: `Bearer ${tokens.testecf}`, accept: 'application/json' },
    });
    expect(res.status).toBe(401);
  });
});

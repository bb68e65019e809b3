import { beforeAll, describe, expect, it } from 'vitest';
import { buildSemillaXml } from '../../../src/ecf/documents/semilla.js';
import { signXml } from '../../../src/ecf/sign/sign-xml.js';
import type { Simulator } from '../../../src/ecf/simulator/index.js';
import { form, login, startTestSimulator, testSigner } from './support.js';

const AUTH = 'testecf/autenticacion/api/autenticacion';

describe('simulator: seed authentication', () => {
  let sim: Simulator;
  let now = new Date('2026-04-01T14:00:00Z');
  beforeAll(async () => {
    sim = await startTestSimulator({ clock: () => now, tokenTtlMs: 60_000 });
  });

  async function seed(): Promise<string> {
    const r = await fetch(`${sim.url}/${AUTH}/semilla`);
    expect(r.status).toBe(200);
    return r.text();
  }
  const validar = (xml: string, json = true) =>
    fetch(`${sim.url}/${AUTH}/validarsemilla`, { method: 'POST', body: form(xml, 'semilla.xml'), headers: json ? { accept: 'application/json' } : {} });

  it('serves a pretty-printed SemillaModel with a random valor and a -04:00 fecha', async () => {
    const a = await seed();
    const b = await seed();
    expect(a).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?>\r\n<SemillaModel xmlns:xsi="http:\/\/www.w3.org\/2001\/XMLSchema-instance" xmlns:xsd="http:\/\/www.w3.org\/2001\/XMLSchema">\r\n {2}<valor>/,
    );
    expect(a).toContain('<fecha>2026-04-01T10:00:00.0000000-04:00</fecha>');
    expect(/<valor>(.+)<\/valor>/.exec(a)![1]).not.toBe(/<valor>(.+)<\/valor>/.exec(b)![1]);
  });

  it('a correctly signed seed gets a token {token, expira, expedido} (JSON and XML)', async () => {
    const r = await validar(await signXml(await seed(), testSigner()));
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, string>;
    expect(body.token).toMatch(/^[\w-]{20,}$/);
    expect(body.expedido).toBe('2026-04-01T14:00:00Z');
    expect(body.expira).toBe('2026-04-01T14:01:00Z');

    const x = await validar(await signXml(await seed(), testSigner()), false);
    expect(x.headers.get('content-type')).toMatch(/xml/);
    expect(await x.text()).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?><RespuestaAutenticacion><Token>[\w-]+<\/Token><Expira>2026-04-01T14:01:00Z<\/Expira><Expedido>2026-04-01T14:00:00Z<\/Expedido><\/RespuestaAutenticacion>$/,
    );
  });

  it('rejects a tampered signature, an unknown valor, a reused valor and an expired seed', async () => {
    const signed = await signXml(await seed(), testSigner());
    const tampered = signed.replace(/<valor>(.)/, (_m, c: string) => `<valor>${c === 'A' ? 'B' : 'A'}`);
    const t = await validar(tampered);
    expect(t.status).toBe(400);
    expect(JSON.stringify(await t.json())).toContain('Firma del certificado invalida');

    const unknown = await signXml(buildSemillaXml({ valor: 'no-emitida-por-el-simulador', fecha: '2026-04-01T10:00:00.0000000-04:00' }), testSigner());
    const u = await validar(unknown);
    expect(u.status).toBe(400);
    expect(JSON.stringify(await u.json())).toContain('no fue emitida');

    expect((await validar(signed)).status).toBe(200);
    const again = await validar(signed);
    expect(again.status).toBe(400);
    expect(JSON.stringify(await again.json())).toContain('ya fue utilizada');

    const old = await signXml(await seed(), testSigner());
    now = new Date(now.getTime() + 6 * 60_000);
    try {
      const e = await validar(old);
      expect(e.status).toBe(400);
      expect(JSON.stringify(await e.json())).toContain('expirado');
    } finally {
      now = new Date('2026-04-01T14:00:00Z');
    }
  });

  it('rejects an upload without the xml part, and an unsigned seed', async () => {
    const empty = await fetch(`${sim.url}/${AUTH}/validarsemilla`, { method: 'POST', body: new FormData(), headers: { accept: 'application/json' } });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain('Multipart cannot be empty');
    const unsigned = await validar(await seed());
    expect(unsigned.status).toBe(400);
  });

  it('every service needs a live bearer token of the same environment (401 otherwise)', async () => {
    const path = 'consultaresultado/api/consultas/estado?trackid=x';
    expect((await fetch(`${sim.url}/testecf/${path}`)).status).toBe(401);
    expect((await fetch(`${sim.url}/testecf/${path}`, { headers: { authorization: 'Bearer inventado' } })).status).toBe(401);
    const token = await login(sim.url);
    // Lower-case `bearer` as DGII's own curl examples write it.
    expect((await fetch(`${sim.url}/testecf/${path}`, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${sim.url}/certecf/${path}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    // A token of the simulator's receptor does not open DGII's services.
    const receptorToken = await login(sim.url, 'testecf', 'emisorreceptor/fe/autenticacion/api', 'validacioncertificado');
    expect((await fetch(`${sim.url}/testecf/${path}`, { headers: { authorization: `Bearer ${receptorToken}` } })).status).toBe(401);
    // Expired after tokenTtlMs.
    now = new Date(now.getTime() + 61_000);
    try {
      expect((await fetch(`${sim.url}/testecf/${path}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    } finally {
      now = new Date('2026-04-01T14:00:00Z');
    }
  });

  it('paths are case-insensitive', async () => {
    const token = await login(sim.url);
    const r = await fetch(`${sim.url}/TesteCF/ConsultaResultado/api/Consultas/Estado?TrackId=x`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { estado: string }).estado).toBe('No encontrado');
    expect((await fetch(`${sim.url}/otroambiente/autenticacion/api/autenticacion/semilla`)).status).toBe(404);
  });
});

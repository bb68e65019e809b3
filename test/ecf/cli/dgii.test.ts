import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/shared/cli/command.js';
import { dgiiDirectoryCommand, dgiiSendCommand, dgiiStatusCommand, dgiiTrackIdsCommand } from '../../../src/ecf/cli/dgii.js';
import { deriveRfceXml } from '../../../src/ecf/rfce/derive.js';
import { signXml } from '../../../src/ecf/sign/index.js';
import { fakeIo } from '../helpers/cli.js';
import { modernP12, TEST_PASSWORD } from '../helpers/certs.js';
import { repoRoot } from '../helpers/env.js';
import { fixture } from '../dgii/helpers/fixtures.js';
import { startRecordingServer, type RecordingServer } from '../dgii/helpers/recording-server.js';
import { installAuth, testIdentity, type AuthStandIn } from '../dgii/helpers/stand-in.js';

const signed31 = readFileSync(join(repoRoot, 'test/ecf/fixtures/signed/ecf-31.xml'), 'utf8');
const signed32 = readFileSync(join(repoRoot, 'test/ecf/fixtures/signed/ecf-32.xml'), 'utf8');
let rfce: string;

let server: RecordingServer;
let auth: AuthStandIn;

beforeAll(async () => {
  rfce = await signXml(deriveRfceXml(signed32), testIdentity().signer);
});

beforeEach(async () => {
  server = await startRecordingServer();
  auth = installAuth(server, { prefix: '/certecf' });
});

afterEach(async () => {
  await server.close();
});

function files(extra: Record<string, string> = {}) {
  return { 'cert.p12': modernP12().p12, ...extra };
}

const conn = () => ['--base-url', server.url, '--env', 'certecf', '--p12', 'cert.p12'];

describe('ecf dgii send', () => {
  it('sends an e-CF to reception with the DGII file name, authenticating as its issuer, and prints the receipt', async () => {
    server.route('POST', '/certecf/recepcion/api/facturaselectronicas', { json: JSON.parse(fixture('reception.json')) });
    const f = fakeIo(files({ 'e31.xml': signed31 }), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiSendCommand.run([...conn(), 'e31.xml'], f.io)).toBe(0);
    expect(JSON.parse(f.out())).toEqual({ trackId: '5a0b9c6e-8f1d-4e2b-9d5a-3f7c1e2b4a60', mensaje: null });
    const [upload] = server.requestsTo('/certecf/recepcion/api/facturaselectronicas');
    expect(upload!.parts[0]).toMatchObject({ name: 'xml', fileName: '101672919E310000000001.xml', contentType: 'text/xml', text: signed31 });
    expect(upload!.headers.authorization).toBe('Bearer tok-1');
    expect(auth.refusals).toEqual([]);
  });

  it('sends an RFCE to the fc reception and exits 1 when it is rejected', async () => {
    server.route('POST', '/certecf/recepcionfc/api/recepcion/ecf', [
      { json: JSON.parse(fixture('rfce-accepted.json')) },
      { json: JSON.parse(fixture('rfce-rejected.json')) },
    ]);
    const ok = fakeIo(files({ 'rfce.xml': rfce }), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiSendCommand.run([...conn(), 'rfce.xml'], ok.io)).toBe(0);
    expect(JSON.parse(ok.out())).toMatchObject({ estado: 'Aceptado', codigo: 1 });
    const rejected = fakeIo(files({ 'rfce.xml': rfce }), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiSendCommand.run([...conn(), 'rfce.xml'], rejected.io)).toBe(1);
    expect(JSON.parse(rejected.out())).toMatchObject({ estado: 'Rechazado', secuenciaUtilizada: false });
    expect(server.requestsTo('/certecf/recepcionfc/api/recepcion/ecf')[0]!.parts[0]!.fileName).toBe('101672919E320000000001.xml');
  });

  it('reads the password from the variable --password-env names', async () => {
    server.route('POST', '/certecf/recepcion/api/facturaselectronicas', { json: JSON.parse(fixture('reception.json')) });
    const f = fakeIo(files({ 'e31.xml': signed31 }), { MI_CLAVE: TEST_PASSWORD });
    expect(await dgiiSendCommand.run([...conn(), '--password-env', 'MI_CLAVE', 'e31.xml'], f.io)).toBe(0);
  });

  it('prints the authority refusal as JSON and exits 1', async () => {
    server.route('POST', '/certecf/recepcion/api/facturaselectronicas', { status: 400, json: JSON.parse(fixture('reception-error-not-delegated.json')) });
    const f = fakeIo(files({ 'e31.xml': signed31 }), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiSendCommand.run([...conn(), 'e31.xml'], f.io)).toBe(1);
    const { error } = JSON.parse(f.out());
    expect(error).toMatchObject({ type: 'authority', code: 'rejected', status: 400 });
    expect(error.mensajes[0].valor).toContain('no se encuentra delegado');
  });

  it('refuses documents it cannot send, a missing password and a missing environment', async () => {
    const io = () => fakeIo(files({ 'e31.xml': signed31, 'arecf.xml': '<ARECF><DetalleAcusedeRecibo/></ARECF>' }), { ECF_P12_PASSWORD: TEST_PASSWORD }).io;
    await expect(dgiiSendCommand.run([...conn(), 'arecf.xml'], io())).rejects.toThrow(/cannot send <ARECF>/);
    await expect(dgiiSendCommand.run([...conn(), 'e31.xml'], fakeIo(files({ 'e31.xml': signed31 }), {}).io)).rejects.toThrow(/set ECF_P12_PASSWORD/);
    await expect(dgiiSendCommand.run(['--p12', 'cert.p12', 'e31.xml'], io())).rejects.toThrow(UsageError);
    await expect(dgiiSendCommand.run(['--env', 'produccion', '--p12', 'cert.p12', 'e31.xml'], io())).rejects.toThrow(/--env must be/);
    await expect(dgiiSendCommand.run([...conn(), '--passwd', 'x', 'e31.xml'], io())).rejects.toThrow(/unknown option/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('ecf dgii status / track-ids / directory', () => {
  it('queries a result by track id', async () => {
    server.route('GET', '/certecf/consultaresultado/api/consultas/estado', { json: JSON.parse(fixture('result-rejected.json')) });
    const f = fakeIo(files(), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiStatusCommand.run([...conn(), '--rnc', '101672919', '--track-id', 'abc'], f.io)).toBe(0);
    const out = JSON.parse(f.out());
    expect(out).toMatchObject({ estado: 'Rechazado', fechaRecepcion: '2026-05-20T14:02:11.000Z' });
    expect(out.mensajes[0]).toEqual({ codigo: '614', valor: 'El campo NCFModificado no corresponde a un e-CF emitido y aceptado.' });
    expect(server.requestsTo('/certecf/consultaresultado/api/consultas/estado')[0]!.query).toEqual({ trackid: 'abc' });
  });

  it('queries the fiscal status and the RFCE verdict by e-NCF and security code', async () => {
    server.route('GET', '/certecf/consultaestado/api/consultas/estado', { body: fixture('status.json') });
    server.route('GET', '/certecf/consultarfce/api/consultas/consulta', { json: JSON.parse(fixture('rfce-query.json')) });
    const f = fakeIo(files(), { ECF_P12_PASSWORD: TEST_PASSWORD });
    const args = [...conn(), '--rnc', '131880738', '--encf', 'E310000000001', '--security-code', 'aB+9/x', '--issuer', '130000001'];
    expect(await dgiiStatusCommand.run([...args, '--buyer', '131880738'], f.io)).toBe(0);
    expect(JSON.parse(f.out())).toMatchObject({ codigo: 1, montoTotal: '1180.00' });
    expect(server.requestsTo('/certecf/consultaestado/api/consultas/estado')[0]!.query).toEqual({
      rncemisor: '130000001',
      ncfelectronico: 'E310000000001',
      rnccomprador: '131880738',
      codigoseguridad: 'aB+9/x',
    });
    const g = fakeIo(files(), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiStatusCommand.run([...args, '--rfce'], g.io)).toBe(0);
    expect(JSON.parse(g.out())).toMatchObject({ estado: 'Aceptado', encf: 'E320000000123' });
    expect(server.requestsTo('/certecf/consultarfce/api/consultas/consulta')[0]!.rawQuery).toBe(
      'RNC_Emisor=130000001&ENCF=E310000000001&Cod_Seguridad_eCF=aB%2B9%2Fx',
    );
  });

  it('needs --rnc and one of --track-id / --encf', async () => {
    const io = fakeIo(files(), { ECF_P12_PASSWORD: TEST_PASSWORD }).io;
    await expect(dgiiStatusCommand.run([...conn(), '--track-id', 'abc'], io)).rejects.toThrow(/missing --rnc/);
    await expect(dgiiStatusCommand.run([...conn(), '--rnc', '101672919'], io)).rejects.toThrow(/--track-id/);
    await expect(dgiiStatusCommand.run([...conn(), '--rnc', '101672919', '--encf', 'E310000000001'], io)).rejects.toThrow(/security-code/);
  });

  it('lists track ids', async () => {
    server.route('GET', '/certecf/consultatrackids/api/trackids/consulta', { json: JSON.parse(fixture('trackids.json')) });
    const f = fakeIo(files(), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiTrackIdsCommand.run([...conn(), '--rnc', '101672919', '--encf', 'E310000000001'], f.io)).toBe(0);
    expect(JSON.parse(f.out()).map((t: { estado: string }) => t.estado)).toEqual(['Rechazado', 'En Proceso', 'Aceptado Condicional']);
    expect(server.requestsTo('/certecf/consultatrackids/api/trackids/consulta')[0]!.query).toEqual({ rncemisor: '101672919', encf: 'E310000000001' });
  });

  it('looks up one taxpayer or the whole directory', async () => {
    server.route('GET', '/certecf/consultadirectorio/api/consultas/obtenerdirectorioporrnc', { json: JSON.parse(fixture('directory-object.json')) });
    server.route('GET', '/certecf/consultadirectorio/api/consultas/listado', { json: JSON.parse(fixture('directory-array.json')) });
    const one = fakeIo(files(), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiDirectoryCommand.run([...conn(), '--rnc', '101672919', '131880738'], one.io)).toBe(0);
    expect(JSON.parse(one.out())).toEqual([expect.objectContaining({ rnc: '131880738', urlOpcional: null })]);
    const all = fakeIo(files(), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiDirectoryCommand.run([...conn(), '--rnc', '101672919'], all.io)).toBe(0);
    expect(JSON.parse(all.out())).toHaveLength(2);
  });

  it('prints a transport failure as JSON and exits 1', async () => {
    server.route('GET', '/certecf/consultatrackids/api/trackids/consulta', { status: 200, body: 'hola' });
    const f = fakeIo(files(), { ECF_P12_PASSWORD: TEST_PASSWORD });
    expect(await dgiiTrackIdsCommand.run([...conn(), '--rnc', '101672919', '--encf', 'E310000000001'], f.io)).toBe(1);
    expect(JSON.parse(f.out()).error).toMatchObject({ type: 'transport', code: 'bad_response', status: 200 });
  });
});

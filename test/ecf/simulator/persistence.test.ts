import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../src/ecf/simulator/index.js';
import { xsdDir } from '../helpers/env.js';
import { anecfSigned, client, EMISOR, login, signedEcf } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'ecf-sim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('simulator: state in a JSON file', () => {
  it('keeps documents, verdicts, tokens, voidings and stats across a restart; written atomically', async () => {
    const dataFile = join(dir, 'state', 'sim.json');
    const first = await startSimulator({ xsdDir: xsdDir(), dataFile, processingDelayMs: 10 });
    const token = await login(first.url);
    let c = client(first, token);
    const xml = await signedEcf('31', 1);
    const trackId = await c.sendEcf(xml);
    expect(await c.verdict(trackId)).toMatchObject({ estado: 'Aceptado' });
    expect(
      (await (await c.post('anulacionrangos/api/operaciones/anularrango', await anecfSigned(EMISOR, '31', 50, 60), 'a.xml')).json()) as object,
    ).toMatchObject({ codigo: '1' });
    // Held in process over the restart.
    first.setScenarios({ forceState: { E310000000002: 'En Proceso' } });
    const pending = await c.sendEcf(await signedEcf('31', 2));
    await first.close();

    expect(existsSync(dataFile)).toBe(true);
    expect(readdirSync(join(dir, 'state'))).toEqual(['sim.json']);
    const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { version: number; submissions: Record<string, unknown> };
    expect(saved.version).toBe(1);
    expect(Object.keys(saved.submissions)).toContain(trackId);

    const second = await startSimulator({ xsdDir: xsdDir(), dataFile, processingDelayMs: 10 });
    try {
      c = client(second, token); // the token issued before the restart still works
      expect(await c.result(trackId)).toMatchObject({ trackId, estado: 'Aceptado', encf: 'E310000000001' });
      expect(await c.verdict(pending)).toMatchObject({ estado: 'Aceptado', encf: 'E310000000002' });
      expect(await c.sendAndWait(xml)).toMatchObject({ estado: 'Rechazado', mensajes: [{ valor: expect.stringContaining('duplicado') }] });
      expect(await c.sendAndWait(await signedEcf('31', 55))).toMatchObject({ estado: 'Rechazado', mensajes: [{ valor: expect.stringContaining('anulado') }] });
      const stats = second.stats();
      expect(stats.receptions[`${EMISOR}E310000000001`]).toBe(2);
      expect(stats.voids).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('refuses to start over a file that is not a simulator state', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"hola": 1}');
    await expect(startSimulator({ xsdDir: xsdDir(), dataFile: bad })).rejects.toThrow(/not a version 1 simulator state/);
    writeFileSync(bad, 'no es json');
    await expect(startSimulator({ xsdDir: xsdDir(), dataFile: bad })).rejects.toThrow(/not valid JSON/);
  });
});

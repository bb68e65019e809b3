/**
 * The local DIAN's processing delay set while it runs (`PUT /control/processing`, `setProcessingDelay`): a zip
 * stays `98` under a long delay, and a shorter one reschedules the zips still in process from now; the test set
 * counts them once; bad input is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDianSimulator, type DianSimulator } from '../../../src/dian/simulator/index.js';
import { dianXsdDir } from '../helpers/env.js';
import { client, clock, ISSUER, RANGE, signedInvoice, zip1 } from './fixtures.js';

let sim: DianSimulator;
beforeAll(async () => {
  sim = await startDianSimulator({ xsdDir: dianXsdDir(), clock, companies: [ISSUER], ranges: [RANGE], processingDelayMs: 3_600_000, seed: 3 });
});
afterAll(async () => {
  await sim?.close();
});

const put = (body: unknown) => fetch(`${sim.controlUrl}/processing`, { method: 'PUT', body: JSON.stringify(body) });

describe('local DIAN: processing delay control', () => {
  it('a long delay keeps the zip at 98; PUT /control/processing {delayMs: 0} processes it now, counted once in its test set', async () => {
    const dian = client(sim.url);
    expect(await (await fetch(`${sim.controlUrl}/processing`)).json()).toEqual({ delayMs: 3_600_000 });
    const up = await dian.sendTestSetAsync('z.zip', zip1((await signedInvoice(990000301)).xml), ISSUER.testSetId!);
    await new Promise((r) => setTimeout(r, 100));
    expect((await dian.getStatusZip(up.zipKey!)).map((v) => v.statusCode)).toEqual(['98']);
    expect(sim.testSets()[ISSUER.testSetId!]).toBeUndefined();
    const r = await put({ delayMs: 0 });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ delayMs: 0 });
    for (let i = 0; i < 100 && (await dian.getStatusZip(up.zipKey!))[0]!.statusCode === '98'; i++) await new Promise((res) => setTimeout(res, 20));
    expect((await dian.getStatusZip(up.zipKey!)).map((v) => v.statusCode)).toEqual(['00']);
    expect(sim.testSets()[ISSUER.testSetId!]).toEqual({ accepted: 1, rejected: 0 });
    // The handle's method does the same.
    sim.setProcessingDelay(5);
    expect(await (await fetch(`${sim.controlUrl}/processing`)).json()).toEqual({ delayMs: 5 });
    await dian.close();
  });

  it('refuses a delay that is not a number between 0 and one day (400, Spanish)', async () => {
    for (const body of [{ delayMs: -1 }, { delayMs: 'x' }, {}, { delayMs: 86_400_001 }]) {
      const r = await put(body);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toMatch(/processing.delayMs debe ser un número/);
    }
  });
});

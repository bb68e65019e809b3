/**
 * `npm start` (src/start.ts) over real HTTP: both products on one port (an e-CF route and a DIAN route answer
 * on the same URL), and each product alone with the other's paths not served; ECF_PRODUCTS parsing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProducts, startProducts } from '../../../src/start.js';
import { xsdDir } from '../../ecf/helpers/env.js';
import { dianXsdDir } from '../helpers/env.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function env(products: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecf-products-'));
  dirs.push(dataDir);
  return {
    ECF_PRODUCTS: products,
    PORT: '0',
    HOST: '127.0.0.1',
    ECF_DATA_DIR: dataDir,
    ECF_XSD_DIR: xsdDir(),
    DIAN_XSD_DIR: dianXsdDir(),
    LOG_LEVEL: 'silent',
  };
}

async function statusOf(url: string): Promise<number> {
  const r = await fetch(url);
  await r.arrayBuffer();
  return r.status;
}

describe('npm start: the products on one port', () => {
  it('serves e-CF and DIAN from one listener', async () => {
    const running = await startProducts(env('ecf,dian'));
    try {
      expect(running.ecf).not.toBeNull();
      expect(running.dian).not.toBeNull();
      expect(await statusOf(`${running.url}/api/v1/docs`)).toBe(200);
      const openapi = await fetch(`${running.url}/service/openapi.json`);
      expect(openapi.status).toBe(200);
      expect(((await openapi.json()) as { info: { title: string } }).info.title).toMatch(/DIAN/);
      // A DIAN route needs a DIAN token: the DIAN app answered, not the e-CF one.
      const list = await fetch(`${running.url}/service/documents`);
      expect(list.status).toBe(401);
      expect(((await list.json()) as { message: string }).message).toMatch(/Bearer/);
    } finally {
      await running.close();
    }
  });

  it('serves DIAN alone when ECF_PRODUCTS=dian, and e-CF alone when ECF_PRODUCTS=ecf', async () => {
    const dian = await startProducts(env('dian'));
    try {
      expect(dian.ecf).toBeNull();
      expect(await statusOf(`${dian.url}/service/openapi.json`)).toBe(200);
      expect(await statusOf(`${dian.url}/api/v1/docs`)).toBe(404);
    } finally {
      await dian.close();
    }
    const ecf = await startProducts(env('ecf'));
    try {
      expect(ecf.dian).toBeNull();
      expect(await statusOf(`${ecf.url}/api/v1/docs`)).toBe(200);
      expect(await statusOf(`${ecf.url}/service/openapi.json`)).toBe(404);
    } finally {
      await ecf.close();
    }
  });

  it('parses ECF_PRODUCTS (default both) and refuses unknown names', () => {
    expect([...parseProducts(undefined)].sort()).toEqual(['dian', 'ecf']);
    expect([...parseProducts(' dian ')]).toEqual(['dian']);
    expect(() => parseProducts('ecf,mx')).toThrow(/ECF_PRODUCTS/);
    expect(() => parseProducts(',')).toThrow(/ECF_PRODUCTS/);
  });
});

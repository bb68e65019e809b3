/**
 * The worker's heavy steps run through its `offload` (the server passes the child-process pool): while the RFCE
 * of a large type 32 is derived, an HTTP GET on the same event loop is answered.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createOffloadPool, poolOffload, type Offload } from '../../../../src/ecf/server/offload/index.js';
import { withLines } from '../../helpers/docs.js';
import { xsdDir } from '../../helpers/env.js';
import { createBench, runUntilTerminal } from './harness.js';

const pool = createOffloadPool({ size: 2 });
afterAll(() => pool.close());

describe('worker with the offload pool', () => {
  it('answers a GET on the same loop while a 1,500-line 32 is verified and its RFCE derived', async () => {
    const bench = await createBench();
    const http = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
    try {
      const offloaded = poolOffload(pool, { xsdDir: xsdDir() });
      const order: string[] = [];
      let probe: Promise<void> | null = null;
      const offload: Offload = {
        ...offloaded,
        deriveRfce: async (xml, lane) => {
          probe = fetch(url).then(async (r) => {
            await r.text();
            order.push('get');
          });
          const out = await offloaded.deriveRfce(xml, lane);
          order.push('rfce');
          return out;
        },
      };
      const big = withLines('32', 1500, { ...withLines('32', 1).items[0], precio_unitario: 10 });
      const doc = await bench.insert('32', (d) => Object.assign(d, big));
      expect(doc.summary).toBe(true);
      const [final] = await runUntilTerminal(bench.worker({ offload }), bench.storage, [doc.id], 120_000);
      await probe;
      expect(final!.status).toBe('accepted_authority');
      expect(final!.rfceXml).toContain('<RFCE');
      expect(order).toEqual(['get', 'rfce']);
    } finally {
      http.close();
      await bench.close();
    }
  });
});

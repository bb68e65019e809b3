/** `send: true`: the customer-notice hook (the mail subsystem's place) gets the accepted document once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerNotice } from '../../../../src/dian/server/index.js';
import { example, type Harness, QUIET, startHarness } from '../helpers.js';

describe('send: true hook', () => {
  let h: Harness;
  const notices: CustomerNotice[] = [];
  const post = (body: unknown) =>
    h.server.app.request('/service/invoice', { method: 'POST', headers: { Authorization: `Bearer ${h.token}` }, body: JSON.stringify(body) });

  beforeAll(async () => {
    h = await startHarness('sqlite', {
      notifyCustomer: async (n) => {
        notices.push(n);
      },
    });
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it('calls the hook for send: true only, with the stored document, the PDF and the AttachedDocument', async () => {
    expect((await post({ ...example('invoice'), number: 990000801 })).status).toBe(200);
    expect(notices).toHaveLength(0);
    const body: Record<string, unknown> = { ...example('invoice'), number: 990000802, send: true };
    expect((await post(body)).status).toBe(200);
    expect(notices).toHaveLength(1);
    const n = notices[0]!;
    expect(n.document).toMatchObject({ state: 'accepted', prefix: 'SETP', number: 990000802 });
    expect(n.to).toBe((body.customer as { email: string }).email);
    expect(Buffer.from(n.pdf!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(n.attachedDocument).toContain('<AttachedDocument');
    // A retry returns the stored answer and does not e-mail again.
    expect((await post(body)).status).toBe(200);
    expect(notices).toHaveLength(1);
  });
});

describe('a failing send hook', () => {
  let h: Harness;
  const logged: unknown[] = [];
  beforeAll(async () => {
    h = await startHarness('sqlite', {
      notifyCustomer: async () => {
        throw new Error('smtp down');
      },
      logger: { ...QUIET, error: (obj: object) => logged.push(obj) },
    });
  });
  afterAll(async () => {
    await h?.cleanup();
  });

  it('answers 500 without details and logs it; the issued document is kept and a retry gets it without a second send', async () => {
    const body = { ...example('invoice'), number: 990000803, send: true };
    const post = () =>
      h.server.app.request('/service/invoice', { method: 'POST', headers: { Authorization: `Bearer ${h.token}` }, body: JSON.stringify(body) });
    const first = await post();
    expect(first.status).toBe(500);
    expect(JSON.stringify(await first.json())).not.toContain('smtp');
    expect(logged).toHaveLength(1);
    const sends = h.server.simulator!.stats().requests.SendBillSync;
    const retry = await post();
    expect(retry.status).toBe(200);
    expect(h.server.simulator!.stats().requests.SendBillSync).toBe(sends);
  });
});

/** `send: true`: the customer-notice hook (the mail subsystem's place) gets the accepted document once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerNotice } from '../../../../src/dian/server/index.js';
import { example, type Harness, startHarness } from '../helpers.js';

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

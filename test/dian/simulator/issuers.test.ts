/**
 * The local DIAN reads the issuer where each kind carries it: a support document (05) and its note (95) are
 * issued by the acquirer (AccountingCustomerParty; the supplier is the seller not obliged to invoice), and a
 * POS document's DianExtensions come after its own extensions. Each is accepted; another seller NIT is no issuer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDianXml, type DianKindId } from '../../../src/dian/index.js';
import { signDianXml } from '../../../src/dian/sign/index.js';
import { startDianSimulator, type DianSimulator } from '../../../src/dian/simulator/index.js';
import type { DianClient } from '../../../src/dian/transport/index.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { dianXsdDir } from '../helpers/env.js';
import { minimalDianRequest } from '../helpers/requests.js';
import { BUYER, client, clock, ISSUER, RANGE, signer, zip1 } from './fixtures.js';

let sim: DianSimulator;
let dian: DianClient;

beforeAll(async () => {
  sim = await startDianSimulator({ xsdDir: dianXsdDir(), clock, companies: [ISSUER, BUYER], ranges: [RANGE] });
  dian = client(sim.url);
});
afterAll(async () => {
  await dian.close();
  await sim.close();
});

async function send(kind: DianKindId, number: number, change?: (r: Record<string, unknown>) => void) {
  const request = minimalDianRequest(kind) as unknown as Record<string, unknown>;
  request.number = number;
  change?.(request);
  const built = buildDianXml(kind, request, CONTEXT);
  if (!built.ok) throw new Error(JSON.stringify(built.issues));
  const signed = await signDianXml(built.xml, signer, { clock });
  if (!signed.ok) throw new Error(signed.message);
  return dian.sendBillSync(`z-${kind}-${number}.zip`, zip1(signed.xml));
}

describe('local DIAN: where each kind names its issuer', () => {
  it.each(['support-invoice', 'pos'] as const)('accepts %s from the registered issuer', async (kind) => {
    const r = await send(kind, kind === 'pos' ? 990000051 : 990000052);
    expect(r.messages).toEqual([]);
    expect(r.isValid).toBe(true);
  });

  it('a support document whose acquirer is not registered is refused SIMSW01 (the seller is not the issuer)', async () => {
    const r = await send('support-invoice', 990000053, (req) => {
      req.identification_number = 811111111;
    });
    expect(r.isValid).toBe(false);
    expect(r.messages.map((m) => m.rule)).toContain('SIMSW01');
  });
});

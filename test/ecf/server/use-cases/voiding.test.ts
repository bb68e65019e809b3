/**
 * The voiding use case called directly (no HTTP): in-memory storage methods it names, a scripted authority,
 * the real ANECF builder, signer and XSD validator.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AuthorityError, TransportError } from '../../../../src/ecf/index.js';
import type { AuthorityIdentity, VoidingReceipt, XmlFile } from '../../../../src/ecf/dgii/index.js';
import type { VoidBatch } from '../../../../src/ecf/server/storage/types.js';
import type { VoidingDeps } from '../../../../src/ecf/server/use-cases/voiding.js';
import { createVoiding, VOID_MESSAGES, type RequestedRange } from '../../../../src/ecf/server/use-cases/voiding.js';
import { isUseCaseError, type UseCaseError } from '../../../../src/ecf/server/use-cases/errors.js';
import { clock, identityOf, issuer, memoryLogger, schemas } from './fixtures.js';

type Answer = VoidingReceipt | Error;

/** Storage with one sequence 1…1000 of types 31 and 32, e-CF E310000000005 issued, and the attempts in memory. */
function world(answers: Answer[]) {
  const batches: VoidBatch[] = [];
  const sent: XmlFile[] = [];
  let created = 0;
  const storage: VoidingDeps['storage'] = {
    listSequences: async () =>
      (['31', '32'] as const).map((tipo, i) => ({
        id: i + 1,
        issuerId: issuer.id,
        tipo,
        from: 1,
        to: 1000,
        next: 6,
        expiresOn: null,
        active: true,
        createdAt: 0,
      })),
    findIssuedInRanges: async (_id, ranges, limit) =>
      ['E310000000005'].filter((_e) => ranges.some((r) => r.tipo === '31' && r.from <= 5 && 5 <= r.to)).slice(0, limit),
    listVoidBatches: async () => [...batches].reverse(),
    createVoidBatch: async (issuerId, lote, ranges) => {
      created++;
      const b: VoidBatch = { id: batches.length + 1, issuerId, lote, accepted: null, messages: [], ranges, createdAt: 0, updatedAt: 0 };
      batches.push(b);
      return { ...b };
    },
    settleVoidBatch: async (id, accepted, messages) => {
      const b = batches.find((x) => x.id === id)!;
      Object.assign(b, { accepted, messages });
      return { ...b };
    },
  };
  const transport = {
    voidRanges: async (_who: AuthorityIdentity, file: XmlFile): Promise<VoidingReceipt> => {
      sent.push(file);
      const next = answers.shift();
      if (!next) throw new Error('no scripted answer');
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return { batches, sent, storage, transport, created: () => created };
}

const receipt = (accepted: boolean, mensajes: string[] = []): VoidingReceipt => ({
  rnc: issuer.rnc,
  codigo: accepted ? '1' : '2',
  nombre: null,
  mensajes,
  accepted,
});
const range = (tipo: '31' | '32', from: number, to: number, index = 0): RequestedRange => ({ tipo, from, to, index });

let identity: VoidingDeps['identity'];
beforeAll(async () => {
  identity = await identityOf();
});

function voiding(w: ReturnType<typeof world>) {
  let n = 0;
  return createVoiding({
    storage: w.storage,
    transport: w.transport,
    schemas,
    clock,
    logger: memoryLogger().logger,
    identity,
    newLote: () => `ANU-TEST-${++n}`,
  });
}

async function refusal(p: Promise<unknown>): Promise<UseCaseError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(isUseCaseError(e)).toBe(true);
  return e as UseCaseError;
}

describe('voiding use case', () => {
  it('refuses inverted and overlapping ranges before touching storage or the authority', async () => {
    const w = world([]);
    const e = await refusal(voiding(w).voidRanges(issuer, [range('31', 50, 40, 0), range('32', 10, 20, 1), range('32', 15, 30, 2)]));
    expect(e.kind).toBe('invalid');
    expect(e.message).toBe(VOID_MESSAGES.invalid);
    expect(Object.keys((e.document as { detailed_errors: Record<string, string[]> }).detailed_errors).sort()).toEqual(['rangos.0', 'rangos.2']);
    expect(w.created()).toBe(0);
    expect(w.sent).toHaveLength(0);
  });

  it('refuses ranges outside the sequences and ranges holding an issued e-CF, naming the e-NCF', async () => {
    const w = world([]);
    const e = await refusal(voiding(w).voidRanges(issuer, [range('31', 1, 10, 0), range('32', 990, 1001, 1)]));
    const detailed = (e.document as { detailed_errors: Record<string, string[]> }).detailed_errors;
    expect(detailed['rangos.0']!.join(' ')).toContain('E310000000005 ya fue emitido');
    expect(detailed['rangos.1']!.join(' ')).toContain('no está dentro de una secuencia autorizada');
    expect(w.created()).toBe(0);
  });

  it('records, sends a signed XSD-valid ANECF and settles an accepted voiding', async () => {
    const w = world([receipt(true)]);
    const out = await voiding(w).voidRanges(issuer, [range('32', 101, 150, 0), range('31', 200, 200, 1)]);
    expect(out.kind).toBe('accepted');
    expect(out.batch).toMatchObject({ lote: 'ANU-TEST-1', accepted: true });
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0]!.fileName).toBe(`${issuer.rnc}E320000000101.xml`);
    expect(schemas.validate(w.sent[0]!.xml, 'ANECF').valid).toBe(true);
    // Grouped by type in ascending order, as the XSD lines.
    expect(w.sent[0]!.xml.indexOf('E310000000200')).toBeLessThan(w.sent[0]!.xml.indexOf('E320000000101'));
  });

  it('settles a definitive refusal as rejected with the authority messages', async () => {
    const w = world([new AuthorityError('refused', { code: 'rejected', status: 400, mensajes: [{ codigo: '7', valor: 'Rango inválido' }] })]);
    const out = await voiding(w).voidRanges(issuer, [range('31', 300, 310)]);
    expect(out.kind).toBe('rejected');
    expect(out.batch).toMatchObject({ accepted: false, messages: ['7: Rango inválido'] });
  });

  it('keeps an unknown outcome pending, refuses overlapping attempts, and resends the same lote, settled by an "already voided" answer', async () => {
    const w = world([
      new TransportError('dropped', { code: 'network', retryable: true, outcomeUnknown: true }),
      receipt(false, ['El rango E310000000400-E310000000410 ya fue anulado.']),
    ]);
    const v = voiding(w);
    const first = await v.voidRanges(issuer, [range('31', 400, 410)]);
    expect(first).toMatchObject({ kind: 'unknown', retryable: true, batch: { lote: 'ANU-TEST-1', accepted: null } });
    expect(w.batches[0]!.accepted).toBeNull();

    const overlap = await refusal(v.voidRanges(issuer, [range('31', 405, 420)]));
    expect(overlap.message).toBe(VOID_MESSAGES.invalid);
    expect(overlap.document?.errors).toEqual([expect.stringContaining('se superpone con el lote ANU-TEST-1')]);

    const again = await v.voidRanges(issuer, [range('31', 400, 410)]);
    expect(again.kind).toBe('accepted');
    expect(again.batch.lote).toBe('ANU-TEST-1');
    expect(again.batch.messages).toContain(VOID_MESSAGES.alreadyVoided);
    expect(w.created()).toBe(1);
    expect(w.sent).toHaveLength(2);
  });

  it('serializes the attempts of one issuer: two concurrent identical requests record one attempt', async () => {
    const w = world([new TransportError('timeout', { code: 'timeout', retryable: false, outcomeUnknown: true }), receipt(true)]);
    const v = voiding(w);
    const [a, b] = await Promise.all([v.voidRanges(issuer, [range('32', 500, 510)]), v.voidRanges(issuer, [range('32', 500, 510)])]);
    expect(a).toMatchObject({ kind: 'unknown', retryable: false });
    expect(b.kind).toBe('accepted');
    expect(b.batch.lote).toBe(a.batch.lote);
    expect(w.created()).toBe(1);
  });
});

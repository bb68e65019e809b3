/**
 * The commercial-approval use case called directly (no HTTP): the storage method it names in memory, a
 * scripted directory, receiver and authority, the real ACECF builder, signer and XSD validator.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AuthorityError, TransportError } from '../../../../src/ecf/index.js';
import type { ApprovalReceipt, DirectoryEntry, XmlFile } from '../../../../src/ecf/dgii/index.js';
import type { ReceivedApprovalPatch, ReceivedDocument } from '../../../../src/ecf/server/storage/types.js';
import { isUseCaseError, type UseCaseError } from '../../../../src/ecf/server/use-cases/errors.js';
import { IN_FLIGHT_MS, sendCommercialApproval, type CommercialApprovalDeps } from '../../../../src/ecf/server/use-cases/received.js';
import { clock, identityOf, issuer, memoryLogger, RNC, schemas } from './fixtures.js';

const SELLER = '101010101';

function received(over: Partial<ReceivedDocument> = {}): ReceivedDocument {
  return {
    id: 7,
    issuerId: issuer.id,
    emisorRnc: SELLER,
    emisorName: 'Vendedor SRL',
    encf: 'E310000000042',
    tipo: '31',
    fechaEmision: '30-03-2026',
    montoTotal: '236.00',
    totalItbis: '36.00',
    xml: `<ECF><Encabezado><Comprador><!--<RNCComprador>999999999</RNCComprador>--><RNCComprador>${RNC}</RNCComprador></Comprador></Encabezado></ECF>`,
    arecfXml: '<ARECF/>',
    estado: 0,
    motivo: null,
    receivedAt: 0,
    senderFingerprint: null,
    approvalEstado: null,
    approvalMotivo: null,
    approvalXml: null,
    approvalSentAt: null,
    approvalOutcome: null,
    updatedAt: 0,
    ...over,
  };
}

const ENTRY: DirectoryEntry = {
  rnc: SELLER,
  nombre: 'Vendedor SRL',
  urlRecepcion: 'https://vendedor.example/fe/recepcion',
  urlAceptacion: 'https://vendedor.example/fe/aprobacioncomercial',
} as DirectoryEntry;

function world(opts: { receiver?: { ok: boolean; status: number } | Error; authority?: ApprovalReceipt | Error; claim?: boolean } = {}) {
  const patches: { patch: ReceivedApprovalPatch; onlyIfUnapproved: boolean }[] = [];
  const toIssuer: XmlFile[] = [];
  const toAuthority: XmlFile[] = [];
  const { logger } = memoryLogger();
  const deps: Omit<CommercialApprovalDeps, 'identity'> = {
    storage: {
      updateReceivedApproval: async (_id, patch, options) => {
        patches.push({ patch, onlyIfUnapproved: options?.onlyIfUnapproved === true });
        return opts.claim === false && options?.onlyIfUnapproved ? null : received();
      },
    },
    transport: {
      sendApproval: async (_who, file) => {
        toAuthority.push(file);
        const a = opts.authority ?? { codigo: '1', estado: 'Recibido', mensajes: [] };
        if (a instanceof Error) throw a;
        return a;
      },
    },
    schemas,
    clock,
    logger,
    directory: { entry: async (_who, rnc) => (rnc === SELLER ? ENTRY : null) },
    receptor: () => ({
      urls: () => ({ recepcion: ENTRY.urlRecepcion!, aprobacion: ENTRY.urlAceptacion!, autenticacion: '' }) as never,
      sendApproval: async (_entry: DirectoryEntry, _who: unknown, file: XmlFile) => {
        toIssuer.push(file);
        const r = opts.receiver ?? { ok: true, status: 200 };
        if (r instanceof Error) throw r;
        return { ...r, body: 'ok' } as never;
      },
    }),
    realNow: () => 10 * IN_FLIGHT_MS,
  };
  return { deps, patches, toIssuer, toAuthority };
}

let identity: CommercialApprovalDeps['identity'];
beforeAll(async () => {
  identity = await identityOf();
});

async function refusal(p: Promise<unknown>): Promise<UseCaseError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(isUseCaseError(e)).toBe(true);
  return e as UseCaseError;
}

describe('commercial approval use case', () => {
  it('signs an XSD-valid ACECF with the received values, records it once, delivers it to the issuer and the authority', async () => {
    const w = world();
    const r = await sendCommercialApproval({ ...w.deps, identity }, issuer, received(), { estado: 2, motivo: 'Mercancía no recibida.' });
    expect(r).toMatchObject({ estado: 2, motivo: 'Mercancía no recibida.', delivered: true, sentAt: clock().getTime() });
    expect(r.emisor).toMatchObject({ entregada: true, url: ENTRY.urlAceptacion, http_status: 200, error: null, fecha: '01-04-2026 10:00:00' });
    expect(r.autoridad).toMatchObject({ entregada: true, codigo: '1' });
    const xml = w.toIssuer[0]!.xml;
    expect(w.toAuthority[0]!.xml).toBe(xml);
    expect(schemas.validate(xml, 'ACECF').valid).toBe(true);
    for (const v of [
      `<RNCEmisor>${SELLER}</RNCEmisor>`,
      '<eNCF>E310000000042</eNCF>',
      '<MontoTotal>236.00</MontoTotal>',
      `<RNCComprador>${RNC}</RNCComprador>`,
      '<Estado>2</Estado>',
    ]) {
      expect(xml).toContain(v);
    }
    expect(w.patches[0]).toMatchObject({ onlyIfUnapproved: true, patch: { approvalEstado: 2, approvalMotivo: 'Mercancía no recibida.', approvalXml: xml } });
    expect(w.patches[1]!.patch).toMatchObject({ approvalSentAt: clock().getTime(), approvalOutcome: { emisor: r.emisor, autoridad: r.autoridad } });
  });

  it('refuses types without commercial approval and e-CF answered as not received, before signing anything', async () => {
    const w = world();
    const t = await refusal(
      sendCommercialApproval({ ...w.deps, identity }, issuer, received({ tipo: '32', encf: 'E320000000042' }), { estado: 1, motivo: null }),
    );
    expect(t.kind).toBe('invalid');
    expect(t.document?.errors).toEqual([expect.stringContaining('El tipo de e-CF 32 no admite aprobación comercial')]);
    const n = await refusal(sendCommercialApproval({ ...w.deps, identity }, issuer, received({ estado: 1 }), { estado: 1, motivo: null }));
    expect(n.kind).toBe('invalid');
    expect(w.patches).toHaveLength(0);
  });

  it('loses the race for the one approval per document as a conflict, sending nothing', async () => {
    const w = world({ claim: false });
    const e = await refusal(sendCommercialApproval({ ...w.deps, identity }, issuer, received(), { estado: 1, motivo: null }));
    expect(e.kind).toBe('conflict');
    expect(w.toIssuer).toHaveLength(0);
    expect(w.toAuthority).toHaveLength(0);
  });

  it('reports failed deliveries in Spanish and, on a repeat, resends the same ACECF only where it was not taken', async () => {
    const w = world({
      receiver: new TransportError('t', { code: 'timeout', retryable: true }),
      authority: new AuthorityError('no', { code: 'rejected', status: 400, mensajes: [{ codigo: '3', valor: 'No' }] }),
    });
    const first = await sendCommercialApproval({ ...w.deps, identity }, issuer, received(), { estado: 1, motivo: null });
    expect(first.delivered).toBe(false);
    expect(first.emisor.error).toBe('El servicio del emisor no respondió a tiempo.');
    expect(first.autoridad).toMatchObject({ entregada: false, mensajes: ['3: No'], error: 'La autoridad tributaria rechazó la consulta.' });

    const stored = received({
      approvalEstado: 1,
      approvalXml: w.toIssuer[0]!.xml,
      approvalSentAt: first.sentAt,
      approvalOutcome: { emisor: first.emisor, autoridad: { ...first.autoridad, entregada: true } },
    });
    const w2 = world();
    const again = await sendCommercialApproval({ ...w2.deps, identity }, issuer, stored, { estado: 1, motivo: null });
    expect(again.delivered).toBe(true);
    expect(w2.toIssuer.map((f) => f.xml)).toEqual([stored.approvalXml]);
    expect(w2.toAuthority).toHaveLength(0);
    expect(w2.patches.every((p) => !p.onlyIfUnapproved)).toBe(true);

    const changed = await refusal(sendCommercialApproval({ ...w2.deps, identity }, issuer, stored, { estado: 2, motivo: 'Otro' }));
    expect(changed.kind).toBe('conflict');
  });

  it('treats an approval recorded moments ago without an outcome as in flight', async () => {
    const w = world();
    const d = received({ approvalEstado: 1, approvalXml: '<ACECF/>', updatedAt: 10 * IN_FLIGHT_MS - 1000 });
    const e = await refusal(sendCommercialApproval({ ...w.deps, identity }, issuer, d, { estado: 1, motivo: null }));
    expect(e.message).toContain('se está enviando en este momento');
  });
});

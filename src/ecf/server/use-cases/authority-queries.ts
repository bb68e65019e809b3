/**
 * Questions about an issued document asked live to the authority, independent of HTTP: its track ids (next
 * to the local submission history) and its fiscal status (the RFCE summary's for type 32 below the
 * threshold, the e-CF status query otherwise).
 */
import { formatDateTimeDO } from '../../index.js';
import type { AuthorityTransport, FiscalStatus, TrackIdEntry, TrackResult } from '../../dgii/index.js';
import { xmlValue } from '../inbound/xml.js';
import type { DocumentRecord, Issuer, Storage, SubmissionRecord } from '../storage/types.js';
import { UseCaseError } from './errors.js';
import type { IdentityOf, NowFn } from './ports.js';

export interface TrackIdsDeps {
  storage: Pick<Storage, 'listSubmissions'>;
  transport: Pick<AuthorityTransport, 'trackIds'>;
  identity: IdentityOf;
}

/**
 * The local submissions of `d` and the authority's track ids. The local history is still useful when the
 * authority cannot be asked: its failure is returned (`authority.error`), not thrown.
 */
export async function documentTrackIds(
  deps: TrackIdsDeps,
  issuer: Issuer,
  d: DocumentRecord,
): Promise<{
  submissions: SubmissionRecord[];
  authority: { consulted: true; trackIds: TrackIdEntry[] } | { consulted: false; error: unknown };
}> {
  const submissions = await deps.storage.listSubmissions(d.id);
  try {
    const who = await deps.identity(issuer);
    const trackIds = await deps.transport.trackIds(who, { rncEmisor: issuer.rnc, encf: d.encf });
    return { submissions, authority: { consulted: true, trackIds } };
  } catch (error) {
    return { submissions, authority: { consulted: false, error } };
  }
}

export interface LiveStatusDeps {
  transport: Pick<AuthorityTransport, 'status' | 'rfceStatus'>;
  clock: NowFn;
  identity: IdentityOf;
}

export type LiveStatus =
  | { service: 'resumen_rfce'; result: TrackResult; consultedAt: string }
  | { service: 'estado_ecf'; result: FiscalStatus; consultedAt: string };

/** The authority's status of an issued document; `conflict` before it is signed (the query needs its security code). */
export async function documentLiveStatus(deps: LiveStatusDeps, issuer: Issuer, d: DocumentRecord): Promise<LiveStatus> {
  if (!d.securityCode) {
    throw new UseCaseError('conflict', 'El documento aún no ha sido firmado: la consulta a la autoridad requiere su código de seguridad.');
  }
  const who = await deps.identity(issuer);
  const consultedAt = formatDateTimeDO(deps.clock());
  if (d.summary) {
    const result = await deps.transport.rfceStatus(who, { rncEmisor: issuer.rnc, encf: d.encf, codigoSeguridad: d.securityCode });
    return { service: 'resumen_rfce', result, consultedAt };
  }
  // From the parsed document: a comment or CDATA in passthrough XML must not name another buyer.
  const rncComprador = xmlValue(d.signedXml ?? d.unsignedXml, ['Encabezado', 'Comprador', 'RNCComprador']);
  const result = await deps.transport.status(who, { rncEmisor: issuer.rnc, encf: d.encf, rncComprador, codigoSeguridad: d.securityCode });
  return { service: 'estado_ecf', result, consultedAt };
}

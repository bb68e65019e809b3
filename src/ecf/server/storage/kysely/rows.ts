/** Row → record mappers and the value conversions they share (both engines). */
import type { EcfType } from '../../../index.js';
import type {
  ApprovalState,
  DocumentApproval,
  DocumentRecord,
  InboundToken,
  Issuer,
  ReceiptReason,
  ReceiptState,
  ReceivedDocument,
  SequenceRecord,
  SubmissionRecord,
  TokenRecord,
} from '../types.js';
import type { ApprovalRow, Bool, DocumentRow, InboundTokensTable, IssuerRow, ReceivedRow, SequenceRow, SubmissionRow, TokenRow } from './schema.js';

type Big = number | string;

export function num(v: Big): number {
  return typeof v === 'number' ? v : Number(v);
}
export function numOrNull(v: Big | null): number | null {
  return v === null || v === undefined ? null : num(v);
}
export function boolOrNull(v: Bool | null): boolean | null {
  return v === null || v === undefined ? null : Boolean(v);
}
export function bytes(v: Uint8Array | null): Uint8Array | null {
  // Copy out of the driver's Buffer so callers get a plain Uint8Array they own.
  return v === null || v === undefined ? null : new Uint8Array(v);
}
export function json<T>(v: string | null): T | null {
  return v === null || v === undefined ? null : (JSON.parse(v) as T);
}

/** `dd-MM-yyyy` → `yyyy-MM-dd` (for range filters); other shapes are kept as given. */
export function isoDay(ddmmyyyy: string): string {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(ddmmyyyy);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : ddmmyyyy;
}

export function toIssuer(r: IssuerRow): Issuer {
  return {
    id: num(r.id),
    rnc: r.rnc,
    name: r.name,
    profile: json<Record<string, unknown>>(r.profile) ?? {},
    signingMode: r.signing_mode as Issuer['signingMode'],
    certificate: bytes(r.certificate),
    certificateInfo: json<Record<string, unknown>>(r.certificate_info),
    createdAt: num(r.created_at),
  };
}
export function toToken(r: TokenRow): TokenRecord {
  return {
    id: num(r.id),
    issuerId: num(r.issuer_id),
    hash: r.hash,
    label: r.label,
    createdAt: num(r.created_at),
    revokedAt: numOrNull(r.revoked_at),
  };
}
export function toSequence(r: SequenceRow): SequenceRecord {
  return {
    id: num(r.id),
    issuerId: num(r.issuer_id),
    tipo: r.tipo as EcfType,
    from: num(r.first_number),
    to: num(r.last_number),
    next: num(r.next_number),
    expiresOn: r.expires_on,
    active: Boolean(r.active),
    createdAt: num(r.created_at),
  };
}
export function toDocument(r: DocumentRow): DocumentRecord {
  return {
    id: num(r.id),
    issuerId: num(r.issuer_id),
    tipo: r.tipo as EcfType,
    encf: r.encf,
    status: r.status as DocumentRecord['status'],
    source: r.source as DocumentRecord['source'],
    unsignedXml: r.unsigned_xml,
    signedXml: r.signed_xml,
    rfceXml: r.rfce_xml,
    summary: Boolean(r.summary),
    securityCode: r.security_code,
    trackId: r.track_id,
    issuedAt: r.issued_at,
    signedAt: r.signed_at,
    totalAmount: r.total_amount,
    totalItbis: r.total_itbis,
    sequenceReusable: boolOrNull(r.sequence_reusable),
    errors: json<string[]>(r.errors),
    authorityState: r.authority_state,
    transmission: r.transmission as DocumentRecord['transmission'],
    sendAttempts: num(r.send_attempts),
    attempts: num(r.attempts),
    notFoundPolls: num(r.not_found_polls),
    rncComprador: r.rnc_comprador ?? null,
    numeroFacturaInterna: r.numero_factura_interna ?? null,
    nextAttemptAt: numOrNull(r.next_attempt_at),
    leaseOwner: r.lease_owner,
    leaseUntil: numOrNull(r.lease_until),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}
export function toSubmission(r: SubmissionRow): SubmissionRecord {
  return {
    id: num(r.id),
    documentId: num(r.document_id),
    kind: r.kind as SubmissionRecord['kind'],
    trackId: r.track_id,
    state: r.state,
    at: num(r.at),
  };
}

export function toReceived(r: ReceivedRow): ReceivedDocument {
  return {
    id: num(r.id),
    issuerId: num(r.issuer_id),
    emisorRnc: r.emisor_rnc,
    emisorName: r.emisor_name,
    encf: r.encf,
    tipo: r.tipo as EcfType,
    fechaEmision: r.fecha_emision,
    montoTotal: r.monto_total,
    totalItbis: r.total_itbis,
    xml: r.xml,
    arecfXml: r.arecf_xml,
    estado: num(r.estado) as ReceiptState,
    motivo: numOrNull(r.motivo) as ReceiptReason | null,
    receivedAt: num(r.received_at),
    approvalEstado: numOrNull(r.approval_estado) as ApprovalState | null,
    approvalMotivo: r.approval_motivo,
    approvalXml: r.approval_xml,
    approvalSentAt: numOrNull(r.approval_sent_at),
    approvalOutcome: json<Record<string, unknown>>(r.approval_outcome),
    updatedAt: num(r.updated_at),
    senderFingerprint: r.sender_fingerprint ?? null,
  };
}

export function toApproval(r: ApprovalRow): DocumentApproval {
  return {
    id: num(r.id),
    documentId: num(r.document_id),
    estado: num(r.estado) as ApprovalState,
    motivo: r.motivo,
    rncComprador: r.rnc_comprador,
    acecfXml: r.acecf_xml,
    receivedAt: num(r.received_at),
    signerFingerprint: r.signer_fingerprint ?? null,
  };
}

export function toInboundToken(r: InboundTokensTable): InboundToken {
  const token: InboundToken = { hash: r.hash, scope: r.scope, subject: r.subject, createdAt: num(r.created_at), expiresAt: num(r.expires_at) };
  const principals = json<string[]>(r.principals);
  if (principals) token.principals = principals;
  return token;
}

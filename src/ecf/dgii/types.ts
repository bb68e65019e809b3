/**
 * The authority port: DGII's web services as typed operations. `createDgiiClient` (src/ecf/dgii/client.ts)
 * implements it over HTTP; the simulator (src/ecf/simulator) speaks the same protocol, so the same client
 * talks to either. Field names follow DGII's JSON (camelCase), normalised: `mensajes` are always
 * `{codigo, valor}` objects, dates are `Date`s, numeric codes are numbers.
 */
import type { AuthorityMessage } from '../../shared/errors/authority-error.js';
import type { Signer } from '../../shared/ports.js';
import type { DgiiEnvironment } from '../spec/environments.js';

export type { AuthorityMessage } from '../../shared/errors/authority-error.js';

/** DGII environments (path segment); the one union lives in the e-CF spec. */
export type DgiiEnvironmentName = DgiiEnvironment;

/** Who is calling: the RNC the token is cached under and the signer of its authentication seed. */
export interface AuthorityIdentity {
  rnc: string;
  signer: Signer;
}

/** A file uploaded as the multipart part `xml`. */
export interface XmlFile {
  /** DGII file name, e.g. `101000000E310000000001.xml` (see `dgiiFileName`). */
  fileName: string;
  xml: string;
}

export interface AuthToken {
  token: string;
  expiresAt: Date;
  issuedAt: Date;
}

/** State names DGII uses in result, track-id and RFCE answers. */
export type AuthorityState = 'No encontrado' | 'Aceptado' | 'Rechazado' | 'En Proceso' | 'Aceptado Condicional';

/** Numeric codes of the result query: 0 No encontrado, 1 Aceptado, 2 Rechazado, 3 En Proceso, 4 Aceptado Condicional. */
export type AuthorityStateCode = 0 | 1 | 2 | 3 | 4;

/** `POST recepcion/api/facturaselectronicas`. */
export interface ReceptionReceipt {
  trackId: string;
  mensaje: string | null;
}

/** `GET consultaresultado/api/consultas/estado?trackid=` and the synchronous RFCE verdict. */
export interface TrackResult {
  trackId: string | null;
  codigo: AuthorityStateCode;
  estado: AuthorityState;
  rnc: string | null;
  encf: string | null;
  /** true: the e-NCF is consumed; false: it may be reused; null: not said. */
  secuenciaUtilizada: boolean | null;
  fechaRecepcion: Date | null;
  mensajes: AuthorityMessage[];
}

/** `GET consultaestado/api/consultas/estado`. */
export interface StatusQuery {
  rncEmisor: string;
  encf: string;
  rncComprador?: string | null;
  codigoSeguridad: string;
}
export interface FiscalStatus {
  codigo: 0 | 1 | 2 | 4;
  estado: string;
  rncEmisor: string | null;
  ncfElectronico: string | null;
  montoTotal: string | null;
  totalITBIS: string | null;
  fechaEmision: string | null;
  fechaFirma: string | null;
  rncComprador: string | null;
  codigoSeguridad: string | null;
  idExtranjero: string | null;
}

/** One submission of an e-NCF (`consultatrackids`). */
export interface TrackIdEntry {
  trackId: string;
  estado: AuthorityState;
  fechaRecepcion: Date | null;
}

/** `POST aprobacioncomercial/api/aprobacioncomercial`. */
export interface ApprovalReceipt {
  codigo: string | null;
  estado: string;
  mensajes: string[];
}

/** `POST anulacionrangos/api/operaciones/anularrango`. */
export interface VoidingReceipt {
  rnc: string | null;
  codigo: string | null;
  nombre: string | null;
  mensajes: string[];
  /** The authority accepted the voiding (read from `codigo`/`nombre`). */
  accepted: boolean;
}

/** Directory entry (`consultadirectorio`); DGII answers one object or an array, always normalised to an array. */
export interface DirectoryEntry {
  nombre: string;
  rnc: string;
  urlRecepcion: string | null;
  urlAceptacion: string | null;
  urlOpcional: string | null;
}

/** `statusecf` service availability. */
export interface ServiceAvailability {
  servicio: string;
  estatus: string;
  ambiente: string;
}

/**
 * What the server and the CLI need from the authority. Every method authenticates as `who`
 * (seed → signed seed → token, cached per RNC) except `serviceStatus`.
 * Failures: `TransportError` (retryable or not, `outcomeUnknown`) or `AuthorityError` (definitive).
 */
export interface AuthorityTransport {
  authenticate(who: AuthorityIdentity): Promise<AuthToken>;
  sendEcf(who: AuthorityIdentity, file: XmlFile): Promise<ReceptionReceipt>;
  /** RFCE to the `fc` host; the verdict comes back synchronously. */
  sendRfce(who: AuthorityIdentity, file: XmlFile): Promise<TrackResult>;
  /** `consultarfce`: the verdict of an RFCE already sent (used to resolve an unknown outcome). */
  rfceStatus(who: AuthorityIdentity, query: { rncEmisor: string; encf: string; codigoSeguridad: string }): Promise<TrackResult>;
  result(who: AuthorityIdentity, trackId: string): Promise<TrackResult>;
  status(who: AuthorityIdentity, query: StatusQuery): Promise<FiscalStatus>;
  trackIds(who: AuthorityIdentity, query: { rncEmisor: string; encf: string }): Promise<TrackIdEntry[]>;
  sendApproval(who: AuthorityIdentity, file: XmlFile): Promise<ApprovalReceipt>;
  voidRanges(who: AuthorityIdentity, file: XmlFile): Promise<VoidingReceipt>;
  directory(who: AuthorityIdentity, rnc?: string): Promise<DirectoryEntry[]>;
  serviceStatus(): Promise<ServiceAvailability[]>;
}

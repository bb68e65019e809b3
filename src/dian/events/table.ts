/**
 * The RADIAN events 030–034 (ApplicationResponse) as data: one row per event says its name, the
 * `cbc:Description` DIAN's samples write, who sends it, who receives it and what the request must carry
 * (dian-protocol.md §9, table 13.3.1 and 13.3.12 of the annex). The builder, the validation and the parser read
 * these rows; no event code is branched on.
 *
 * Pure: no I/O.
 */

/** The event codes (`cac:DocumentResponse/cac:Response/cbc:ResponseCode`). */
export type DianEventCode = '030' | '031' | '032' | '033' | '034';

/** A side of the invoice the event is about: its buyer, its issuer, or DIAN itself. */
export type DianEventRole = 'buyer' | 'issuer' | 'dian';

/** One event. */
export interface DianEventRow {
  code: DianEventCode;
  /** Spanish name of the event (table 13.3.1). */
  name: string;
  /** `cac:Response/cbc:Description`, as DIAN's toolbox samples write it. */
  description: string;
  /** Who registers the event: the company in the context (SenderParty). */
  sender: Exclude<DianEventRole, 'dian'>;
  /** Who the event is addressed to (ReceiverParty): from the request's `receiver_party`, or DIAN itself. */
  receiver: DianEventRole;
  /** A `notes` entry is required (034: the sworn statement, see {@link TACIT_ACCEPTANCE_NOTE}). */
  noteRequired: boolean;
  /** `rejection_concept_code` is required, one of {@link DIAN_CLAIM_CONCEPTS} (031); refused on the other events. */
  conceptRequired: boolean;
}

/** The five events, by code. */
export const DIAN_EVENTS: Readonly<Record<DianEventCode, DianEventRow>> = {
  '030': {
    code: '030',
    name: 'Acuse de recibo de la Factura Electrónica de Venta',
    description: 'Acuse de recibo de Factura Electrónica de Venta',
    sender: 'buyer',
    receiver: 'issuer',
    noteRequired: false,
    conceptRequired: false,
  },
  '031': {
    code: '031',
    name: 'Reclamo de la Factura Electrónica de Venta',
    description: 'Reclamo de la Factura Electrónica de Venta',
    sender: 'buyer',
    receiver: 'issuer',
    noteRequired: false,
    conceptRequired: true,
  },
  '032': {
    code: '032',
    name: 'Recibo del bien o prestación del servicio',
    description: 'Recibo del bien y/o prestación del servicio',
    sender: 'buyer',
    receiver: 'issuer',
    noteRequired: false,
    conceptRequired: false,
  },
  '033': {
    code: '033',
    name: 'Aceptación expresa',
    description: 'Aceptación expresa',
    sender: 'buyer',
    receiver: 'issuer',
    noteRequired: false,
    conceptRequired: false,
  },
  '034': {
    code: '034',
    name: 'Aceptación tácita',
    description: 'Aceptación Tácita',
    sender: 'issuer',
    receiver: 'dian',
    noteRequired: true,
    conceptRequired: false,
  },
};

/** The event codes in order. */
export const DIAN_EVENT_CODES = Object.keys(DIAN_EVENTS) as DianEventCode[];

/** The claim concepts of event 031 (table 13.3.12): `listID` → `name` of the `cbc:ResponseCode`. */
export const DIAN_CLAIM_CONCEPTS: Readonly<Record<string, string>> = {
  '01': 'Documento con inconsistencias',
  '02': 'Mercancía no entregada',
  '03': 'Mercancía entregada parcialmente',
  '04': 'Servicio no prestado',
};

/** DIAN as a party: the receiver of event 034 and the authorization provider of every document (§1.4). */
export const DIAN_PARTY = {
  nit: '800197268',
  dv: '4',
  identificationTypeCode: '31',
  organizationTypeCode: '1',
  name: 'Unidad Administrativa Especial Dirección de Impuestos y Aduanas Nacionales',
} as const;

/**
 * A default text for the sworn statement event 034 requires (dian-service.md "Events"; Decree 1074 of 2015,
 * art. 2.2.2.53.4): the issuer declares that three business days passed after the goods or services were received
 * without the buyer accepting, rejecting or claiming against the invoice. Written for this kit; the issuer may
 * send its own wording (naming the buyer, or acting through a representative) in `notes`.
 */
export const TACIT_ACCEPTANCE_NOTE =
  'Declaro bajo la gravedad de juramento que han pasado tres (3) días hábiles desde la recepción de la mercancía o del servicio a que se refiere la factura de este evento, sin que el adquirente la aceptara expresamente, la rechazara o presentara reclamo contra su contenido.';

/** `cbc:CustomizationID` of an event (§1.1). */
export const EVENT_CUSTOMIZATION_ID = '1';
/** `cbc:ProfileID` of an event (§1.1; DIAN's 031 and 033 samples omit "la"). */
export const EVENT_PROFILE_ID = 'DIAN 2.1: ApplicationResponse de la Factura Electrónica de Venta';
/** `cac:DocumentReference/cbc:DocumentTypeCode` of the invoice an event is about. */
export const EVENT_DOCUMENT_TYPE_CODE = '01';

/** A context with a fixed clock and one request per event, every field the event takes filled in (fictitious data). */
import type { DianContext } from '../../../src/dian/build/context.js';
import { DIAN_EVENT_CODES, TACIT_ACCEPTANCE_NOTE, type DianEventCode, type DianEventRequest } from '../../../src/dian/index.js';
import { CONTEXT } from '../helpers/build-fixtures.js';

/** 2024-05-10 10:00:00 in Bogotá. */
export const NOW = new Date('2024-05-10T15:00:00Z');
export const EVENT_CONTEXT: DianContext = { ...CONTEXT, now: () => NOW };

/** The invoice the events are about (a CUFE-shaped value, not a real one). */
export const INVOICE_REF = { number: 'SETP990000001', uuid: 'b1e6'.repeat(24) };

const SELLER = { identification_type_code: 31, identification_number: '900508908', name: 'Ferretería El Tornillo S.A.S.' };
const BUYER = { identification_type_code: 31, identification_number: '900108281', name: 'Constructora Los Andes S.A.S.' };
const PERSON = {
  identification_type_code: 13,
  identification_number: '1020304050',
  first_name: 'Ana María',
  family_name: 'Ruiz Gómez',
  job_title: 'Jefe de compras',
  organization_department: 'Compras',
};

/** The request of an event: the buyer answers the seller's invoice (030–033); the seller declares tacit acceptance (034). */
export function eventRequest(code: DianEventCode): DianEventRequest {
  const buyerSends = code !== '034';
  const sender = buyerSends ? BUYER : SELLER;
  return {
    event_code: code,
    number: 7,
    identification_number: Number(sender.identification_number),
    sender_party: sender,
    ...(buyerSends ? { receiver_party: SELLER } : {}),
    document_reference: INVOICE_REF,
    person: PERSON,
    ...(code === '031' ? { rejection_concept_code: '03' } : {}),
    notes: [{ text: code === '034' ? TACIT_ACCEPTANCE_NOTE : 'Recibido en la bodega principal.' }],
  };
}

export const EVENT_REQUESTS: [DianEventCode, DianEventRequest][] = DIAN_EVENT_CODES.map((c) => [c, eventRequest(c)]);

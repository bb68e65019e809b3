/**
 * The kind of a DIAN UBL document (dian-protocol.md §1.1), read from its root and type code, and the prefix
 * DIAN's rule codes carry for it: a rule's stem (`AU04`) becomes `FAU04` on invoices, `CAU04` on credit notes,
 * `DAU04` on debit notes and `DSAU04` on support documents (the protocol names FAU04/DSAU04, FAQ09/CAQ09/DAQ09,
 * FAD09c/CAD09c/DAD09c and FAU14/CAU14 as such twins, §11).
 *
 * Pure: no I/O.
 */
import { textAt, type UblNode } from '../ubl/tree.js';

/**
 * `invoice`: Invoice 01, 02, 03, 04. `support`: Invoice 05 (documento soporte). `pos`: Invoice 20.
 * `credit`: CreditNote 91. `support-note`: CreditNote 95. `pos-credit`: CreditNote 94. `debit`: DebitNote.
 * `event`: ApplicationResponse. `other`: anything else (unknown type code, AttachedDocument, payroll).
 */
export type DianDocumentKind = 'invoice' | 'support' | 'pos' | 'credit' | 'support-note' | 'pos-credit' | 'debit' | 'event' | 'other';

/** The document kind of a UBL root. */
export function documentKind(root: UblNode): DianDocumentKind {
  switch (root.name) {
    case 'Invoice': {
      const code = textAt(root, 'cbc:InvoiceTypeCode');
      if (code === '01' || code === '02' || code === '03' || code === '04') return 'invoice';
      if (code === '05') return 'support';
      if (code === '20') return 'pos';
      return 'other';
    }
    case 'CreditNote': {
      const code = textAt(root, 'cbc:CreditNoteTypeCode');
      if (code === '91') return 'credit';
      if (code === '95') return 'support-note';
      if (code === '94') return 'pos-credit';
      return 'other';
    }
    case 'DebitNote':
      return 'debit';
    case 'ApplicationResponse':
      return 'event';
    default:
      return 'other';
  }
}

/**
 * The rule-code prefix of the kinds whose prefix the protocol shows (F invoices, C credit notes, D debit notes,
 * DS support documents). The others (POS, their notes, the support-document note 95) have no public rule codes.
 */
export const RULE_PREFIX: Readonly<Partial<Record<DianDocumentKind, string>>> = {
  invoice: 'F',
  credit: 'C',
  debit: 'D',
  support: 'DS',
};

/**
 * One signed document as DIAN's SendBillSync / SendNominaSync expect it (dian-protocol.md §6.2–6.3): a zip holding
 * exactly one XML, both named by `dianFileNames`. Pure; errors as values.
 */
import { dianFileNames, type DianFileNameInput, type DianFileNames } from './names.js';
import { type DianDeflate, dianZip } from './zip.js';

export interface DianDocumentZipInput extends DianFileNameInput {
  /** The signed XML, written byte for byte (text as UTF-8). */
  xml: string | Uint8Array;
  /** The entry's timestamp date, `yyyy-MM-dd` (e.g. the issue date); default 1980-01-01. */
  date?: string;
  /** The deflater (see `DianZipOptions.deflate`); default fflate, pure JS. */
  deflate?: DianDeflate;
}

export type DianDocumentZipResult = { ok: true; value: { names: DianFileNames; zip: Uint8Array } } | { ok: false; field?: string; message: string };

/** The zip of one document, and its names (the zip's name is SendBillSync's `fileName`). */
export function dianDocumentZip(input: DianDocumentZipInput): DianDocumentZipResult {
  const names = dianFileNames(input);
  if (!names.ok) return names;
  const zip = dianZip([{ name: names.value.xml, data: input.xml }], {
    ...(input.date === undefined ? {} : { date: input.date }),
    ...(input.deflate === undefined ? {} : { deflate: input.deflate }),
  });
  if (!zip.ok) return zip;
  return { ok: true, value: { names: names.value, zip: zip.value } };
}

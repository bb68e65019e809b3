/**
 * Issue 13 item 3, hostile sizes against every parser entry of untrusted XML: a value of `&amp;` references,
 * deep nesting and a flood of empty elements (reduced in `npm test`, the attack's sizes under
 * ECF_RELIABILITY=full). Each is refused by the linear pre-scan before xmldom parses it; the SDK's
 * `prescanXml`, the inbound `parseUntrustedXml` and the passthrough all answer with a Spanish reason.
 */
import { DOMParser } from '@xmldom/xmldom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { prescanXml } from '../../../src/ecf/index.js';
import { parseUntrustedXml, XmlInputError } from '../../../src/ecf/server/inbound/xml.js';
import { scale } from './mode.js';

const REFS = scale(200_000, 2_300_000);
const DEPTH = scale(20_000, 1_000_000);
const EMPTY = scale(300_000, 3_000_000);

const ATTACKS: Array<[string, string, string]> = [
  [
    '&amp; flood in one value',
    `<ECF><Encabezado><Emisor><RazonSocialEmisor>${'&amp;'.repeat(REFS)}</RazonSocialEmisor></Emisor></Encabezado></ECF>`,
    'value_too_long',
  ],
  ['character references in an attribute', `<ECF a="${'&#38;'.repeat(REFS)}"/>`, 'value_too_long'],
  ['CDATA flood', `<ECF><A><![CDATA[${'x'.repeat(REFS)}]]></A></ECF>`, 'value_too_long'],
  ['deep nesting', `<ECF>${'<a>'.repeat(DEPTH)}${'</a>'.repeat(DEPTH)}</ECF>`, 'too_deep'],
  ['empty elements', `<ECF><DetallesItems>${'<Item/>'.repeat(EMPTY)}</DetallesItems></ECF>`, 'too_many_elements'],
  ['empty elements in a small document type', `<ACECF>${'<a/>'.repeat(EMPTY)}</ACECF>`, 'too_many_elements'],
  ['entity bomb', `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "${'x'.repeat(100)}">]><ECF>&a;</ECF>`, 'doctype'],
];

describe('hostile sizes: refused by the pre-scan, before any parser', () => {
  afterEach(() => vi.restoreAllMocks());
  it.each(ATTACKS)('%s', (_name, xml, code) => {
    expect(prescanXml(xml)).toMatchObject({ code, message: expect.stringMatching(/XML/) });
    const parse = vi.spyOn(DOMParser.prototype, 'parseFromString');
    expect(() => parseUntrustedXml(xml)).toThrow(XmlInputError);
    expect(parse).not.toHaveBeenCalled();
  });
});

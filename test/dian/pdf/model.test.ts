/** dianPdfModel is data: the same model from the request a document was built from as from the XML read back. */
import { describe, expect, it } from 'vitest';
import { DIAN_KINDS, type DianKindId } from '../../../src/dian/index.js';
import { dianPdfModel, readDianPdfInput } from '../../../src/dian/pdf/index.js';
import { buildExample, exampleContext, exampleRequest } from '../helpers/examples.js';

const KINDS = Object.keys(DIAN_KINDS) as DianKindId[];

describe('dianPdfModel', () => {
  it.each(KINDS)('%s: from the request and context it was built from, as from its XML', (kind) => {
    const built = buildExample(kind, 'max');
    if (!built.ok) throw new Error('did not build');
    const read = readDianPdfInput(built.xml);
    if (!read.ok) throw new Error(read.message);
    const { now: _now, ...context } = exampleContext();
    const direct = dianPdfModel({ kind, request: exampleRequest(kind, 'max'), context, codes: { uuid: built.codes.hash, qrText: built.codes.qrUrl } });
    const fromXml = dianPdfModel(read.input);
    expect(fromXml.title).toBe(direct.title);
    expect(fromXml.number).toBe(direct.number);
    expect(fromXml.totals).toEqual(direct.totals);
    expect(fromXml.totalInWords).toBe(direct.totalInWords);
    expect(fromXml.lines.rows.map((r) => r.cells.map((c) => c.map((x) => x.text).join('|')))).toEqual(
      direct.lines.rows.map((r) => r.cells.map((c) => c.map((x) => x.text).join('|'))),
    );
    expect(fromXml.code).toEqual(direct.code);
    expect(fromXml.qrText).toBe(built.codes.qrUrl);
  });

  it('a consumer without name or totals still gets a model (Consumidor final, zero in words)', () => {
    const m = dianPdfModel({ kind: 'pos', request: { number: 7, document_type_code: '20' }, context: {}, codes: { qrText: 'x' } });
    expect(m.counterparty.pairs).toEqual([{ label: 'Nombre o razón social', value: 'Consumidor final' }]);
    expect(m.totalInWords).toBe('Cero pesos M/CTE');
    expect(m.code.label).toBe('CUDE');
    expect(m.title).toBe('Documento equivalente electrónico P.O.S.');
  });
});

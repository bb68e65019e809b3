/** The two ends of a validation the products share (src/shared/xsd/violations.ts), over a made-up schema. */
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../../src/shared/xsd/libxml.js';
import { prepare, toViolations } from '../../../src/shared/xsd/violations.js';

const schema = compileSchema(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="Doc"><xs:complexType><xs:sequence>
    <xs:element name="Line" maxOccurs="unbounded"><xs:complexType><xs:sequence><xs:element name="Qty" type="xs:integer"/></xs:sequence></xs:complexType></xs:element>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>`);
const run = (xml: string) => {
  const text = prepare(xml);
  const r = schema.validate(Buffer.from(text, 'utf8'));
  return r.code === 0 ? [] : toViolations(text, r.errors, r.code);
};

describe('prepare', () => {
  it('drops a BOM and blanks a non-UTF-8 encoding without moving positions', () => {
    const xml = `<?xml version="1.0" encoding="ISO-8859-1"?><Doc/>`;
    const text = prepare(`\uFEFF${xml}`);
    expect(text).toHaveLength(xml.length);
    expect(text).not.toContain('ISO-8859-1');
    expect(prepare('<?xml version="1.0" encoding="utf-8"?><Doc/>')).toBe('<?xml version="1.0" encoding="utf-8"?><Doc/>');
  });
});

describe('toViolations', () => {
  it('names the offending element by path, with an index among same-name siblings', () => {
    const v = run('<Doc>\n<Line><Qty>1</Qty></Line>\n<Line><Qty>x</Qty></Line>\n</Doc>');
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ xpath: '/Doc/Line[2]/Qty', line: 3 });
    expect(v[0]!.message).toMatch(/^Element 'Qty': 'x' is not a valid value/);
  });

  it('stops after a fatal well-formedness error', () => {
    const v = run('<Doc><Line><Qty>1</Qty></Lin></Doc>');
    expect(v).toHaveLength(1);
    expect(v[0]!.xpath).toBe('/Doc/Line');
  });
});

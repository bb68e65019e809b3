/** The UBL writer's CDATA text and its keep-order option: what is written reads back exactly as given. */
import { describe, expect, it } from 'vitest';
import { readUbl } from '../../../src/dian/ubl/read.js';
import { at, el, type UblNode } from '../../../src/dian/ubl/tree.js';
import { cdataText, writeUbl } from '../../../src/dian/ubl/write.js';

function roundTrip(text: string): string | undefined {
  const desc: UblNode = { ...el('cbc:Description', text), cdata: true };
  const root: UblNode = { name: 'AttachedDocument', attrs: [], children: [desc] };
  const r = readUbl(writeUbl(root));
  if (!r.ok) throw new Error(r.message);
  return at(r.root, 'cbc:Description')?.text;
}

describe('writeUbl CDATA', () => {
  it('writes a cdata node as one CDATA section, unescaped', () => {
    const root: UblNode = { name: 'AttachedDocument', attrs: [], children: [{ ...el('cbc:Description', '<a x="1">&amp;</a>'), cdata: true }] };
    expect(writeUbl(root)).toContain('<cbc:Description><![CDATA[<a x="1">&amp;</a>]]></cbc:Description>');
  });

  it('splits ]]> and carries carriage returns so the text reads back byte for byte', () => {
    expect(cdataText('a]]>b')).toBe('<![CDATA[a]]]]><![CDATA[>b]]>');
    expect(cdataText('a\r\nb')).toBe('<![CDATA[a]]>&#13;<![CDATA[\nb]]>');
    for (const s of ['a]]>b', ']]>]]>', 'x]]', '<?xml version="1.0"?>\r\n<r>\r</r>]]\r', 'ñ € 𝄞 &lt; <![CDATA[in]]>']) {
      expect(roundTrip(s)).toBe(s);
    }
  });

  it('escapes text without the flag', () => {
    const root: UblNode = { name: 'AttachedDocument', attrs: [], children: [el('cbc:Note', 'a<b&c')] };
    expect(writeUbl(root)).toContain('<cbc:Note>a&lt;b&amp;c</cbc:Note>');
  });
});

describe('writeUbl keepOrder', () => {
  it('sorts known parents by the order table unless keepOrder is set', () => {
    const ref: UblNode = { ...el('cac:DocumentReference'), children: [el('cbc:ID', '1'), el('cbc:UUID', 'u'), el('cbc:IssueDate', '2024-01-01')] };
    const root: UblNode = { name: 'Invoice', attrs: [], children: [ref] };
    // the generated table knows only ID and IssueDate under DocumentReference: UUID goes last when sorting
    expect(writeUbl(root)).toContain('<cbc:ID>1</cbc:ID><cbc:IssueDate>2024-01-01</cbc:IssueDate><cbc:UUID>u</cbc:UUID>');
    expect(writeUbl(root, { keepOrder: true })).toContain('<cbc:ID>1</cbc:ID><cbc:UUID>u</cbc:UUID><cbc:IssueDate>2024-01-01</cbc:IssueDate>');
  });
});

/**
 * Exclusive C14N 1.0 (src/shared/xmldsig/exc-c14n.ts): only visibly used namespaces are rendered, the
 * `InclusiveNamespaces PrefixList` prefixes are rendered whenever in scope, and `xml:*` attributes are not
 * inherited. Whole documents are compared with libxml2's own exclusive canonicaliser (`xmllint --exc-c14n`).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exclusiveCanonicalString, prefixListTokens } from '../../../src/shared/xmldsig/exc-c14n.js';
import { parseXmlStrictly } from '../../../src/shared/xml/strict-parser.js';

function element(xml: string, localName: string) {
  const doc = parseXmlStrictly(xml).doc!;
  return doc.getElementsByTagNameNS('*', localName).item(0)!;
}

function xmllintExclusive(xml: string): string {
  const r = spawnSync('xmllint', ['--exc-c14n', '-'], { input: xml, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error || r.status !== 0) {
    throw new Error(`This test needs \`xmllint\` (Debian package "libxml2-utils": apt-get install -y libxml2-utils): ${String(r.error ?? r.stderr)}`);
  }
  return r.stdout;
}

const envelope =
  '<soap:Envelope xmlns:soap="urn:soap" xmlns:wcf="urn:wcf"><soap:Header xmlns:wsa="urn:wsa">' +
  '<wsa:To xmlns:wsu="urn:wsu" wsu:Id="id-1">https://x</wsa:To></soap:Header><soap:Body/></soap:Envelope>';

describe('exclusiveCanonicalString', () => {
  it('renders only the namespaces the element visibly uses', () => {
    expect(exclusiveCanonicalString(element(envelope, 'To'))).toBe('<wsa:To xmlns:wsa="urn:wsa" xmlns:wsu="urn:wsu" wsu:Id="id-1">https://x</wsa:To>');
  });

  it('renders the PrefixList prefixes in scope, sorted with the used ones', () => {
    expect(exclusiveCanonicalString(element(envelope, 'To'), ['soap', 'wcf', 'absent'])).toBe(
      '<wsa:To xmlns:soap="urn:soap" xmlns:wcf="urn:wcf" xmlns:wsa="urn:wsa" xmlns:wsu="urn:wsu" wsu:Id="id-1">https://x</wsa:To>',
    );
  });

  it('puts the default namespace where it is used, or on the apex with #default', () => {
    const xml = '<r xmlns="urn:d" xmlns:u="urn:unused"><p:a xmlns:p="urn:p"><b/><p:c/></p:a></r>';
    expect(exclusiveCanonicalString(element(xml, 'a'))).toBe('<p:a xmlns:p="urn:p"><b xmlns="urn:d"></b><p:c></p:c></p:a>');
    expect(exclusiveCanonicalString(element(xml, 'a'), ['#default'])).toBe('<p:a xmlns="urn:d" xmlns:p="urn:p"><b></b><p:c></p:c></p:a>');
  });

  it('writes xmlns="" only to undo a default namespace an output ancestor rendered', () => {
    const xml = '<r xmlns="urn:d"><a><b xmlns=""><c/></b></a></r>';
    expect(exclusiveCanonicalString(element(xml, 'a'))).toBe('<a xmlns="urn:d"><b xmlns=""><c></c></b></a>');
    expect(exclusiveCanonicalString(element(xml, 'b'))).toBe('<b><c></c></b>');
  });

  it('does not inherit xml:* attributes and does not repeat a declaration an output ancestor rendered', () => {
    const xml = '<r xml:lang="es" xmlns:p="urn:p"><p:a><p:b xmlns:p="urn:p" p:k="1"/><p:b xmlns:p="urn:p2"/></p:a></r>';
    expect(exclusiveCanonicalString(element(xml, 'a'))).toBe('<p:a xmlns:p="urn:p"><p:b p:k="1"></p:b><p:b xmlns:p="urn:p2"></p:b></p:a>');
  });

  it('leaves out the excluded subtree (an enveloped signature)', () => {
    const xml = '<r xmlns:s="urn:s"><a>1</a><s:Signature><s:x/></s:Signature><b>2</b></r>';
    const doc = parseXmlStrictly(xml).doc!;
    const signature = doc.getElementsByTagNameNS('urn:s', 'Signature').item(0)!;
    expect(exclusiveCanonicalString(doc.documentElement!, [], signature)).toBe('<r><a>1</a><b>2</b></r>');
  });

  it('splits a PrefixList on any XML whitespace', () => {
    expect(prefixListTokens(' wsa\tsoap\n wcf ')).toEqual(['wsa', 'soap', 'wcf']);
    expect(prefixListTokens(null)).toEqual([]);
  });

  it('matches xmllint --exc-c14n on every DIAN toolbox sample (whole documents)', () => {
    const dir = join(__dirname, '../../dian/fixtures/toolbox');
    const files = readdirSync(dir).filter((f) => f.endsWith('.xml'));
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      // xmllint canonicalises with comments: the byte-order mark and comments are dropped before both run
      const xml = readFileSync(join(dir, file), 'utf8')
        .replace(/^\uFEFF/, '')
        .replace(/<!--[\s\S]*?-->/g, '');
      const ours = exclusiveCanonicalString(parseXmlStrictly(xml).doc!.documentElement!);
      expect(ours, file).toBe(xmllintExclusive(xml));
    }
  });
});

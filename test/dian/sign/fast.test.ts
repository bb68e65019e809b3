/**
 * DIAN's signing fast path (src/dian/sign/fast.ts): for every example (minimal and maximal, nine kinds), the
 * AttachedDocument (CDATA), and CRLF, CDATA or self-closed variants, it writes exactly the bytes the DOM path writes, in SHA-256
 * and SHA-384, with and without a chain; inputs outside its subset are left to the DOM path.
 */
import { describe, expect, it } from 'vitest';
import { buildAttachedDocument } from '../../../src/dian/index.js';
import { scanDian, signScanned } from '../../../src/dian/sign/fast.js';
import {
  createSelfSignedIdentity,
  dianSignatureIds,
  dianSignatureProfile,
  p12Signer,
  readP12,
  verifyDianXml,
  type SignDianOptions,
} from '../../../src/dian/sign/index.js';
import { signDian } from '../../../src/dian/sign/sign.js';
import { createTestChain } from '../helpers/chain.js';
import { buildExample, EXAMPLE_KINDS, EXAMPLE_SIZES } from '../helpers/examples.js';
import { unsignedDianResponse } from '../helpers/response.js';

const identity = createSelfSignedIdentity({ commonName: 'Proveedor "Ñandú" & <Cía>' });
const chain = createTestChain();
const chained = p12Signer(readP12(chain.p12, chain.password));
const options: SignDianOptions = { clock: () => new Date('2025-03-14T15:24:37Z'), newId: () => 'fast' };

async function both(xml: string, o: SignDianOptions = options, signer = identity.signer): Promise<{ fast: string; dom: string }> {
  const [fast, dom] = await Promise.all([signDian(xml, signer, o, true), signDian(xml, signer, o, false)]);
  if (!fast.ok || !dom.ok) throw new Error(`${JSON.stringify(fast)} ${JSON.stringify(dom)}`);
  return { fast: fast.xml, dom: dom.xml };
}

function example(kind: (typeof EXAMPLE_KINDS)[number], size: (typeof EXAMPLE_SIZES)[number]): string {
  const r = buildExample(kind, size);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.xml;
}

describe('the DIAN signing fast path', () => {
  it('takes every example and writes the DOM path bytes (SHA-256; SHA-384 with a chain)', async () => {
    for (const kind of EXAMPLE_KINDS) {
      for (const size of EXAMPLE_SIZES) {
        const xml = example(kind, size);
        expect(scanDian(xml), `${kind}.${size}`).not.toBeNull();
        const a = await both(xml);
        expect(a.fast, `${kind}.${size}`).toBe(a.dom);
        const b = await both(xml, { ...options, digest: 'sha384', role: 'third party' }, chained);
        expect(b.fast, `${kind}.${size} sha384`).toBe(b.dom);
        expect(verifyDianXml(b.fast), kind).toMatchObject({ valid: true });
      }
    }
  });

  it('handles CRLF, indentation, self-closed places, single quotes, escaped text, character references and CDATA like the DOM path', async () => {
    const xml = example('invoice', 'max');
    const variants = [
      xml.replace(/></g, '>\r\n  <'),
      xml.replace(/<ext:ExtensionContent><\/ext:ExtensionContent>(?![\s\S]*ExtensionContent)/, '<ext:ExtensionContent />'),
      xml.replace(/currencyID="COP"/g, "currencyID='COP'"),
      xml.replace('<cbc:Description>', '<cbc:Description>a &gt; b &amp; c &quot;d&apos; e>f '),
      xml.replace('<cbc:Description>', '<cbc:Description>&#233;&#xE9;&#13;&#xd;&#10;&#9;&#38;&#60;&#x3E;&#x1D11E;'),
      xml.replace('<cbc:Description>', '<cbc:Description>antes <![CDATA[<a href="x">&amp; & ]] > \r\n\rfin</a>]]> después<![CDATA[]]>'),
    ];
    for (const v of variants) {
      expect(v).not.toBe(xml);
      expect(scanDian(v)).not.toBeNull();
      const r = await both(v);
      expect(r.fast).toBe(r.dom);
      expect(verifyDianXml(r.fast)).toMatchObject({ valid: true });
    }
  });

  it('leaves to the DOM path what is outside its subset, and the result still verifies', async () => {
    const xml = example('invoice', 'min');
    const outside = [
      xml.replace('<cbc:UBLVersionID>', '<!-- c --><cbc:UBLVersionID>'),
      xml.replace('<cbc:UBLVersionID>', '<cbc:UBLVersionID xmlns:x="urn:x">'),
      xml.replace('<cbc:ProfileID>', '<cbc:ProfileID Id="p">'),
    ];
    for (const v of outside) {
      expect(v).not.toBe(xml);
      expect(scanDian(v)).toBeNull();
      const r = await signDian(v, identity.signer, options, true);
      expect(r.ok && verifyDianXml(r.xml).valid).toBe(true);
    }
    expect(scanDian('<a><b></a>')).toBeNull();
    expect(scanDian(xml.replace('<cbc:Description>', '<cbc:Description><![CDATA[x\u0001]]>'))).toBeNull();
    expect(scanDian(xml.replace('<cbc:Description>', '<cbc:Description>&#1;'))).toBeNull();
    expect(scanDian(xml.replace('<cbc:Description>', '<cbc:Description>&#xFFFE;'))).toBeNull();
    expect(scanDian(xml.replace('<cbc:Description>', '<cbc:Description><![CDATA[never closed'))).toBeNull();
    expect(scanDian('<p:a/>')).toBeNull();
  });

  it('takes the AttachedDocument (whole documents in CDATA) and writes the DOM path bytes', async () => {
    const signedXml = (await both(example('invoice', 'min'))).fast;
    const built = buildAttachedDocument({
      signedXml,
      applicationResponseXml: unsignedDianResponse(),
      environment: '2',
      id: 'AD-1',
      issueDate: '2025-03-15',
      issueTime: '09:00:00-05:00',
    });
    if (!built.ok) throw new Error(built.message);
    expect(scanDian(built.xml)).not.toBeNull();
    const r = await both(built.xml);
    expect(r.fast).toBe(r.dom);
    expect(verifyDianXml(r.fast)).toMatchObject({ valid: true });
  });

  it('leaves a document binding ds to another namespace to the DOM path, and a signature part outside the subset unsigned', async () => {
    const xml = example('invoice', 'min');
    const rebound = xml.replace('xmlns:ds="http://www.w3.org/2000/09/xmldsig#"', 'xmlns:ds="urn:other"');
    expect(rebound).not.toBe(xml);
    expect(scanDian(rebound)).toBeNull();
    const r = await signDian(rebound, identity.signer, options, true);
    expect(r.ok && verifyDianXml(r.xml).valid).toBe(true);

    // A signature part outside the subset (here a policy identifier with a control character): null before signing.
    const profile = dianSignatureProfile(dianSignatureIds('odd'), 'sha256', {
      signingTime: '2025-03-14T10:24:37-05:00',
      role: 'supplier',
      policyUrl: 'https://example.com/\u0001',
    });
    let called = 0;
    const counting = {
      certificate: identity.signer.certificate,
      sign: (d: Uint8Array) => {
        called++;
        return identity.signer.sign(d);
      },
    };
    expect(await signScanned(scanDian(xml)!, profile, counting)).toBeNull();
    expect(called).toBe(0);
  });
});

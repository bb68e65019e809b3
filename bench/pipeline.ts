/**
 * The full SDK pipeline for a 10-line type 31: validate + build + sign (FechaHoraFirma, C14N, digest, RSA),
 * against the floor measured in the same run: one node:crypto RSA-2048 SHA-256 signature of a 32-byte digest.
 * `npx tsx bench/pipeline.ts`
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import forge from 'node-forge';
import { buildEcfXml } from '../src/index.js';
import { p12Signer, readP12, signEcf } from '../src/sign/index.js';
import { context, doc31 } from './docs.js';
import { measure, measureAsync, printTable, round, writeResults } from './lib.js';

// A throwaway self-signed RSA-2048 identity made in memory (never written anywhere).
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const cert = forge.pki.createCertificate();
cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
cert.serialNumber = '01';
cert.validity.notBefore = new Date('2025-01-01T00:00:00Z');
cert.validity.notAfter = new Date('2035-01-01T00:00:00Z');
const attrs = [{ name: 'commonName', value: 'bench' }, { name: 'serialNumber', value: 'IDCDO-00199999996' }];
cert.setSubject(attrs);
cert.setIssuer(attrs);
const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
cert.sign(forgeKey, forge.md.sha256.create());
const p12 = forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(forgeKey, [cert], 'bench', { algorithm: '3des' })).getBytes();
const signer = p12Signer(readP12(Uint8Array.from(p12, (c) => c.charCodeAt(0)), 'bench'));
const clock = () => new Date('2026-04-01T14:00:00Z');

const d = doc31(10);
const ctx = context('31');
const digest = createHash('sha256').update('ecf-kit').digest();

const floor = measure('floor: node:crypto RSA-2048 SHA-256 sign of a 32-byte digest', () => sign('sha256', digest, privateKey));
const pipeline = await measureAsync('validate + build + sign, 10-line 31', () => signEcf(buildEcfXml('31', d, ctx), signer, clock));
const ratio = round(pipeline.ms_per_op / floor.ms_per_op, 2);
printTable('Full pipeline vs RSA floor (one core)', [floor, pipeline]);
console.log(`ratio to floor: ${ratio}× (target ≤ 3×: ${ratio <= 3 ? 'met' : 'NOT met'})`);
writeResults('pipeline.json', {
  pipeline_31_10_lines: {
    docs_per_second: pipeline.ops_per_second,
    ms_per_doc: pipeline.ms_per_op,
    floor_docs_per_second: floor.ops_per_second,
    floor_ms: floor.ms_per_op,
    ratio_to_floor: ratio,
    target_ratio_max: 3,
  },
});

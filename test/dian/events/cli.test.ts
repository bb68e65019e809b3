/**
 * `ecf dian event`, in process through the dispatcher, with a .p12 made in memory (never committed): unsigned and
 * signed events that read back and verify, the 422 body of an invalid request, and the usage exits.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { computeDocumentCodes, parseDianEvent, readUbl } from '../../../src/dian/index.js';
import { createSelfSignedIdentity, verifyDianXml } from '../../../src/dian/sign/index.js';
import { fakeIo } from '../../ecf/helpers/cli.js';
import { EVENT_CONTEXT, eventRequest } from './fixtures.js';

const identity = createSelfSignedIdentity({ commonName: 'Adquiriente de prueba' });
const { now: _, ...contextFile } = EVENT_CONTEXT;
const { event_code: __, ...request031 } = eventRequest('031');
const FILES = {
  'context.json': JSON.stringify(contextFile),
  '031.json': JSON.stringify(request031),
  '034.json': JSON.stringify(eventRequest('034')),
  'cert.p12': identity.p12,
};
const ENV = { EVENT_PW: identity.password };

const work = mkdtempSync(join(tmpdir(), 'ecf-dian-event-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function cli(argv: string[], extra: Record<string, string | Uint8Array> = {}) {
  const f = fakeIo({ ...FILES, ...extra }, ENV, { disk: true });
  const code = await runCli(['dian', 'event', ...argv], f.io);
  return { code, out: f.out(), err: f.err() };
}

describe('ecf dian event', () => {
  it('writes the unsigned event of a request (the code from the command line), its CUDE on stderr', async () => {
    const r = await cli(['031', '--in', '031.json', '--context', 'context.json', '--prefix', 'REC']);
    expect(r.code, r.err).toBe(0);
    const p = parseDianEvent(r.out);
    if (!p.ok) throw new Error(p.message);
    expect(p).toMatchObject({ code: '031', id: 'REC7', request: { ...request031, event_code: '031' } });
    expect(r.err).toBe(`cude: ${p.cude}\n`);
    expect(r.out).toContain('<ext:ExtensionContent></ext:ExtensionContent>');
  });

  it('signs with --p12 at the instant of the event, and writes --out', async () => {
    const out = join(work, '034.xml');
    const r = await cli([
      '034',
      '--in',
      '034.json',
      '--context',
      'context.json',
      '--p12',
      'cert.p12',
      '--password-env',
      'EVENT_PW',
      '--role',
      'third-party',
      '--out',
      out,
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`event 034 7: ${out}\n`);
    const xml = readFileSync(out, 'utf8');
    expect(verifyDianXml(xml)).toMatchObject({ valid: true });
    expect(xml).toContain('<xades:ClaimedRole>third party</xades:ClaimedRole>');
    const tree = readUbl(xml);
    if (!tree.ok) throw new Error(tree.message);
    const issued = `${/<cbc:IssueDate>([^<]+)</.exec(xml)![1]}T${/<cbc:IssueTime>([^<]+)</.exec(xml)![1]}`;
    expect(/<xades:SigningTime>([^<]+)</.exec(xml)![1]).toBe(issued);
    expect(computeDocumentCodes(tree.root, { pin: EVENT_CONTEXT.software.pin })).toMatchObject({ ok: true, matches: true });
  });

  it('exits 1 with the service 422 body for an invalid request', async () => {
    const { notes: ___, ...bare } = eventRequest('034');
    const r = await cli(['034', '--in', 'bad.json', '--context', 'context.json'], { 'bad.json': JSON.stringify(bare) });
    expect(r.code).toBe(1);
    const body = JSON.parse(r.out);
    expect(body.event.statusCode).toBe(13);
    expect(Object.keys(body.event.detailedErrors)).toEqual(['notes']);
  });

  it('exits 2 on usage problems and unreadable files', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--in', '031.json', '--context', 'context.json'], /give one event code/],
      [['035', '--in', '031.json', '--context', 'context.json'], /unknown event "035"/],
      [['031', '--context', 'context.json'], /missing --in/],
      [['031', '--in', '031.json'], /missing --context/],
      [['031', '--in', '031.json', '--context', 'context.json', '--bogus', 'x'], /unknown option\(s\): --bogus/],
      [['031', '--in', '031.json', '--context', 'context.json', '--role', 'supplier'], /go with --p12/],
      [['031', '--in', '031.json', '--context', 'context.json', '--p12', 'cert.p12'], /missing the \.p12 password/],
      [['031', '--in', '031.json', '--context', 'context.json', '--p12', 'cert.p12', '--password', 'x'], /--password is not accepted/],
      [['031', '--in', '034.json', '--context', 'context.json'], /034\.json is event 034, not 031/],
      [['031', '--in', join(work, 'missing.json'), '--context', 'context.json'], /cannot read the request .*missing\.json/],
      [['031', '--in', '031.json', '--context', 'bad-context.json'], /bad-context\.json: .*environment must be/],
      [['031', '--in', '031.json', '--context', 'context.json', '--p12', 'cert.p12', '--password-env', 'NOPE'], /NOPE \(--password-env\) is not set/],
    ];
    for (const [argv, re] of cases) {
      const r = await cli(argv, { 'bad-context.json': JSON.stringify({ ...contextFile, environment: '3' }) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(re);
      expect(r.out, argv.join(' ')).toBe('');
    }
  });
});

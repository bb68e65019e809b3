/**
 * `ecf dian payroll build|sign`, in process through the dispatcher, with a .p12 made in memory (never committed):
 * unsigned and signed payroll that read back and verify, the 422 body of an invalid request, the usage exits.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { parseDianPayroll } from '../../../src/dian/index.js';
import { createSelfSignedIdentity, verifyDianXml } from '../../../src/dian/sign/index.js';
import { fakeIo } from '../../ecf/helpers/cli.js';
import { EXAMPLES_DIR } from '../helpers/examples.js';
import { example } from './fixtures.js';

const identity = createSelfSignedIdentity({ commonName: 'Empleador de prueba' });
const FILES = {
  'context.json': readFileSync(resolve(EXAMPLES_DIR, 'context.json'), 'utf8'),
  'min.json': JSON.stringify(example('payroll-min')),
  'delete.json': JSON.stringify(example('payroll-adjustment-delete')),
  'cert.p12': identity.p12,
};
const ENV = { PAYROLL_PW: identity.password };

async function cli(argv: string[], extra: Record<string, string | Uint8Array> = {}) {
  const f = fakeIo({ ...FILES, ...extra }, ENV, { disk: true });
  const code = await runCli(['dian', 'payroll', ...argv], f.io);
  return { code, out: f.out(), err: f.err() };
}

describe('ecf dian payroll', () => {
  it('build writes the unsigned 102 that reads back as the request, its CUNE on stderr', async () => {
    const r = await cli(['build', '--in', 'min.json', '--context', 'context.json']);
    expect(r.code, r.err).toBe(0);
    const p = parseDianPayroll(r.out);
    if (!p.ok) throw new Error(p.message);
    expect(p.kind).toBe('payroll');
    expect(p.request).toEqual(example('payroll-min'));
    expect(r.err).toBe(`cune: ${p.codes.cune}\n`);
  });

  it('build takes a request with note_type as a 103, and signs it with --p12', async () => {
    const r = await cli(['build', '--in', 'delete.json', '--context', 'context.json', '--p12', 'cert.p12', '--password-env', 'PAYROLL_PW']);
    expect(r.code, r.err).toBe(0);
    expect(parseDianPayroll(r.out)).toMatchObject({ ok: true, kind: 'payroll-adjustment' });
    expect(verifyDianXml(r.out)).toMatchObject({ valid: true });
  });

  it('sign signs a built payroll file', async () => {
    const built = await cli(['build', '--in', 'min.json', '--context', 'context.json']);
    const r = await cli(['sign', '--p12', 'cert.p12', '--password-env', 'PAYROLL_PW', 'built.xml'], { 'built.xml': built.out });
    expect(r.code, r.err).toBe(0);
    expect(verifyDianXml(r.out)).toMatchObject({ valid: true, certificate: identity.signer.certificate });
  });

  it('an invalid request exits 1 with the 422 body; usage and unreadable files exit 2', async () => {
    const bad = example('payroll-min');
    delete bad.employee;
    const r = await cli(['build', '--in', 'bad.json', '--context', 'context.json'], { 'bad.json': JSON.stringify(bad) });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).document.detailedErrors).toEqual({ employee: ['es obligatorio'] });
    expect((await cli(['build', '--context', 'context.json'])).code).toBe(2);
    expect((await cli(['build', '--in', 'min.json', '--context', 'context.json', '--kind', 'nomina'])).code).toBe(2);
    const missing = await cli(['build', '--in', 'nope.json', '--context', 'context.json']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read the request nope.json');
    const noSoftware = await cli(['build', '--in', 'min.json', '--context', 'ctx.json'], { 'ctx.json': '{"environment":"2"}' });
    expect(noSoftware.code).toBe(2);
    expect(noSoftware.err).toContain('software must be an object');
  });

  it('build and sign are listed in the help', async () => {
    const f = fakeIo();
    expect(await runCli(['--help'], f.io)).toBe(0);
    expect(f.err()).toContain('ecf dian payroll build --in request.json --context context.json [--kind payroll|payroll-adjustment]');
    expect(f.err()).toContain('ecf dian payroll sign --p12 FILE');
  });
});

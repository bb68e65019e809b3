/** `ecf dian build`, through the dispatcher, on the examples of examples/dian/. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { fakeIo } from '../../ecf/xsd/fixtures.js';
import { EXAMPLES_DIR, exampleFile, goldenFile } from '../helpers/examples.js';

const context = `${EXAMPLES_DIR}/context.json`;
const contextJson = () => JSON.parse(readFileSync(context, 'utf8')) as Record<string, any>;
const build = (...args: string[]) => ['dian', 'build', ...args];

describe('ecf dian build', () => {
  it('prints exactly the golden XML of an example, and nothing on stderr', async () => {
    const f = fakeIo();
    expect(await runCli(build('--kind', 'invoice', '--context', context, '--today', '2025-03-14', exampleFile('invoice', 'max')), f.io)).toBe(0);
    expect(f.out()).toBe(readFileSync(goldenFile('invoice', 'max'), 'utf8'));
    expect(f.err()).toBe('');
  });

  it('accepts --company as an alias of --context', async () => {
    const f = fakeIo();
    expect(await runCli(build('--kind', 'pos', '--company', context, '--today=2025-03-14', exampleFile('pos', 'min')), f.io)).toBe(0);
    expect(f.out()).toBe(readFileSync(goldenFile('pos', 'min'), 'utf8'));
  });

  it('prints rule findings on stderr in DIAN form without failing; --strict fails on a Rechazo and writes no XML', async () => {
    // --resolution replaces the context's resolution: another prefix makes the number fall outside it.
    const resolution = JSON.stringify({ ...contextJson().resolution, prefix: 'FE' });
    const args = build('--kind', 'invoice', '--context', context, '--resolution', 'res.json', '--today', '2025-03-14', exampleFile('invoice', 'min'));
    const f = fakeIo({}, { 'res.json': resolution });
    expect(await runCli(args, f.io)).toBe(0);
    expect(f.out()).toMatch(/^<\?xml .*<sts:Prefix>FE<\/sts:Prefix>/s);
    expect(f.err()).toMatch(
      /^Regla: FAB10a, Rechazo: El número del documento no comienza con el prefijo autorizado \(\/Invoice\/cbc:ID: ID SETP990000001, prefijo FE\)$/m,
    );
    const g = fakeIo({}, { 'res.json': resolution });
    expect(await runCli([...args, '--strict'], g.io)).toBe(1);
    expect(g.out()).toBe('');
    expect(g.err()).toContain('Regla: FAB10a, Rechazo:');
    expect(g.err()).toContain('--strict');
  });

  it('a Notificación does not fail --strict; --today defaults to the real date (the example is older than 5 days)', async () => {
    const f = fakeIo();
    expect(await runCli(build('--kind', 'credit-note', '--context', context, '--strict', exampleFile('credit-note', 'max')), f.io)).toBe(0);
    expect(f.err()).toMatch(/^Regla: CAD09c, Notificación: /m);
    expect(f.out()).toBe(readFileSync(goldenFile('credit-note', 'max'), 'utf8'));
  });

  it('exits 1 with the service 422 body as JSON on stdout for an invalid request', async () => {
    const request = { ...JSON.parse(readFileSync(exampleFile('invoice', 'min'), 'utf8')), number: 'x' };
    delete request.customer;
    const f = fakeIo({}, { 'bad.json': JSON.stringify(request) });
    expect(await runCli(build('--kind', 'invoice', '--context', context, 'bad.json'), f.io)).toBe(1);
    const body = JSON.parse(f.out());
    expect(body.document.statusCode).toBe(13);
    expect(body.document.number).toBe('x');
    expect(Object.keys(body.document.detailedErrors).sort()).toEqual(['customer', 'number']);
    expect(f.err()).toBe('');
  });

  it('exits 1 with the 422 body when the context lacks the resolution the kind needs', async () => {
    const { resolution: _r, ...noResolution } = contextJson();
    const f = fakeIo({}, { 'ctx.json': JSON.stringify(noResolution) });
    expect(await runCli(build('--kind', 'invoice', '--context', 'ctx.json', exampleFile('invoice', 'min')), f.io)).toBe(1);
    expect(JSON.parse(f.out()).document.detailedErrors.resolution_number[0]).toMatch(/resolución de numeración/);
  });

  it('exits 2 on usage problems, unreadable files and malformed context files, with the reason on stderr', async () => {
    const req = exampleFile('invoice', 'min');
    const ctx = contextJson();
    const files = {
      'broken.json': '{"number": ',
      'latin1.json': new Uint8Array([0x7b, 0xe9, 0x7d]),
      'env3.json': JSON.stringify({ ...ctx, environment: '3' }),
      'clock.json': JSON.stringify({ ...ctx, now: 0 }),
      'nosoft.json': JSON.stringify({ ...ctx, software: { ...ctx.software, pin: 12345 } }),
      'array.json': '[]',
      'badres.json': JSON.stringify({ from: '1' }),
    };
    const cases: Array<[string[], RegExp]> = [
      [build('--context', context, req), /missing --kind/],
      [build('--kind', 'factura', '--context', context, req), /unknown kind "factura"; expected one of invoice, /],
      [build('--kind', 'invoice', req), /missing --context/],
      [build('--kind', 'invoice', '--context', context, '--company', context, req), /--context or its alias --company, not both/],
      [build('--kind', 'invoice', '--context', context), /missing the request file/],
      [build('--kind', 'invoice', '--context', context, req, req), /one request file, not 2/],
      [build('--kind', 'invoice', '--context', context, '--today', '2025-02-30', req), /--today must be a date yyyy-MM-dd/],
      [build('--kind', 'invoice', '--context', context, '--bogus', req), /unknown option\(s\): --bogus/],
      [build('--kind', 'invoice', '--context', context, req, '--resolution'), /--resolution needs a value/],
      [build('--kind', 'invoice', '--context', 'missing.json', req), /cannot read the context missing\.json/],
      [build('--kind', 'invoice', '--context', context, 'missing.json'), /cannot read the request missing\.json/],
      [build('--kind', 'invoice', '--context', context, 'broken.json'), /broken\.json: not valid JSON/],
      [build('--kind', 'invoice', '--context', context, 'latin1.json'), /latin1\.json: not valid UTF-8/],
      [build('--kind', 'invoice', '--context', 'env3.json', req), /env3\.json: environment must be "1" \(production\) or "2"/],
      [build('--kind', 'invoice', '--context', 'clock.json', req), /now is not a member of the context \(the CLI supplies the clock\)/],
      [build('--kind', 'invoice', '--context', 'nosoft.json', req), /software\.pin must be a non-empty string/],
      [build('--kind', 'invoice', '--context', 'array.json', req), /must be a JSON object/],
      [build('--kind', 'invoice', '--context', context, '--resolution', 'badres.json', req), /badres\.json: to must be a non-empty string/],
    ];
    for (const [argv, re] of cases) {
      const f = fakeIo({}, files);
      expect(await runCli(argv, f.io), argv.join(' ')).toBe(2);
      expect(f.err(), argv.join(' ')).toMatch(re);
      expect(f.out(), argv.join(' ')).toBe('');
    }
  });

  it('is listed in the help', async () => {
    const f = fakeIo();
    expect(await runCli(['--help'], f.io)).toBe(0);
    expect(f.err()).toContain('ecf dian build --kind invoice|export-invoice|');
  });
});

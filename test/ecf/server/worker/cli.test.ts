/** `ecf worker`, run in process (the crash test runs it as a child process). */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { runWorkerCommand, workerCommand } from '../../../../src/ecf/cli/worker.js';
import { UsageError } from '../../../../src/shared/cli/command.js';
import { prepareCertificate } from '../../../../src/ecf/server/certificates.js';
import { envelopeKeyId, keyId } from '../../../../src/ecf/server/secrets.js';
import { fakeIo } from '../../helpers/cli.js';
import { xsdDir } from '../../helpers/env.js';
import { createBench, issuerIdentity, waitTerminal, type Bench } from './harness.js';

let bench: Bench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

const envFor = (b: Bench, extra: Record<string, string> = {}) => ({
  ECF_DATA_DIR: b.dir,
  ECF_XSD_DIR: xsdDir(),
  ECF_AUTHORITY: b.sim.url,
  ECF_CERT_KEY: Buffer.from(b.key).toString('hex'),
  LOG_LEVEL: 'silent',
  ...extra,
});

describe('ecf worker', () => {
  it('refuses unknown flags and bad numbers', async () => {
    const { io } = fakeIo();
    await expect(workerCommand.run(['--bogus'], io)).rejects.toThrow(UsageError);
    await expect(workerCommand.run(['--concurrency', '0'], io)).rejects.toThrow(/positive integer/);
    await expect(workerCommand.run(['extra'], io)).rejects.toThrow(/unexpected argument/);
  });

  it('needs ECF_AUTHORITY: a separate process cannot reach an in-process simulator', async () => {
    const { io, err } = fakeIo({}, { ECF_DATA_DIR: '/nonexistent-ecf-dir', ECF_XSD_DIR: xsdDir(), ECF_CERT_KEY: randomBytes(32).toString('hex') });
    expect(await workerCommand.run([], io)).toBe(2);
    expect(err()).toMatch(/ECF_AUTHORITY/);
  });

  it('reports configuration problems (exit 2)', async () => {
    const { io, err } = fakeIo({}, { ECF_AUTHORITY: 'http://127.0.0.1:9', DATABASE_URL: 'mysql://x', NODE_ENV: 'production' });
    expect(await workerCommand.run([], io)).toBe(2);
    expect(err()).toMatch(/DATABASE_URL/);
    expect(err()).toMatch(/ECF_CERT_KEY/);
  });

  it('--once: handles what is due and exits', async () => {
    bench = await createBench();
    const a = await bench.insert('31');
    const b = await bench.insert('32');
    const { io, out } = fakeIo({}, envFor(bench));
    expect(await runWorkerCommand(['--once'], io)).toBe(0);
    expect(out()).toMatch(/handled [1-9]\d* document step/);
    expect((await bench.get(a.id)).status).toBe('in_process_authority');
    expect((await bench.get(b.id)).status).toBe('accepted_authority');
  });

  it('runs until stopped, taking documents to a verdict', async () => {
    bench = await createBench();
    const docs = [await bench.insert('31'), await bench.insert('31'), await bench.insert('32')];
    const { io, out } = fakeIo({}, envFor(bench));
    const stop = new AbortController();
    const running = runWorkerCommand(['--interval-ms', '20', '--owner', 'cli-test'], io, stop.signal);
    const done = await waitTerminal(
      bench.storage,
      docs.map((d) => d.id),
    );
    stop.abort();
    expect(await running).toBe(0);
    expect(done.map((d) => d.status)).toEqual(['accepted_authority', 'accepted_authority', 'accepted_authority']);
    expect(out()).toContain('ecf worker cli-test running');
  });

  it('--reencrypt-certificates re-seals certificates stored under a previous key', async () => {
    bench = await createBench();
    const old = new Uint8Array(randomBytes(32));
    const id = issuerIdentity();
    await bench.storage.updateIssuer(
      bench.issuer.id,
      prepareCertificate({ issuer: bench.issuer, p12: id.p12, password: id.password, key: old, now: new Date() }),
    );
    const { io, out } = fakeIo({}, envFor(bench, { ECF_CERT_KEY_PREVIOUS: Buffer.from(old).toString('base64') }));
    expect(await runWorkerCommand(['--reencrypt-certificates'], io)).toBe(0);
    expect(out()).toContain('re-encrypted 1 certificate(s)');
    const issuer = (await bench.storage.getIssuer(bench.issuer.id))!;
    expect(envelopeKeyId(issuer.certificate!)).toBe(keyId(bench.key));
    // And the worker signs with it.
    const doc = await bench.insert('32');
    expect(await runWorkerCommand(['--once'], fakeIo({}, envFor(bench)).io)).toBe(0);
    expect((await bench.get(doc.id)).status).toBe('accepted_authority');
  });
});

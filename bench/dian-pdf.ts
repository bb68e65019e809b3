/**
 * Cost of one DIAN PDF (A4, `dianPdf` from the signed XML) of the examples' maximal invoice, variants alternated in
 * blocks of 10 in one process: pdf-lib's own deflate (pako), node:zlib's `deflateSync` (`options.deflate`, as the
 * service and the CLI pass it), and with `--against DIR` the default of another checkout's sources (e.g. /work/main).
 * Prints wall and CPU ms per PDF and the bytes. Run: `npx tsx bench/dian-pdf.ts [--rounds 200] [--against DIR]`.
 */
import { deflateSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dianPdf } from '../src/dian/pdf/index.js';
import { signedExample } from '../test/dian/pdf/fixtures.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '200' }, against: { type: 'string' } } });
const rounds = Number(values.rounds);
const { xml } = await signedExample('invoice');

type Render = () => Promise<Uint8Array>;
const ok = async (p: ReturnType<typeof dianPdf>) => {
  const r = await p;
  if (!r.ok) throw new Error(r.message);
  return r.pdf;
};
const variants: Array<[string, Render]> = [
  ['pdf-lib deflate (default)', () => ok(dianPdf(xml))],
  ['node:zlib deflate', () => ok(dianPdf(xml, { deflate: (d) => deflateSync(d) }))],
];
if (values.against) {
  const other = (await import(resolve(values.against, 'src/dian/pdf/index.ts'))) as { dianPdf: typeof dianPdf };
  variants.unshift([`${values.against} (default)`, () => ok(other.dianPdf(xml))]);
}

const totals = variants.map(() => ({ wall: 0, cpu: 0, bytes: 0 }));
for (const [, render] of variants) for (let i = 0; i < 20; i++) await render();
const load = loadavg()[0]!.toFixed(1);
for (let done = 0; done < rounds; done += 10) {
  for (const [v, [, render]] of variants.entries()) {
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    for (let i = 0; i < 10; i++) totals[v]!.bytes = (await render()).length;
    const c = process.cpuUsage(c0);
    totals[v]!.wall += Number(process.hrtime.bigint() - t0) / 1e6;
    totals[v]!.cpu += (c.user + c.system) / 1000;
  }
}
console.log(`${rounds} PDFs per variant, alternated; load average ${load} → ${loadavg()[0]!.toFixed(1)}`);
for (const [v, [name]] of variants.entries()) {
  const t = totals[v]!;
  console.log(`${name.padEnd(40)} ${(t.wall / rounds).toFixed(2).padStart(7)} ms wall ${(t.cpu / rounds).toFixed(2).padStart(7)} ms CPU ${t.bytes} bytes`);
}

/**
 * `npm run bench`: runs every benchmark script in bench/ (one process each, so they do not disturb each
 * other's heap), prints their tables, then one summary table of the key figures from every results JSON,
 * written to summary.json. Results go to bench/results/ (or BENCH_RESULTS_DIR).
 *
 * `npm run bench -- pipeline pdf` runs only the scripts named by those words, or whose names start with them (the summary still
 * reads every results file there, marking those not written by this run as stale). BENCH_QUICK=1 shortens
 * every measurement (a smoke test of the harness; its figures are not comparable).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { machineLine, QUICK, resultsDir, round, writeResults } from './lib.js';

const dir = dirname(fileURLToPath(import.meta.url));
const skip = new Set(['run.ts', 'lib.ts', 'docs.ts']);
const only = process.argv.slice(2);
// A word naming a script exactly (`dian`) runs that script alone; otherwise every script starting with it.
const all = readdirSync(dir).filter((f) => f.endsWith('.ts') && !skip.has(f));
const picks = (o: string, f: string) => (all.includes(`${o}.ts`) ? f === `${o}.ts` : f.startsWith(o));
const scripts = all.filter((f) => only.length === 0 || only.some((o) => picks(o, f))).sort();
const startedAt = new Date();
const loadAtStart = round(os.loadavg()[0] ?? 0, 2);
const runs: Record<string, { exit_code: number | null; seconds: number }> = {};
let failed = 0;
for (const s of scripts) {
  console.log(`\n=== bench/${s}`);
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', resolve(dir, s)], { stdio: 'inherit', env: process.env });
  runs[s] = { exit_code: r.status, seconds: round((performance.now() - t) / 1000, 1) };
  if (r.status !== 0) failed++;
}

// ---- summary ----

type Json = Record<string, any>;
const out = resultsDir();
function read(file: string): Json | null {
  const p = join(out, file);
  if (!existsSync(p)) return null;
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as Json;
  } catch {
    return null;
  }
}
/** A results file written before this run started (its script failed or was not run). */
const stale = (j: Json | null) => j !== null && typeof j.date === 'string' && new Date(j.date) < startedAt;
/** A number for the table: about four significant digits (ms to 0.1 µs below 1 ms). */
const n = (x: unknown, unit = '') => {
  if (typeof x !== 'number') return 'n/a';
  const a = Math.abs(x);
  return `${round(x, a >= 1000 ? 0 : a >= 100 ? 1 : a >= 1 ? 2 : 4)}${unit}`;
};
const mb = (x: unknown) => (typeof x === 'number' ? x : null);

interface Row {
  area: string;
  benchmark: string;
  figure: string;
  peak_rss_mb: number | null;
  memory: string;
}
const rows: Row[] = [];
const summary: Json = { started: startedAt.toISOString(), load_average_1m_at_start: loadAtStart, runs, sources: {} as Json };
function source(key: string, file: string): Json | null {
  const j = read(file);
  summary.sources[key] = j
    ? { file, date: j.date, quick: j.quick ?? null, stale: stale(j), load_average_1m: j.load_average_1m ?? null }
    : { file, missing: true };
  return j;
}
const tag = (j: Json | null) => (stale(j) ? ' (stale: not from this run)' : '');

const pipeline = source('pipeline', 'pipeline.json');
if (pipeline) {
  const t = tag(pipeline);
  summary.pipeline = { by_type: {} as Json, big_documents: {} as Json, peers: {} as Json };
  for (const [tipo, r] of Object.entries<Json>(pipeline.by_type ?? {})) {
    summary.pipeline.by_type[tipo] = {
      ms_per_doc: r.ms_per_doc,
      docs_per_second: r.docs_per_second,
      floor_ms: r.floor_ms,
      ratio_to_floor: r.ratio_to_floor,
      round_ratio_median: r.round_ratio?.median,
      peak_rss_mb: r.peak_rss_mb,
    };
    rows.push({
      area: `SDK pipeline${t}`,
      benchmark: `validate + build + sign, 10-line ${tipo}`,
      figure: `${n(r.ms_per_doc, ' ms')}, ${n(r.docs_per_second)} docs/s, ${n(r.ratio_to_floor, '×')} floor (${n(r.floor_ms, ' ms')})`,
      peak_rss_mb: mb(r.peak_rss_mb),
      memory: r.memory_scope ?? '',
    });
  }
  for (const [key, r] of Object.entries<Json>(pipeline.big_documents ?? {})) {
    if (r.timed === false) {
      summary.pipeline.big_documents[key] = { timed: false, valid: r.valid, note: r.note };
      continue;
    }
    summary.pipeline.big_documents[key] = {
      ms_per_doc: r.ms_per_doc,
      validate_build_ms: r.validate_build_ms,
      sign_ms: r.sign_ms,
      peak_rss_mb: r.peak_rss_mb,
      rss_before_mb: r.rss_before_mb,
    };
    rows.push({
      area: `SDK pipeline${t}`,
      benchmark: `validate + build + sign, ${r.title ?? key}`,
      figure: `${n(r.ms_per_doc, ' ms')} (build ${n(r.validate_build_ms, ' ms')}, sign ${n(r.sign_ms, ' ms')})`,
      peak_rss_mb: mb(r.peak_rss_mb),
      memory: r.memory_scope ?? '',
    });
  }
  for (const [name, p] of Object.entries<Json>(pipeline.peers ?? {})) {
    if (p.timed && p.sign) {
      summary.pipeline.peers[name] = {
        installed: true,
        version: p.version,
        sign_ms: p.sign.ms_per_doc,
        sign_ratio_to_floor: p.sign.ratio_to_floor,
        ecf_kit_sign_ms: p.ecf_kit_sign?.ms_per_doc,
        ecf_kit_sign_ratio_to_floor: p.ecf_kit_sign?.ratio_to_floor,
      };
      rows.push({
        area: `peers${t}`,
        benchmark: `sign 10-line 31: ${name} ${p.version} vs ecf-kit`,
        figure: `${n(p.sign.ms_per_doc, ' ms')} (${n(p.sign.ratio_to_floor, '×')} floor) vs ${n(p.ecf_kit_sign?.ms_per_doc, ' ms')} (${n(p.ecf_kit_sign?.ratio_to_floor, '×')})`,
        peak_rss_mb: mb(p.peak_rss_mb),
        memory: p.memory_scope ?? '',
      });
    } else {
      summary.pipeline.peers[name] = { installed: !!p.installed, timed: false };
      rows.push({
        area: `peers${t}`,
        benchmark: name,
        figure: p.installed ? 'installed, not timed (no known API)' : 'not installed, not timed',
        peak_rss_mb: null,
        memory: '',
      });
    }
  }
}

const sdk = source('sdk', 'sdk.json');
if (sdk) {
  const t = tag(sdk);
  summary.sdk = {
    validate_build_31_10_lines_docs_per_second: sdk.validate_build_31_10_lines?.docs_per_second,
    validate_build_32_10000_lines_ms: sdk.validate_build_32_10000_lines?.ms,
  };
  rows.push({
    area: `SDK core${t}`,
    benchmark: 'validate + build, 10-line 31',
    figure: `${n(sdk.validate_build_31_10_lines?.docs_per_second)} docs/s`,
    peak_rss_mb: mb(sdk.validate_build_31_10_lines?.peak_rss_mb),
    memory: sdk.validate_build_31_10_lines?.memory_scope ?? '',
  });
  rows.push({
    area: `SDK core${t}`,
    benchmark: 'validate + build, 10,000-line 32',
    figure: n(sdk.validate_build_32_10000_lines?.ms, ' ms'),
    peak_rss_mb: mb(sdk.validate_build_32_10000_lines?.peak_rss_mb),
    memory: sdk.validate_build_32_10000_lines?.memory_scope ?? '',
  });
}

const dian = source('dian', 'dian.json');
if (dian) {
  const t = tag(dian);
  summary.dian = {
    build_10_lines_docs_per_second: dian.dian_build_10_lines?.docs_per_second,
    build_xsd_10_lines_docs_per_second: dian.dian_build_xsd_10_lines_docs_per_second,
    build_1000_lines_ms: dian.dian_build_1000_lines?.ms,
    build_xsd_1000_lines_ms: dian.dian_build_xsd_1000_lines_ms,
    ecf_build_31_10_lines_docs_per_second: dian.ecf_build_31_10_lines?.docs_per_second,
    ecf_build_31_1000_lines_ms: dian.ecf_build_31_1000_lines?.ms,
    ratio_ecf_over_dian_10_lines_throughput: dian.ratio_ecf_over_dian_10_lines_throughput,
  };
  rows.push({
    area: `DIAN core${t}`,
    benchmark: 'buildDianXml (rules on); + XSD, 10-line invoice',
    figure: `${n(dian.dian_build_10_lines?.docs_per_second)} docs/s; ${n(dian.dian_build_xsd_10_lines_docs_per_second)} docs/s (e-CF 10-line 31: ${n(dian.ecf_build_31_10_lines?.docs_per_second)} docs/s, ${n(dian.ratio_ecf_over_dian_10_lines_throughput, '×')})`,
    peak_rss_mb: mb(dian.process_peak_rss_mb),
    memory: 'whole script',
  });
  rows.push({
    area: `DIAN core${t}`,
    benchmark: 'buildDianXml (rules on); + XSD, 1,000-line invoice',
    figure: `${n(dian.dian_build_1000_lines?.ms, ' ms')}; ${n(dian.dian_build_xsd_1000_lines_ms, ' ms')} (e-CF 1,000-line 31: ${n(dian.ecf_build_31_1000_lines?.ms, ' ms')})`,
    peak_rss_mb: mb(dian.process_peak_rss_mb),
    memory: 'whole script',
  });
  const signing = dian.dian_sign_10_lines;
  if (signing) {
    summary.dian_sign = {
      build_sign_10_lines_ms: signing.build_sign?.ms_per_doc,
      build_sign_over_floor: signing.build_sign?.ratio_to_floor,
      sign_over_floor: signing.sign?.ratio_to_floor,
      xadesjs_over_ours_sign: signing.ratio_peer_over_ours_sign,
    };
    rows.push({
      area: `DIAN sign${t}`,
      benchmark: 'build + signDianXml, 10-line invoice / RSA floor; xadesjs / signDianXml',
      figure: `${n(signing.build_sign?.ms_per_doc, ' ms')}, ${n(signing.build_sign?.ratio_to_floor, '×')}; ${n(signing.ratio_peer_over_ours_sign, '×')}`,
      peak_rss_mb: mb(dian.process_peak_rss_mb),
      memory: 'whole script',
    });
  }
  const byKind = dian.dian_pipeline_10_lines?.by_kind as Record<string, Json> | undefined;
  if (byKind) {
    summary.dian_pipeline = Object.fromEntries(
      Object.entries(byKind).map(([kind, r]) => [kind, { ms_per_doc: r.ms_per_doc, docs_per_second: r.docs_per_second, ratio_to_floor: r.ratio_to_floor }]),
    );
    const ratios = Object.values(byKind).map((r) => r.ratio_to_floor as number);
    rows.push({
      area: `DIAN pipeline${t}`,
      benchmark: `build + validate + sign + zip, 10 lines, ${ratios.length} kinds (payroll 102 included) / RSA floor`,
      figure: `invoice ${n(byKind.invoice?.ms_per_doc, ' ms')}, ${n(byKind.invoice?.ratio_to_floor, '×')}; every kind ${n(Math.min(...ratios), '×')}–${n(Math.max(...ratios), '×')}`,
      peak_rss_mb: mb(dian.process_peak_rss_mb),
      memory: 'whole script',
    });
  }
  const facho = dian.dian_peer_facho as Json | undefined;
  if (facho) {
    summary.dian_peer_facho = facho.timed
      ? { version: facho.version, ms_per_doc: facho.facho?.ms_per_doc, ecf_kit_ms_per_doc: facho.ecf_kit?.ms_per_doc, ratio: facho.ratio_facho_over_ecf_kit }
      : { timed: false, missing: facho.missing ?? null };
    rows.push({
      area: `peers${t}`,
      benchmark: 'DIAN build + sign + zip, 10-line invoice: ecf-kit / facho (Python)',
      figure: facho.timed
        ? `${n(facho.ratio_facho_over_ecf_kit, '×')} (facho ${n(facho.facho?.ms_per_doc, ' ms')}, ecf-kit ${n(facho.ecf_kit?.ms_per_doc, ' ms')})`
        : `not timed: ${facho.missing ?? 'facho missing'}`,
      peak_rss_mb: null,
      memory: '',
    });
  }
}

const sign = source('sign', 'sign.json');
if (sign) {
  summary.sign = { fast_path_over_floor_interleaved: sign.fast_path_over_floor_interleaved?.median, xml_crypto_over_fast_path: sign.xml_crypto_over_fast_path };
  rows.push({
    area: `signing${tag(sign)}`,
    benchmark: 'signXml fast path / RSA floor (interleaved median); xml-crypto / fast path',
    figure: `${n(sign.fast_path_over_floor_interleaved?.median, '×')}; ${n(sign.xml_crypto_over_fast_path, '×')}`,
    peak_rss_mb: mb(sign.process_peak_rss_mb),
    memory: 'whole script',
  });
}

const xsd = source('xsd', 'xsd.json');
if (xsd) {
  summary.xsd = { valid_10_lines_docs_per_second: xsd.valid_10_lines?.docs_per_second, relaxed32_10000_lines_ms: xsd.relaxed32_10000_lines?.ms };
  rows.push({
    area: `XSD${tag(xsd)}`,
    benchmark: 'valid 10-line e-CF; 10,000-line 32 (relaxed)',
    figure: `${n(xsd.valid_10_lines?.docs_per_second)} docs/s; ${n(xsd.relaxed32_10000_lines?.ms, ' ms')}`,
    peak_rss_mb: mb(xsd.process_peak_rss_mb),
    memory: 'whole script',
  });
}

const pdf = source('pdf', 'pdf.json');
if (pdf) {
  summary.pdf = {} as Json;
  for (const r of (pdf.results ?? []) as Json[]) {
    summary.pdf[r.name] = { ms: r.ms_per_op, pages: r.pages, peak_rss_mb: r.peak_rss_mb };
    rows.push({
      area: `PDF${tag(pdf)}`,
      benchmark: r.name,
      figure: `${n(r.ms_per_op, ' ms')}${r.pages ? `, ${r.pages} page(s)` : ''}`,
      peak_rss_mb: mb(r.peak_rss_mb),
      memory: r.memory_scope ?? '',
    });
  }
}

const server = source('server', 'server.json');
if (server) {
  summary.server = {} as Json;
  for (const [adapter, r] of Object.entries<Json>(server.post_31_10_lines ?? {})) {
    summary.server[adapter] = {
      requests_per_second: r.requests_per_second,
      p50_ms: r.p50_ms,
      p99_ms: r.p99_ms,
      non_202: r.non_202,
      peak_rss_mb: r.peak_rss_mb,
      load_average_1m: r.load_average_1m,
    };
    rows.push({
      area: `server POST${tag(server)}`,
      benchmark: `POST /documents/31, ${adapter}, ${r.connections} conn, ${r.duration_s} s`,
      figure: `${n(r.requests_per_second)} req/s, p50 ${n(r.p50_ms, ' ms')}, p99 ${n(r.p99_ms, ' ms')}${r.non_202 ? `, ${r.non_202} non-202` : ''}`,
      peak_rss_mb: mb(r.peak_rss_mb),
      memory: 'server process',
    });
  }
}

const e2e = source('e2e', 'e2e.json');
if (e2e) {
  summary.e2e = {} as Json;
  for (const [adapter, r] of Object.entries<Json>(e2e.e2e_31_10_lines ?? {})) {
    summary.e2e[adapter] = {
      documents: r.documents,
      docs_per_second: r.docs_per_second,
      seconds_to_all_accepted: r.seconds_to_all_accepted,
      peak_rss_mb: r.peak_rss_mb,
    };
    rows.push({
      area: `end to end${tag(e2e)}`,
      benchmark: `${r.documents} docs → accepted_authority, ${adapter}`,
      figure: `${n(r.docs_per_second)} docs/s (${n(r.seconds_to_all_accepted, ' s')})`,
      peak_rss_mb: mb(r.peak_rss_mb),
      memory: 'server process',
    });
  }
}

const dianServer = source('dian_server', 'dian-server.json');
if (dianServer) {
  summary.dian_server = {} as Json;
  for (const [engine, r] of Object.entries<Json>(dianServer.by_engine ?? {})) {
    summary.dian_server[engine] = {
      docs_per_second: r.docs_per_second,
      p50_ms: r.p50_ms,
      p99_ms: r.p99_ms,
      server_cpu_ms_per_doc: r.cpu_ms_per_doc?.server,
      server_over_sdk_pipeline: r.ratios?.server_over_sdk_pipeline,
      server_over_sdk_same_work: r.ratios?.server_over_sdk_pipeline_attached_pdf,
    };
    rows.push({
      area: `DIAN service${tag(dianServer)}`,
      benchmark: `${r.documents} invoices → accepted (local DIAN in its own process), ${engine}, ${r.connections} conn`,
      figure: `${n(r.docs_per_second)} docs/s, p50 ${n(r.p50_ms, ' ms')}, p99 ${n(r.p99_ms, ' ms')}; server CPU ${n(r.cpu_ms_per_doc?.server, ' ms')}/doc = ${n(r.ratios?.server_over_sdk_pipeline, '×')} SDK build + sign + zip, ${n(r.ratios?.server_over_sdk_pipeline_attached_pdf, '×')} with AttachedDocument + PDF`,
      peak_rss_mb: mb(r.server_rss_end_mb),
      memory: 'server process (RSS at end)',
    });
  }
}

const load = source('load', 'load.json');
if (load?.sustained) {
  const s = load.sustained as Json;
  summary.load = {
    adapter: s.adapter,
    rate: s.rate,
    duration_s: s.duration_s,
    p50_ms: s.p50_ms,
    p99_ms: s.p99_ms,
    rss_max_mb: s.rss?.max_mb,
    verdict: s.verdict ?? null,
  };
  rows.push({
    area: `sustained load${tag(load)}`,
    benchmark: `${n(s.rate)}/s for ${n(s.duration_s, ' s')}, ${s.adapter}`,
    figure: `p50 ${n(s.p50_ms, ' ms')}, p99 ${n(s.p99_ms, ' ms')}${s.verdict ? `, verdict ${JSON.stringify(s.verdict)}` : ''}`,
    peak_rss_mb: mb(s.rss?.max_mb),
    memory: 'server process (sampled)',
  });
}

console.log(
  `\n=== summary (${machineLine()}; 1-minute load average ${loadAtStart} at start, ${round(os.loadavg()[0] ?? 0, 2)} at end${QUICK ? '; BENCH_QUICK=1: smoke test, figures not comparable' : ''})`,
);
console.log('| area | benchmark | figure | peak RSS MB | memory of |');
console.log('|---|---|---|---:|---|');
for (const r of rows) console.log(`| ${r.area} | ${r.benchmark} | ${r.figure} | ${r.peak_rss_mb ?? 'n/a'} | ${r.memory} |`);
summary.rows = rows;
writeResults('summary.json', summary);
console.log(
  `\nresults written to ${out} (${scripts.length} benchmark scripts${
    failed
      ? `, ${failed} failed: ${Object.entries(runs)
          .filter(([, r]) => r.exit_code !== 0)
          .map(([s]) => s)
          .join(', ')}`
      : ''
  })`,
);
process.exit(failed ? 1 : 0);

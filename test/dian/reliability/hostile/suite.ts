/**
 * The hostile-input suite of the DIAN service, one test per operation of the served OpenAPI document.
 *
 * Properties, for every request:
 * - the status is one the OpenAPI lists for that operation, never a 5xx, and the body matches the documented
 *   response schema of that status; error messages are Spanish and carry no internals;
 * - a token under a header name the operation does not document (`Authotization` outside the payroll and mail
 *   routes) is a 401;
 * - a refused request stores nothing: every table of the DIAN store and the mail outbox (row count and a digest
 *   of the rows) is unchanged, unless DIAN itself answered (a 422 with statusCode 11 stores the rejection);
 * - a GET changes nothing, whatever it answers;
 * - no number is consumed: after a refused request, the valid base body with the same number gets the answer
 *   a fresh number gets (calibrated once per operation: 200 for every document kind).
 * Unknown routes and undocumented methods are a 401 or a 404 and change nothing.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSpanishMessage, fuzzSeed } from '../../../ecf/reliability/hostile/oracle.js';
import { scale } from '../../../ecf/reliability/mode.js';
import { applyMutation } from '../../../ecf/reliability/hostile/arbitraries.js';
import { base64Attacks, base64Paths, Numbers, requests, type HostileRequest } from './requests.js';
import { type Answer, createWorld, type Operation, type World } from './world.js';

/** Per test: a safety net far above the reduced form's seconds; the full form runs long. */
const TIMEOUT = scale(120_000, 3_600_000);

export interface SuiteOptions {
  engine: 'sqlite' | 'postgres';
  runsPerOperation: number;
}

const bodyOf = (r: HostileRequest): BodyInit | null => (r.body === null ? null : (r.body as BodyInit));

/** What a 2xx answer names (numbers, CUFEs, message ids, ids): the path segments of later GETs. */
function harvest(a: Answer, into: Set<string>): void {
  const walk = (v: unknown, depth: number) => {
    if (depth > 3 || v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if ((typeof x === 'string' || typeof x === 'number') && /^(number|uuid|message_id|id|.*Id|.*_id)$/.test(k) && String(x).length < 200) into.add(String(x));
      else walk(x, depth + 1);
    }
  };
  walk(a.json, 0);
}

/** DIAN answered (statusCode 11): the rejection is stored, the number stays free. */
const dianAnswered = (a: Answer) => a.status === 422 && [a.json?.document?.statusCode, a.json?.event?.statusCode].includes(11);

function expectDocumented(w: World, op: Operation, r: HostileRequest, a: Answer): void {
  expect(a.status, `${r.label}: never a 5xx; body ${a.text.slice(0, 400)}`).toBeLessThan(500);
  if (!op.re.test(new URL(r.path, 'http://x').pathname)) {
    // A path parameter that was empty or held a `/` made another path: an unknown route (401 before 404).
    expect([401, 404], `${r.label}: an unknown route: ${a.status} ${a.text.slice(0, 200)}`).toContain(a.status);
    return;
  }
  expect(
    op.codes.has(a.status),
    `${r.label}: ${op.method} ${op.template} answered ${a.status}, documented ${[...op.codes].join(', ')}; body ${a.text.slice(0, 400)}`,
  ).toBe(true);
  const problem = w.validResponse(op, a);
  expect(problem, `${r.label}: the body matches the documented schema; ${a.text.slice(0, 300)}`).toBeNull();
  if (a.status >= 400) {
    const messages = typeof a.json?.message === 'string' ? [a.json.message] : (a.json?.errors ?? []).map((e: { message: string }) => e.message);
    expect(messages.length, `${r.label}: an error says why`).toBeGreaterThan(0);
    for (const m of messages.slice(0, 10)) expectSpanishMessage(m, r.label);
  }
}

export async function defineHostileApiSuite(options: SuiteOptions): Promise<void> {
  const seed = fuzzSeed(`dian-hostile-api-${options.engine}`);
  const w = await createWorld(options.engine, { mail: true });
  // The mail sender would update outbox rows in the background (queued → sent) between two snapshots; the
  // outbox is what accepting writes, so the sender is stopped for the run.
  await w.h.server.mail?.stop();
  afterAll(async () => {
    await w.close();
  });
  const numbers = new Numbers();
  const ids = new Set<string>();
  const calibrated = new Map<string, Answer>();
  const statuses = new Map<string, Record<number, number>>();

  const send = (r: { path: string; method: string; headers: Record<string, string>; body: BodyInit | null }) =>
    w.request(r.path, { method: r.method, headers: r.headers, ...(r.body !== null && r.method !== 'GET' ? { body: r.body } : {}) });
  const valid = (op: Operation, body: unknown) =>
    send({
      path: op.template,
      method: op.method,
      headers: { authorization: `Bearer ${w.h.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** What a fresh number gets with a valid base body (once per operation and base). */
  const calibrate = async (op: Operation, i: number): Promise<Answer> => {
    const key = `${op.method} ${op.template} base ${i}`;
    let a = calibrated.get(key);
    if (!a) {
      a = await valid(op, numbers.fresh(op.bases[i]));
      expect(a.status, `${key}: the valid base body: ${a.text.slice(0, 300)}`).toBeLessThan(500);
      harvest(a, ids);
      calibrated.set(key, a);
    }
    return a;
  };

  /** Sends one hostile request and checks every property. */
  const check = async (op: Operation, r: HostileRequest, seen: Record<number, number>): Promise<void> => {
    const before = await w.snapshot();
    const t0 = performance.now();
    const a = await send({ ...r, body: bodyOf(r) });
    const ms = performance.now() - t0;
    seen[a.status] = (seen[a.status] ?? 0) + 1;
    expectDocumented(w, op, r, a);
    expect(ms, `${r.label}: answered in bounded time`).toBeLessThan(scale(15_000, 30_000));
    // On the route itself (an emptied path parameter makes an unknown route: a 404 before any token is read).
    const onRoute = op.re.test(new URL(r.path, 'http://x').pathname);
    if (onRoute && !op.public && r.authName !== '' && r.authName !== 'Authorization' && !op.extraAuthHeaders.includes(r.authName)) {
      expect(a.status, `${r.label}: ${r.authName} is not a documented header of this route`).toBe(401);
    }
    if (a.status < 300) harvest(a, ids);
    const after = await w.snapshot();
    if (op.method === 'GET' || (a.status >= 300 && !dianAnswered(a))) expect(after, `${r.label}: nothing stored`).toEqual(before);
    // No number consumed: the valid body with the same number gets what a fresh number gets.
    const base = r.base as { number?: unknown } | null;
    if (a.status >= 300 && base && typeof base.number === 'number') {
      const expected = await calibrate(op, r.baseIndex);
      const again = await valid(op, base);
      expect(again.status, `${r.label}: the number ${base.number} is still free: ${again.text.slice(0, 300)}`).toBe(expected.status);
      harvest(again, ids);
    }
  };

  describe(`every operation of the served OpenAPI with hostile requests (${options.engine})`, () => {
    it('lists the document, event, listing, contingency and mail routes, each POST with a valid base body', () => {
      const routes = w.operations.map((o) => `${o.method} ${o.template}`);
      for (const r of ['POST /service/invoice', 'POST /service/contingency-invoice', 'POST /v1/034', 'GET /service/documents', 'POST /utilities/mail/send'])
        expect(routes).toContain(r);
      for (const o of w.operations.filter((x) => x.method === 'POST')) expect(o.bases.length, `${o.method} ${o.template}`).toBeGreaterThan(0);
    });

    for (const [index, op] of w.operations.entries()) {
      it(
        `${op.method} ${op.template}`,
        async () => {
          const seen: Record<number, number> = {};
          await fc.assert(
            fc.asyncProperty(
              requests(w.openapi, op, numbers, () => [...ids], w.h.token, w.h.otherToken),
              (r) => check(op, r, seen),
            ),
            // Each operation its own seed (the run's + its index), so the operations do not all draw the same shapes.
            { seed: seed + index, numRuns: options.runsPerOperation, endOnFailure: true },
          );
          statuses.set(`${op.method} ${op.template}`, seen);
        },
        TIMEOUT,
      );
    }

    it(
      'sends every base64 attack once to every base64 field of every operation (broken, zip and XML bombs, huge)',
      async () => {
        const seen: Record<number, number> = {};
        const fields = w.operations.flatMap((op) =>
          op.bases.flatMap((b, i) => base64Paths(w.openapi, op.requestSchema, b).map((path) => ({ op, b, i, path }))),
        );
        expect(fields.map((f) => `${f.op.method} ${f.op.template}`)).toContain('POST /utilities/mail/send');
        for (const { op, b, i, path } of fields) {
          for (const attack of base64Attacks()) {
            const base = numbers.fresh(b);
            const doc = applyMutation(structuredClone(base), path, { kind: 'replace', value: attack.value });
            await check(
              op,
              {
                path: op.template,
                method: op.method,
                headers: { authorization: `Bearer ${w.h.token}`, 'content-type': 'application/json' },
                body: JSON.stringify(doc),
                label: `${op.method} ${op.template} [base64 ${attack.name}@${path.join('.')}]`,
                authName: 'Authorization',
                base,
                baseIndex: i,
              },
              seen,
            );
          }
        }
        statuses.set('base64 attacks', seen);
      },
      TIMEOUT,
    );

    it(
      'answers an unknown route or an undocumented method with 401 or 404 and changes nothing',
      async () => {
        const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
        const arb = fc.record({
          op: fc.nat(w.operations.length - 1),
          method: fc.constantFrom(...methods),
          suffix: fc.constantFrom('', '/x', '/', '/..', '%2F', '/%00'),
          auth: fc.constantFrom<string | null>(`Bearer ${w.h.token}`, null, 'Bearer nope'),
        });
        await fc.assert(
          fc.asyncProperty(arb, async (x) => {
            const op = w.operations[x.op]!;
            const path = op.template.replace(/\{[^}]+\}/g, 'SETP990000001') + x.suffix;
            const documented = w.operations.find((o) => o.method === x.method && o.re.test(path));
            if (documented) return; // fuzzed above
            const before = await w.snapshot();
            const a = await send({
              path,
              method: x.method,
              headers: x.auth ? { authorization: x.auth, 'content-type': 'application/json' } : {},
              body: x.method === 'GET' ? null : '{}',
            });
            expect([401, 404], `${x.method} ${path}: ${a.status} ${a.text.slice(0, 200)}`).toContain(a.status);
            expect(await w.snapshot(), `${x.method} ${path}`).toEqual(before);
          }),
          { seed, numRuns: scale(30, 1_000), endOnFailure: true },
        );
      },
      TIMEOUT,
    );

    it('logs what each operation answered', () => {
      console.log(`[dian-hostile-api ${options.engine}] statuses per operation: ${JSON.stringify(Object.fromEntries(statuses))}`);
      const all = [...statuses.values()].flatMap((s) => Object.keys(s).map(Number));
      expect(all, 'the fuzzer reached validation').toContain(422);
    });
  });
}

import { describe, expect, it } from 'vitest';
import {
  bodyKind,
  bodyRateOf,
  DEFAULT_BODY_RATE,
  jsonDepthExceeds,
  MAX_JSON_DEPTH,
  readLimited,
  setBodyRate,
  TOO_SLOW_MESSAGE,
  UNREADABLE_BODY_MESSAGE,
  utf8Text,
} from '../../../src/shared/server-kit/body.js';
import { ApiError } from '../../../src/shared/server-kit/envelope.js';

const bytes = (s: string) => new TextEncoder().encode(s);

/** A POST whose body is streamed (no Content-Length) from `pull`. */
function streamed(source: UnderlyingDefaultSource<Uint8Array>): Request {
  return new Request('http://kit.test/', { method: 'POST', body: new ReadableStream(source), duplex: 'half' } as RequestInit);
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('server-kit body: readLimited', () => {
  it('returns the whole body when it fits', async () => {
    const chunks = [bytes('ab'), bytes('cd'), bytes('e')];
    const req = streamed({ pull: (c) => (chunks.length ? c.enqueue(chunks.shift()!) : c.close()) });
    expect(new TextDecoder().decode(await readLimited(req, 5))).toBe('abcde');
    expect(await readLimited(new Request('http://kit.test/'), 5)).toEqual(new Uint8Array(0));
  });

  it('refuses a declared Content-Length over the limit with a 413, before reading', async () => {
    let pulls = 0;
    const req = new Request('http://kit.test/', {
      method: 'POST',
      headers: { 'content-length': '2048' },
      duplex: 'half',
      body: new ReadableStream<Uint8Array>({
        pull: (c) => {
          pulls++;
          c.enqueue(new Uint8Array(2048));
          c.close();
        },
      }),
    } as RequestInit);
    expect(req.headers.get('content-length')).toBe('2048');
    const e = await refusal(readLimited(req, 1024));
    expect(e.status).toBe(413);
    expect(e.message).toBe('El cuerpo de la solicitud excede el límite de 1 KB (1024 bytes).');
    expect(req.bodyUsed).toBe(false);
    expect(pulls).toBeLessThanOrEqual(1); // a stream may prefetch once; nothing is read from it
  });

  it('refuses a streamed body once it passes the limit, with the error tooBig makes, and stops reading', async () => {
    let pulls = 0;
    const req = streamed({
      pull: (c) => {
        pulls++;
        c.enqueue(new Uint8Array(600));
      },
    });
    const e = await refusal(readLimited(req, 1000, (limit) => new ApiError(413, `más de ${limit}`)));
    expect(e.status).toBe(413);
    expect(e.message).toBe('más de 1000');
    expect(pulls).toBeLessThan(4);
    // Exactly at the limit is accepted.
    const chunks = [new Uint8Array(600), new Uint8Array(400)];
    const ok = streamed({ pull: (c) => (chunks.length ? c.enqueue(chunks.shift()!) : c.close()) });
    expect((await readLimited(ok, 1000)).byteLength).toBe(1000);
  });

  it("answers a body slower than the request's minimum rate with a 408 that closes the connection", async () => {
    const req = streamed({ pull: () => new Promise<void>(() => {}) });
    setBodyRate(req, { bytesPerSecond: 1000, graceMs: 30 });
    const started = Date.now();
    const e = await refusal(readLimited(req, 1024));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(e.status).toBe(408);
    expect(e.message).toBe(TOO_SLOW_MESSAGE);
    expect(e.headers).toEqual({ connection: 'close' });
  });

  it('answers a body the client broke off with a 400', async () => {
    const req = streamed({ pull: (c) => c.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })) });
    const e = await refusal(readLimited(req, 1024));
    expect(e.status).toBe(400);
    expect(e.message).toBe(UNREADABLE_BODY_MESSAGE);
  });

  it('takes the body rate from limits, defaults where unset', () => {
    expect(bodyRateOf({})).toEqual(DEFAULT_BODY_RATE);
    expect(bodyRateOf({ minBytesPerSecond: 0, bodyGraceMs: 5 })).toEqual({ bytesPerSecond: 0, graceMs: 5 });
  });
});

describe('server-kit body: media type and text', () => {
  it("tells JSON from XML, accepts only UTF-8, and uses the caller's 415 message", () => {
    expect(bodyKind('application/json', 'no')).toBe('json');
    expect(bodyKind('Application/JSON; charset="UTF-8"', 'no')).toBe('json');
    expect(bodyKind('text/xml;charset=utf8', 'no')).toBe('xml');
    expect(bodyKind('application/xml', 'no')).toBe('xml');
    for (const ct of [undefined, 'text/plain', 'application/json-seq']) {
      expect(() => bodyKind(ct, 'Solo JSON o XML.')).toThrow(expect.objectContaining({ status: 415, message: 'Solo JSON o XML.' }));
    }
    expect(() => bodyKind('application/json; charset=latin1', 'no')).toThrow(
      expect.objectContaining({ status: 415, message: 'Codificación no soportada (latin1): el cuerpo debe estar en UTF-8.' }),
    );
  });

  it('decodes UTF-8 (dropping a BOM) and returns null for invalid UTF-8', () => {
    expect(utf8Text(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xc3, 0xb1]))).toBe('añ');
    expect(utf8Text(new Uint8Array([0x61, 0xc3]))).toBeNull();
  });
});

describe('server-kit body: jsonDepthExceeds', () => {
  it('counts arrays and objects opened at once, up to the maximum', () => {
    expect(jsonDepthExceeds('[[[1]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[1]]]]', 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":[{"b":1}],"c":[[2]]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":{"c":{}}}}', 3)).toBe(true);
    // Siblings do not add up: depth goes back down when a container closes.
    expect(jsonDepthExceeds('[[1],[2],[3],[4]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, including after escaped quotes', () => {
    expect(jsonDepthExceeds('["[[[[", "{{{{"]', 1)).toBe(false);
    expect(jsonDepthExceeds('["\\"[[[[\\\\", 1]', 1)).toBe(false);
    expect(jsonDepthExceeds('["\\\\", [[1]]]', 2)).toBe(true);
  });

  it('defaults to MAX_JSON_DEPTH and handles a huge nesting without parsing it', () => {
    expect(jsonDepthExceeds('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds('['.repeat(2_000_000))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { EcfError } from '../../../src/shared/errors/index.js';
import { ApiError, envelopeResponse, formatBytes, tooLarge } from '../../../src/shared/server-kit/envelope.js';

describe('server-kit envelope', () => {
  it('ApiError carries status, message, document and headers, defaulting to none', () => {
    const bare = new ApiError(404, 'No existe.');
    expect(bare).toBeInstanceOf(EcfError);
    expect(bare).toMatchObject({ name: 'ApiError', code: 'api_error', status: 404, message: 'No existe.', document: null, headers: {} });
    const full = new ApiError(409, 'Conflicto.', { document: { errors: ['uno'] }, headers: { 'Retry-After': '3' } });
    expect(full.document).toEqual({ errors: ['uno'] });
    expect(full.headers).toEqual({ 'Retry-After': '3' });
  });

  it('writes sizes for messages and the 413 of a body over a limit', () => {
    expect(formatBytes(12 * 1024 * 1024)).toBe('12 MB');
    expect(formatBytes(64 * 1024)).toBe('64 KB');
    expect(formatBytes(1500)).toBe('1500 bytes');
    const e = tooLarge(2 * 1024 * 1024);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(413);
    expect(e.message).toBe('El cuerpo de la solicitud excede el límite de 2 MB (2097152 bytes).');
  });

  it('answers an envelope as UTF-8 JSON with the given status and extra headers', async () => {
    const res = envelopeResponse(503, { status: 'error', message: 'Ocupado.', document: { errors: ['Ocupado.'] } }, { 'Retry-After': '2' });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toEqual({ status: 'error', message: 'Ocupado.', document: { errors: ['Ocupado.'] } });
    expect(envelopeResponse(400, { status: 'error', message: 'x', document: null }).headers.get('retry-after')).toBeNull();
  });
});

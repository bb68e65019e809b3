/**
 * Seed authentication (DT pp. 7–11, 52–55): a seed with a random `valor`, returned signed; checked for
 * schema, signature, and that its `valor` was issued here, is unused and is fresh; then a bearer token.
 * The same flow serves DGII (`validarsemilla`) and the simulator's own receptor (`validacioncertificado`),
 * with separate audiences so one's token does not open the other.
 */
import { randomBytes } from 'node:crypto';
import { parseSemillaXml } from '../documents/semilla.js';
import { verifyXml } from '../sign/verify-xml.js';
import { errorReply, msg, type RouteInput, type RouteResult, type SimContext } from './context.js';
import { readXmlPart } from './multipart.js';
import { isoSeconds, seedDate } from './respond.js';
import type { Audience } from './store.js';

/** How long a seed may be signed and returned (DGII does not say; a few minutes). */
export const SEED_TTL_MS = 5 * 60_000;

/** `GET …/semilla`: DGII serves the seed pretty-printed, whatever the `Accept`. */
export function issueSeed(ctx: SimContext, env: string, audience: Audience): Response {
  const now = ctx.clock();
  const { seeds } = ctx.store.state;
  // Forget seeds nobody can use any more, so the state does not grow with every login.
  for (const [valor, s] of Object.entries(seeds)) {
    if (s.used || now.getTime() - Date.parse(s.issuedAt) > SEED_TTL_MS) delete seeds[valor];
  }
  const valor = randomBytes(48).toString('base64');
  seeds[valor] = { env, audience, issuedAt: now.toISOString(), used: false };
  ctx.store.changed();
  const xml =
    '<?xml version="1.0" encoding="utf-8"?>\r\n' +
    '<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">\r\n' +
    `  <valor>${valor}</valor>\r\n` +
    `  <fecha>${seedDate(now)}</fecha>\r\n` +
    '</SemillaModel>';
  return new Response(xml, { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } });
}

/** `POST …/validarsemilla` (multipart `xml` = the signed seed) → `{token, expira, expedido}`. */
export function validateSeed(ctx: SimContext, input: RouteInput, audience: Audience): RouteResult {
  const part = readXmlPart(input.req.headers.get('content-type'), input.body);
  if (!part) return errorReply(400, [msg('Multipart cannot be empty: envíe la semilla firmada en la parte "xml" del formulario.')]);
  const schema = ctx.schemas.validate(part.xml, 'Semilla');
  if (!schema.valid) {
    return errorReply(400, [
      msg(
        `La semilla no es válida según el esquema: ${schema.violations
          .map((v) => v.message.trim())
          .slice(0, 3)
          .join('; ')}`,
      ),
    ]);
  }
  const signature = verifyXml(part.xml);
  if (!signature.valid) return errorReply(400, [msg('Firma del certificado invalida')]);
  let valor: string;
  try {
    valor = String(parseSemillaXml(part.xml).data.valor ?? '');
  } catch {
    return errorReply(400, [msg('La semilla no es válida.')]);
  }
  const now = ctx.clock();
  const seed = ctx.store.state.seeds[valor];
  if (!seed || seed.env !== input.env || seed.audience !== audience) return errorReply(400, [msg('La semilla no fue emitida por este servicio.')]);
  if (seed.used) return errorReply(400, [msg('La semilla ya fue utilizada; solicite una nueva.')]);
  if (now.getTime() - Date.parse(seed.issuedAt) > SEED_TTL_MS) return errorReply(400, [msg('La semilla ha expirado; solicite una nueva.')]);
  seed.used = true;

  const token = randomBytes(32).toString('base64url');
  const expires = new Date(now.getTime() + ctx.tokenTtlMs);
  const { tokens } = ctx.store.state;
  for (const [t, r] of Object.entries(tokens)) if (Date.parse(r.expiresAt) <= now.getTime()) delete tokens[t];
  tokens[token] = { env: input.env, audience, issuedAt: now.toISOString(), expiresAt: expires.toISOString() };
  ctx.store.state.stats.tokens++;
  ctx.store.changed();
  return { body: { token, expira: isoSeconds(expires), expedido: isoSeconds(now) }, xmlRoot: 'RespuestaAutenticacion' };
}

/** True when the request carries a live `Authorization: Bearer` token of this environment and audience. */
export function hasValidToken(ctx: SimContext, input: RouteInput, audience: Audience): boolean {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(input.req.headers.get('authorization') ?? '');
  if (!m) return false;
  const record = ctx.store.state.tokens[m[1]!];
  return !!record && record.env === input.env && record.audience === audience && Date.parse(record.expiresAt) > ctx.clock().getTime();
}

/** The 401 DGII answers without a valid token. */
export function unauthorized(): RouteResult {
  const reply = errorReply(401, [msg('No autorizado: el token de autenticación no existe, no es válido o ha expirado.')]);
  return { ...reply, headers: { 'www-authenticate': 'Bearer' } };
}

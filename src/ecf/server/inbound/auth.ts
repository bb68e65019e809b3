/**
 * Seed authentication of the parties that call our receptor (DT pp. 52–55, §2.7/§2.12): a stateless seed
 * (issue time, nonce and a MAC over them and the scope, see seed-mac.ts; requesting one writes nothing); the
 * caller signs it and returns it to `validacioncertificado`; we check the XSD, verify the XMLDSig signature
 * for real (xml-crypto over the embedded certificate, not a digest compare, §3 item 12), that the certificate
 * is within its validity, and that the seed is one we issued for this scope and fresh (its MAC and time);
 * only then is its use recorded, atomically in storage until it expires, so several server processes agree
 * it is used once. Then a short-lived bearer token, of which only the SHA-256 is stored.
 */
import { randomBytes, X509Certificate } from 'node:crypto';
import { buildSemillaXml } from '../../index.js';
import { hashToken } from '../../../shared/server-kit/tokens.js';
import type { InboundToken } from '../storage/types.js';
import type { InboundContext, Route } from './context.js';
import { checkSigner } from './trust.js';
import { readXmlUpload } from './multipart.js';
import { failure, formatOf, isoSeconds, reply, seedDate } from './respond.js';
import { parseUntrustedXml, rootName, textAt, XmlInputError } from './xml.js';

/** Expired seeds and tokens are deleted at most this often (on seed requests). */
const PRUNE_EVERY_MS = 60_000;

export interface SeedService {
  issueSeed(route: Route): Promise<Response>;
  validateCertificate(req: Request, route: Route, body: Uint8Array): Promise<Response>;
  /** The live bearer token of the request when it is valid for the route, else null. */
  authenticate(req: Request, route: Route): Promise<InboundToken | null>;
  /** True when the request carries a live bearer token valid for the route. */
  authorized(req: Request, route: Route): Promise<boolean>;
}

export function createSeedService(ctx: InboundContext): SeedService {
  let lastPrune = Number.NEGATIVE_INFINITY;

  async function pruneMaybe(now: number): Promise<void> {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    try {
      await ctx.storage.pruneInboundAuth(now);
    } catch (err) {
      ctx.log.warn({ err }, 'inbound: pruning expired seeds and tokens failed');
    }
  }

  /** Checks the seed's MAC and age, then records its use (the only write, after the signature was verified). */
  async function useSeed(valor: string | null, scope: string, now: number): Promise<'ok' | 'unknown' | 'used' | 'expired'> {
    if (valor === null) return 'unknown';
    const check = ctx.seedMac.check(valor.trim(), scope, now);
    if (!check.ok) return check.reason;
    await pruneMaybe(now);
    const first = await ctx.storage.useInboundSeed({ valor: valor.trim(), scope, createdAt: check.issuedAt, expiresAt: check.expiresAt, usedAt: now });
    return first ? 'ok' : 'used';
  }

  return {
    async issueSeed(route) {
      // Nothing is written: a request without credentials must not cost a database row (pruning deletes
      // expired rows at most once a minute).
      const now = ctx.clock();
      await pruneMaybe(now.getTime());
      const valor = ctx.seedMac.issue(route.scope, now.getTime());
      // Compact (not pretty-printed like DGII's): whitespace in a seed is the classic signing pitfall (§3 item 1).
      return new Response(buildSemillaXml({ valor, fecha: seedDate(now) }), { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' } });
    },

    async validateCertificate(req, route, body) {
      const format = formatOf(req);
      const upload = readXmlUpload(req.headers.get('content-type'), body);
      if (!upload) return failure(400, ['Multipart cannot be empty: envíe la semilla firmada en la parte "xml" del formulario (multipart/form-data).'], format);
      let valor: string | null;
      try {
        const doc = parseUntrustedXml(upload.xml);
        if (rootName(doc) !== 'SemillaModel') return failure(400, [`Se esperaba una semilla (SemillaModel); el elemento raíz es ${rootName(doc)}.`], format);
        valor = textAt(doc, ['valor']);
      } catch (e) {
        if (e instanceof XmlInputError) return failure(400, [e.message], format);
        throw e;
      }
      const schema = await ctx.offload.validate(upload.xml, 'Semilla', undefined, 'request');
      if (!schema.valid) {
        return failure(
          400,
          [
            `La semilla no es válida según el esquema: ${schema.violations
              .slice(0, 3)
              .map((v) => v.message.trim())
              .join('; ')}`,
          ],
          format,
        );
      }
      const signature = await ctx.offload.verify(upload.xml, 'request');
      if (!signature.valid) {
        ctx.log.warn({ scope: route.scope, code: signature.code, reason: signature.reason }, 'inbound: seed signature invalid');
        return failure(401, ['Firma del certificado inválida: la firma digital de la semilla no se verifica.'], format);
      }
      const now = ctx.clock();
      try {
        const cert = new X509Certificate(Buffer.from(signature.certificate!, 'base64'));
        if (now.getTime() > Date.parse(cert.validTo))
          return failure(401, [`El certificado que firmó la semilla venció el ${new Date(cert.validTo).toISOString()}.`], format);
        if (now.getTime() < Date.parse(cert.validFrom)) return failure(401, ['El certificado que firmó la semilla aún no es válido.'], format);
      } catch {
        return failure(401, ['El certificado que firmó la semilla no se puede leer.'], format);
      }
      // Trust: issued by a configured accredited CA (any certificate in development trust).
      const signer = checkSigner(ctx.trust, signature.certificate, now);
      if (!signer.ok) {
        ctx.log.warn({ scope: route.scope, reason: signer.reason }, 'inbound: seed signer not trusted');
        return failure(
          401,
          ['El certificado que firmó la semilla no es válido o no fue emitido por una entidad de certificación reconocida por este receptor.'],
          format,
        );
      }
      const { subject, principals } = signer.identity;
      const outcome = await useSeed(valor, route.scope, now.getTime());
      if (outcome !== 'ok') {
        ctx.log.warn({ scope: route.scope, outcome, subject }, 'inbound: seed refused');
        const why = {
          unknown: 'La semilla no fue emitida por este servicio.',
          used: 'La semilla ya fue utilizada; solicite una nueva.',
          expired: 'La semilla ha expirado; solicite una nueva.',
        }[outcome];
        return failure(401, [why], format);
      }
      const token = randomBytes(32).toString('base64url');
      const expires = new Date(now.getTime() + ctx.tokenTtlMs);
      // The token acts only for the RNCs of the certificate that signed the seed (and those it is a delegate of).
      await ctx.storage.addInboundToken({
        hash: hashToken(token),
        scope: route.scope,
        subject,
        principals,
        createdAt: now.getTime(),
        expiresAt: expires.getTime(),
      });
      ctx.log.info({ scope: route.scope, subject, principals }, 'inbound: token issued');
      return reply(200, { token, expira: isoSeconds(expires), expedido: isoSeconds(now) }, 'RespuestaAutenticacion', format);
    },

    async authenticate(req, route) {
      const m = /^\s*bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '');
      if (!m) return null;
      const token = await ctx.storage.findInboundToken(hashToken(m[1]!), ctx.clock().getTime());
      // A token from the server root opens every tenant; one obtained under a tenant's prefix only that tenant.
      return token && (token.scope === '' || token.scope === route.scope) ? token : null;
    },

    async authorized(req, route) {
      return (await this.authenticate(req, route)) !== null;
    },
  };
}

/** The simulator's outbound HTTP (global fetch) to taxpayers' receptors: login, multipart posts, answers. */
import { EcfError } from '../../shared/errors/ecf-error.js';
import { signXml } from '../sign/sign-xml.js';
import type { SimContext } from './context.js';

const OUTBOUND_TIMEOUT_MS = 15_000;

/** True for an absolute http(s) URL. */
export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The full URL of a receptor service from what the taxpayer registered: the service URL itself
 * (`…/fe/recepcion/api/ecf`), its base (`…/fe/recepcion`) or the host (`https://host`).
 */
export function endpoint(url: string, base: string, service: string): string {
  const u = new URL(url);
  const path = u.pathname.replace(/\/+$/, '');
  const lower = path.toLowerCase();
  if (lower.endsWith(`${base}${service}`)) u.pathname = path;
  else if (lower.endsWith(base)) u.pathname = `${path}${service}`;
  else u.pathname = `${path}${base}${service}`;
  return u.toString();
}

/** Logs in to a taxpayer's receptor: seed, signed with the simulator's certificate, for a token. */
export async function authenticate(ctx: SimContext, urlAutenticacion: string): Promise<string> {
  // A registered seed URL (`…/api/semilla`) or the service base; validacioncertificado is its sibling.
  const semillaUrl = endpoint(urlAutenticacion.replace(/\/api\/validacioncertificado\/?$/i, '/api/semilla'), '/fe/autenticacion', '/api/semilla');
  const validarUrl = semillaUrl.replace(/\/api\/semilla$/i, '/api/validacioncertificado');
  const seedRes = await fetch(semillaUrl, { signal: AbortSignal.timeout(OUTBOUND_TIMEOUT_MS) });
  const seedText = await seedRes.text();
  if (!seedRes.ok) throw new EcfError(`la semilla del receptor respondió HTTP ${seedRes.status}.`, { code: 'receiver_failed' });
  const seed = extractDocument(seedText, 'SemillaModel');
  if (!seed) throw new EcfError('la respuesta de la semilla no contiene un SemillaModel.', { code: 'receiver_failed' });
  const signedSeed = await signXml(seed, ctx.identity().signer);
  const res = await postXml(validarUrl, 'semilla.xml', signedSeed, null, 'application/json');
  const text = await res.text();
  if (!res.ok) throw new EcfError(`la validación del certificado respondió HTTP ${res.status}: ${text.slice(0, 300)}`, { code: 'receiver_failed' });
  let token: string | null = null;
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    token = typeof j.token === 'string' ? j.token : typeof j.Token === 'string' ? j.Token : null;
  } catch {
    token = /<token>([^<]+)<\/token>/i.exec(text)?.[1] ?? null;
  }
  if (!token) throw new EcfError('la validación del certificado no devolvió un token.', { code: 'receiver_failed' });
  return token;
}

export async function postXml(url: string, fileName: string, xml: string, token: string | null, accept = 'application/xml'): Promise<Response> {
  const form = new FormData();
  form.append('xml', new Blob([xml], { type: 'text/xml' }), fileName);
  const headers: Record<string, string> = { accept };
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(url, { method: 'POST', body: form, headers, signal: AbortSignal.timeout(OUTBOUND_TIMEOUT_MS) });
}

/** The `<root>…</root>` document inside an answer (bare XML, a JSON string, or a multipart body). */
export function extractDocument(text: string, root: string): string | null {
  let t = text;
  if (t.trimStart().startsWith('"')) {
    try {
      t = JSON.parse(t) as string;
    } catch {
      // not a JSON string: search the text as it is
    }
  }
  const start = t.search(new RegExp(`<${root}[\\s>]`));
  const endTag = `</${root}>`;
  const end = t.lastIndexOf(endTag);
  if (start < 0 || end < start) return null;
  const decl = /<\?xml[^>]*\?>/.exec(t.slice(0, start));
  return `${decl ? decl[0] : ''}${t.slice(start, end + endTag.length)}`;
}

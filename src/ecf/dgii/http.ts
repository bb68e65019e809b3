/**
 * DGII's plug-in to the generic HTTP core (`../../shared/http/core.ts`): the answer interpreter that reads DGII's
 * refusals (messages in objects, bare strings or HTML pages; a track id), the core as both DGII clients
 * build it, and the hand-built multipart body DGII accepts.
 */
import { randomBytes } from 'node:crypto';
import { RECEIVER_ADDRESS_REFUSED } from './receiver-guard.js';
import { authorityRefusal, HttpCore, type AnswerInterpreter, type HttpInternals, type HttpLogger, type HttpOptions } from '../../shared/http/core.js';
import { errorMessages, errorTrackId, parseBody } from './parse.js';
import type { XmlFile } from './types.js';

export { HttpCore, parseRetryAfter, type HttpOptions, type HttpRequest, type HttpResponse, type HttpInternals } from '../../shared/http/core.js';

/**
 * Optional logger (pino-compatible: object first, message second). Tokens and document bodies are
 * never logged.
 */
export type DgiiLogger = HttpLogger;

/**
 * DGII's reading of a definitive refusal (a 4xx other than 408 and 429): its messages and track id,
 * normalised, in an `AuthorityError`. Every other answer is left to the core ("not mine").
 */
export const dgiiAnswerInterpreter: AnswerInterpreter = (req, res) => {
  const { status } = res;
  if (status < 400 || status >= 500 || status === 408 || status === 429) return undefined;
  const body = parseBody(res.text, res.contentType);
  return authorityRefusal(req, res, errorMessages(body), errorTrackId(body));
};

/**
 * The HTTP core of the DGII and receptor clients: DGII's answer interpreter plugged in, and the receiver
 * address guard's refusals recognised (`receiver-guard.ts`).
 */
export function createDgiiHttp(options: HttpOptions = {}, internals: Omit<HttpInternals, 'interpret' | 'addressGuard'> = {}): HttpCore {
  return new HttpCore(options, {
    ...internals,
    interpret: dgiiAnswerInterpreter,
    addressGuard: { code: RECEIVER_ADDRESS_REFUSED, label: 'receiver address guard' },
  });
}

/**
 * The multipart body DGII accepts: one part named `xml` with the DGII file name and
 * `Content-Type: text/xml`, UTF-8, built in memory so the request carries an exact
 * `Content-Length` (DGII answers "Multipart cannot be empty" to a streamed, chunked body).
 *
 * @example
 * const { body, contentType } = multipartXml({ fileName: '130000001E310000000001.xml', xml: signed });
 * // contentType: 'multipart/form-data; boundary=----ecfkit…'; body: Uint8Array
 */
export function multipartXml(file: XmlFile, boundary?: string): { body: Uint8Array; contentType: string } {
  const content = Buffer.from(file.xml, 'utf8');
  let b = boundary ?? `----ecfkit${randomBytes(16).toString('hex')}`;
  while (!boundary && content.includes(b)) b = `----ecfkit${randomBytes(16).toString('hex')}`;
  // Quote escaping per the HTML multipart/form-data algorithm.
  const name = file.fileName.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const head = Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="xml"; filename="${name}"\r\nContent-Type: text/xml\r\n\r\n`, 'utf8');
  const tail = Buffer.from(`\r\n--${b}--\r\n`, 'utf8');
  return { body: new Uint8Array(Buffer.concat([head, content, tail])), contentType: `multipart/form-data; boundary=${b}` };
}

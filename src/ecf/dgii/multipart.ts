/**
 * Reading DGII-style multipart uploads: the file name of a part. DGII's clients (and DGII itself, when it
 * posts to taxpayers) write `filename=` quoted or not, or only `filename*=utf-8''…`. One reader for the
 * simulator and the server's inbound endpoints. Pure.
 */

/**
 * The file name in a `Content-Disposition` header value (the text after the colon): `filename=` (quoted or
 * not) first, else `filename*=` (charset and language dropped, percent-decoded when that decodes); '' when
 * there is none. `utf8: true` when the header was read as latin1 (one char per byte) and a plain file name
 * should be decoded as UTF-8 (BOM removed).
 *
 * @example
 * multipartFileName(' form-data; name="xml"; filename="130000001E310000000001.xml"') //=> '130000001E310000000001.xml'
 * multipartFileName("form-data; name=xml; filename*=utf-8''a%20b.xml") //=> 'a b.xml'
 */
export function multipartFileName(disposition: string, options: { utf8?: boolean } = {}): string {
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"([^"]*)"|([^;]*))/i.exec(disposition);
  if (plain) {
    const name = (plain[1] ?? plain[2] ?? '').trim();
    return options.utf8
      ? Buffer.from(name, 'latin1')
          .toString('utf8')
          .replace(/^\uFEFF/, '')
      : name;
  }
  const ext = /(?:^|;)\s*filename\*\s*=\s*(?:[\w-]*'[^']*')?([^;]*)/i.exec(disposition);
  if (ext) {
    try {
      return decodeURIComponent(ext[1]!.trim());
    } catch {
      return ext[1]!.trim();
    }
  }
  return '';
}

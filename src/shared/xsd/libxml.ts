/**
 * The only file that talks to libxmljs. It uses the low-level libxml2 bindings of libxmljs 1.x directly, because:
 * - `XMLDocument.validate(xsdDoc)` recompiles the XSD on every call (slow: a compiled schema is what we cache);
 * - parsed documents are freed only by the garbage collector, and an explicit `xmlFreeDoc` leaves a wrapper behind
 *   (libxmljs issue #652; there is no `document.free()` in 1.0.11);
 * - string arguments are copied to C and never freed by the bindings, so only `Buffer`s / `null` are passed here.
 * Validation therefore streams (`xmlSchemaValidateStream`, SAX, no tree): libxml2 frees everything it allocates
 * before returning and no per-document JavaScript wrapper of native memory is created.
 */
import { EcfError } from '../errors/ecf-error.js';
import * as bindings from 'libxmljs/dist/lib/bindings/functions.js';

/** An error as libxml2 reports it (`xmlError`), copied by libxmljs. */
export interface RawXmlError {
  domain: number;
  code: number;
  message: string;
  /** 1 warning, 2 error, 3 fatal. */
  level: number;
  line: number;
  /** Column, 1-based, in characters (code points) from the start of `line`; 0 when unknown. */
  column: number;
}

type Opaque = object;
interface Libxml2 {
  withStructuredErrors<T>(fn: (errors: RawXmlError[]) => T): T;
  xmlSchemaNewMemParserCtxt(buffer: Buffer, size: number): Opaque | null;
  xmlSchemaParse(ctxt: Opaque): Opaque | null;
  xmlSchemaFreeParserCtxt(ctxt: Opaque): void;
  xmlSchemaNewValidCtxt(schema: Opaque): Opaque | null;
  xmlParserInputBufferCreateMem(mem: Buffer, size: number, enc: number): Opaque | null;
  xmlSchemaValidateStream(ctxt: Opaque, input: Opaque, enc: number, sax: null, userData: null): number;
}

const lx = bindings as unknown as Libxml2;
const XML_CHAR_ENCODING_UTF8 = 1;

/** Level of libxml2 errors that count as violations (warnings do not). */
export const XML_ERR_ERROR = 2;
export const XML_ERR_FATAL = 3;
/** libxml2 error domain of the XML parser (well-formedness), as opposed to 17 = schema validation. */
export const XML_FROM_PARSER = 1;

export interface CompiledSchema {
  /** Streams `utf8` through the schema. `code` is 0 when valid, > 0 on violations, < 0 on internal/API errors. */
  validate(utf8: Buffer): { code: number; errors: RawXmlError[] };
}

export class XsdCompileError extends EcfError {
  constructor(readonly errors: string[]) {
    super(errors.join('; ') || 'libxml2 could not compile the schema', { code: 'xsd_compile_failed' });
    this.name = 'XsdCompileError';
  }
}

/**
 * Compiles an XSD (text). The compiled schema and its validation context live for the life of the process
 * (they are cached by the validator and are few).
 */
export function compileSchema(xsdText: string): CompiledSchema {
  const buf = Buffer.from(xsdText, 'utf8');
  const compiled = lx.withStructuredErrors((errors) => {
    const pctxt = lx.xmlSchemaNewMemParserCtxt(buf, buf.length);
    if (!pctxt) return { schema: null, errors };
    const schema = lx.xmlSchemaParse(pctxt);
    lx.xmlSchemaFreeParserCtxt(pctxt);
    return { schema, errors };
  });
  if (!compiled.schema) throw new XsdCompileError(compiled.errors.map((e) => e.message.trim()));
  const vctxt = lx.xmlSchemaNewValidCtxt(compiled.schema);
  if (!vctxt) throw new XsdCompileError(['libxml2 could not create a validation context']);
  // Keep the schema reachable from the context holder so neither wrapper is collected while in use.
  const keep = { schema: compiled.schema, vctxt };
  return {
    validate(utf8: Buffer) {
      return lx.withStructuredErrors((errors) => {
        // The input buffer is copied by libxml2 and freed by xmlSchemaValidateStream (with its parser context).
        const input = lx.xmlParserInputBufferCreateMem(utf8, utf8.length, XML_CHAR_ENCODING_UTF8);
        if (!input) return { code: -1, errors };
        const code = lx.xmlSchemaValidateStream(keep.vctxt, input, XML_CHAR_ENCODING_UTF8, null, null);
        return { code, errors };
      });
    },
  };
}

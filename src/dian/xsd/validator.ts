/**
 * `createDianSchemaValidator(dir)`: validation against the DIAN XSD set (see docs/dian.md, "XSD set").
 *
 * How the set's quirks (/work/shared/dian-xsd/README.md) are handled, all in memory, the files never edited:
 * - The schemas import each other across sibling folders (`../common/…`). Each document's entry schema is read,
 *   its relative `schemaLocation`s are anchored to its file (a reported fix, kind `anchor-imports`), and libxml2
 *   reads the imported files from the XSD directory. The compile cache is keyed by the entry text and the hashes of
 *   all 22 files, so a changed import is never served from a stale compile.
 * - `DIAN_UBL_Structures.xsd` is pinned and installed but is not a gate: no document's schema imports it and it
 *   rejects every real `sts:DianExtensions` (`schemeID` restricted to ID-type codes). `sts:DianExtensions` sits in
 *   the lax `ext:ExtensionContent`, so it is not validated here (both `sts` namespaces DIAN uses pass); project
 *   rules check it.
 * - At least one `ext:UBLExtension` is required once `ext:UBLExtensions` is present; an unsigned document with
 *   the empty placeholder validates with the `unsigned` option (DianSchemaValidateOptions).
 * - libxml2 refuses an `xs:integer` of more than 24 digits, the type of `ds:X509SerialNumber` in the signature's
 *   `xades:IssuerSerial`; real certificate serials are longer, so such digits are zero-padded in memory first
 *   (./serials.ts), length kept.
 * - CRLF line ends and UTF-8 text need nothing.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { SchemaError } from '../../shared/errors/index.js';
import type { SchemaValidationResult, SchemaValidator } from '../../shared/ports.js';
import { anchorSchemaLocations } from '../../shared/xsd/anchor.js';
import { verifyPinnedXsdDir, type XsdDirCheck } from '../../shared/xsd/install.js';
import { compileSchema, XsdCompileError, type CompiledSchema } from '../../shared/xsd/libxml.js';
import { loadPinnedXsdSet, type LoadedXsdSet } from '../../shared/xsd/load.js';
import { prepare, toViolations } from '../../shared/xsd/violations.js';
import { DIAN_XSD_MANIFEST } from './pinned.js';
import { fillEmptyUblExtensions } from './placeholder.js';
import { relaxLongSerials } from './serials.js';
import { DIAN_SCHEMA_FILES, DIAN_SCHEMA_IDS, isDianSchemaId, type DianSchemaId, type DianSchemaValidateOptions } from './schemas.js';

/** One in-memory change made to an entry schema so it compiles from memory. */
export interface DianXsdFix {
  file: string;
  kind: 'anchor-imports';
  /** How many locations were rewritten. */
  count: number;
  /** English description: each `relative → file:///…` location. */
  detail: string;
}

/** A `SchemaValidator` over a DIAN XSD directory. */
export interface DianXsdSchemaValidator extends SchemaValidator<DianSchemaId, DianSchemaValidateOptions> {
  /** Absolute path of the XSD directory. */
  readonly dir: string;
  /** The in-memory fixes made to the entry schemas (anchored imports). */
  fixesApplied(): DianXsdFix[];
  /** The 22 files of the set against their pinned SHA-256 (read when the validator was created). */
  check(): XsdDirCheck;
  /** Compiles (and caches) a document's schema now instead of on first use; `'all'` compiles the seven. */
  compile(schema: DianSchemaId | 'all'): void;
}

// Compiled schemas are shared by every validator in the process (libxml2 schemas are never freed): one per
// distinct entry text and set of file hashes.
const compiledCache = new Map<string, CompiledSchema>();

/**
 * Creates a validator over the DIAN XSD set in `dir` (laid out as `maindoc/`, `common/`, `payroll/`). Every file
 * is read and hashed now, so a missing directory or file throws a `SchemaError` here; each document's schema is
 * compiled by libxml2 the first time it is used, then cached.
 */
export function createDianSchemaValidator(dir: string): DianXsdSchemaValidator {
  const abs = resolve(dir);
  const set: LoadedXsdSet<DianSchemaId, DianXsdFix> = loadPinnedXsdSet(abs, {
    manifest: DIAN_XSD_MANIFEST,
    ids: DIAN_SCHEMA_IDS,
    fileOf: DIAN_SCHEMA_FILES,
    fix: (file, bytes) => {
      const { text, anchored } = anchorSchemaLocations(new TextDecoder('utf-8').decode(bytes), join(abs, file));
      return { text, fixes: anchored.length ? [{ file, kind: 'anchor-imports', count: anchored.length, detail: anchored.join('; ') }] : [] };
    },
  });
  const check = verifyPinnedXsdDir(abs, DIAN_XSD_MANIFEST);
  const setKey = check.files.map((f) => `${f.file}:${f.actual}`).join('\n');
  const local = new Map<DianSchemaId, CompiledSchema>();

  const compiled = (schema: DianSchemaId): CompiledSchema => {
    if (!isDianSchemaId(schema)) {
      throw new SchemaError(`Unknown schema "${String(schema)}"; expected one of ${DIAN_SCHEMA_IDS.join(', ')}`, { code: 'schema_unknown' });
    }
    const hit = local.get(schema);
    if (hit) return hit;
    const file = set.files[schema];
    const key = createHash('sha256').update(file.text).update('\n').update(setKey).digest('hex');
    let c = compiledCache.get(key);
    if (!c) {
      try {
        c = compileSchema(file.text);
      } catch (e) {
        const detail = e instanceof XsdCompileError ? e.errors.slice(0, 5).join('; ') : (e as Error).message;
        throw new SchemaError(`Cannot compile ${file.file} from ${set.dir}: ${detail}`, { code: 'xsd_compile_failed', cause: e });
      }
      compiledCache.set(key, c);
    }
    local.set(schema, c);
    return c;
  };

  return {
    dir: set.dir,
    fixesApplied: () => set.fixes.map((f) => ({ ...f })),
    check: () => ({ ...check, files: check.files.map((f) => ({ ...f })) }),
    compile(schema) {
      for (const id of schema === 'all' ? DIAN_SCHEMA_IDS : [schema]) compiled(id);
    },
    validate(xml: string, schema: DianSchemaId, options?: DianSchemaValidateOptions): SchemaValidationResult {
      const c = compiled(schema);
      let text = prepare(xml);
      if (text.trim() === '') return { valid: false, violations: [{ xpath: null, message: 'Document is empty', line: null, column: null }] };
      if (options?.unsigned === true) text = fillEmptyUblExtensions(text).text;
      text = relaxLongSerials(text).text;
      const { code, errors } = c.validate(Buffer.from(text, 'utf8'));
      if (code === 0) return { valid: true, violations: [] };
      return { valid: false, violations: toViolations(text, errors, code) };
    },
  };
}

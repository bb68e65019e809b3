import { createHash } from 'node:crypto';
import type { SchemaValidationResult } from '../../shared/ports.js';
import type { SchemaId, SchemaValidateOptions, SchemaValidator } from '../ports.js';
import { SchemaError } from '../../shared/errors/index.js';
import type { XsdFix } from './fixes.js';
import { compileSchema, XsdCompileError, type CompiledSchema } from '../../shared/xsd/libxml.js';
import { loadXsdSet, type LoadedXsd, type XsdSet } from './load.js';
import { prepare, toViolations } from '../../shared/xsd/violations.js';
import { relax32 } from './relax32.js';
import { isSchemaId, SCHEMA_IDS } from './schemas.js';

/** A `SchemaValidator` over an XSD directory, with what was done to the files to compile them. */
export interface XsdSchemaValidator extends SchemaValidator {
  /** Absolute path of the XSD directory. */
  readonly dir: string;
  /** In-memory fixes applied to the files as served (BOM, blank in a type name, `(?:` in patterns). */
  fixesApplied(): XsdFix[];
  /** The fifteen files: name, path, SHA-256 and whether it matches the pinned hash. */
  files(): Array<Omit<LoadedXsd, 'text'>>;
  /** The exact changes the `relaxed32` variant makes to e-CF-32 (see relax32.ts). */
  relaxed32Changes(): string[];
  /** Compiles (and caches) a schema now instead of on first use; `'all'` compiles the fifteen. */
  compile(schema: SchemaId | 'all', options?: SchemaValidateOptions): void;
}

// Compiled schemas are shared by every validator in the process, keyed by the hash of the compiled text:
// libxml2 schemas are never freed, so this bounds memory to one copy per distinct XSD.
const compiledCache = new Map<string, CompiledSchema>();

/**
 * Creates a validator over the official XSD files in `dir` (see /work/shared/dgii-xsd/README.md for the set).
 * The files are read (and fixed in memory) now, so a missing directory or file throws a `SchemaError` here;
 * each schema is compiled by libxml2 the first time it is used, then cached.
 */
export function createSchemaValidator(dir: string): XsdSchemaValidator {
  const set: XsdSet = loadXsdSet(dir);
  const local = new Map<string, CompiledSchema>();
  let relaxed: { text: string; changes: string[] } | null = null;
  const relaxedText = () => (relaxed ??= relax32(set.files['ECF-32'].text));

  const compiled = (schema: SchemaId, options?: SchemaValidateOptions): CompiledSchema => {
    if (!isSchemaId(schema)) throw new SchemaError(`Unknown schema "${String(schema)}"; expected one of ${SCHEMA_IDS.join(', ')}`, { code: 'schema_unknown' });
    const isRelaxed = schema === 'ECF-32' && options?.relaxed32 === true;
    const key = isRelaxed ? 'ECF-32+relaxed32' : schema;
    const hit = local.get(key);
    if (hit) return hit;
    const file = set.files[schema];
    const text = isRelaxed ? relaxedText().text : file.text;
    const hash = createHash('sha256').update(text).digest('hex');
    let c = compiledCache.get(hash);
    if (!c) {
      try {
        c = compileSchema(text);
      } catch (e) {
        const detail = e instanceof XsdCompileError ? e.errors.slice(0, 5).join('; ') : (e as Error).message;
        throw new SchemaError(`Cannot compile ${file.file}${isRelaxed ? ' (relaxed32)' : ''} from ${set.dir}: ${detail}`, {
          code: 'xsd_compile_failed',
          cause: e,
        });
      }
      compiledCache.set(hash, c);
    }
    local.set(key, c);
    return c;
  };

  return {
    dir: set.dir,
    fixesApplied: () => set.fixes.map((f) => ({ ...f })),
    files: () =>
      SCHEMA_IDS.map((id) => {
        const { text: _t, ...rest } = set.files[id];
        return { ...rest, fixes: rest.fixes.map((f) => ({ ...f })) };
      }),
    relaxed32Changes: () => [...relaxedText().changes],
    compile(schema, options) {
      for (const id of schema === 'all' ? SCHEMA_IDS : [schema]) compiled(id, options);
    },
    validate(xml: string, schema: SchemaId, options?: SchemaValidateOptions): SchemaValidationResult {
      const c = compiled(schema, options);
      const text = prepare(xml);
      if (text.trim() === '') return { valid: false, violations: [{ xpath: null, message: 'Document is empty', line: null, column: null }] };
      const { code, errors } = c.validate(Buffer.from(text, 'utf8'));
      if (code === 0) return { valid: true, violations: [] };
      return { valid: false, violations: toViolations(text, errors, code) };
    },
  };
}

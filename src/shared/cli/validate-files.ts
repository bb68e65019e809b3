/**
 * The file loop of a product's `validate` command: read each file, insist on UTF-8, find its schema, validate,
 * print `valid (label)` or one line per violation. Exit code 0 all valid, 1 some invalid, 2 a file that cannot be
 * read, a schema that cannot be told, or a validator that fails. The product supplies the words and the schema.
 */
import type { SchemaValidationResult, SchemaViolation } from '../ports.js';
import type { CliIo } from './command.js';

export interface ValidateFilesPlan<Id extends string> {
  /** The command as messages name it (`ecf validate`). */
  command: string;
  files: readonly string[];
  /** Said of a file that is not UTF-8 (`… documents must be UTF-8`). */
  utf8Rule: string;
  /** The schema of a document; null when it cannot be told. */
  schemaOf(xml: string): Id | null;
  /** What is added to "cannot tell the schema from the root element" (may be empty). */
  undetected(xml: string): string;
  validate(xml: string, schema: Id): SchemaValidationResult;
  /** The text inside `valid (…)`. */
  label(schema: Id): string;
}

/** A violation as one line: its element path, else its line and column, then the engine's message. */
export function formatViolation(v: SchemaViolation): string {
  const where = v.xpath ?? (v.line !== null ? `line ${v.line}${v.column !== null ? `:${v.column}` : ''}` : '(document)');
  return `${where}: ${v.message}`;
}

export async function validateFiles<Id extends string>(plan: ValidateFilesPlan<Id>, io: CliIo): Promise<number> {
  const prefix = plan.files.length > 1;
  let exit = 0;
  for (const file of plan.files) {
    const p = prefix ? `${file}: ` : '';
    let xml: string;
    try {
      const bytes = await io.readFile(file);
      try {
        xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        io.stdout(`${p}(document): not valid UTF-8 (${plan.utf8Rule})\n`);
        exit = Math.max(exit, 1);
        continue;
      }
    } catch (e) {
      io.stderr(`${plan.command}: cannot read ${file}: ${(e as Error).message}\n`);
      return 2;
    }
    const schema = plan.schemaOf(xml);
    if (!schema) {
      io.stderr(`${plan.command}: ${file}: cannot tell the schema from the root element${plan.undetected(xml)}; pass --schema ID\n`);
      return 2;
    }
    let result: SchemaValidationResult;
    try {
      result = plan.validate(xml, schema);
    } catch (e) {
      io.stderr(`${plan.command}: ${(e as Error).message}\n`);
      return 2;
    }
    if (result.valid) {
      io.stdout(`${p}valid (${plan.label(schema)})\n`);
    } else {
      for (const v of result.violations) io.stdout(`${p}${formatViolation(v)}\n`);
      exit = Math.max(exit, 1);
    }
  }
  return exit;
}

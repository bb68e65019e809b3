/**
 * The DIAN examples (examples/dian/) and their golden XMLs (test/dian/fixtures/golden/): the same build the CLI
 * does, with a fixed clock and `today` = the example's own date, so the bytes never depend on when they are built.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildDianXml, DIAN_KINDS, type BuildDianXmlResult, type DianContext, type DianKindId } from '../../../src/dian/index.js';
import { repoRoot } from './env.js';

export const EXAMPLES_DIR = resolve(repoRoot, 'examples/dian');
export const GOLDEN_DIR = resolve(repoRoot, 'test/dian/fixtures/golden');
export const EXAMPLE_KINDS = Object.keys(DIAN_KINDS) as DianKindId[];
export const EXAMPLE_SIZES = ['min', 'max'] as const;
export type ExampleSize = (typeof EXAMPLE_SIZES)[number];

/** The examples' clock: never read (every example carries `date` and `time`), fixed so that nothing could vary. */
export const EXAMPLE_NOW = new Date('2025-03-14T15:24:37Z');

export const exampleFile = (kind: DianKindId, size: ExampleSize) => resolve(EXAMPLES_DIR, `${kind}.${size}.json`);
export const goldenFile = (kind: DianKindId, size: ExampleSize) => resolve(GOLDEN_DIR, `${kind}.${size}.xml`);

/** examples/dian/context.json as a DianContext with the fixed clock. */
export function exampleContext(): DianContext {
  return { ...(JSON.parse(readFileSync(resolve(EXAMPLES_DIR, 'context.json'), 'utf8')) as Omit<DianContext, 'now'>), now: () => EXAMPLE_NOW };
}

export function exampleRequest(kind: DianKindId, size: ExampleSize): Record<string, unknown> {
  return JSON.parse(readFileSync(exampleFile(kind, size), 'utf8')) as Record<string, unknown>;
}

/** Builds an example as `ecf dian build --today <its date>` does. */
export function buildExample(kind: DianKindId, size: ExampleSize): BuildDianXmlResult {
  const request = exampleRequest(kind, size);
  return buildDianXml(kind, request, exampleContext(), { today: request.date as string });
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/env.js';

/** A recorded authority answer from test/ecf/fixtures/authority, as text. */
export function fixture(name: string): string {
  return readFileSync(join(repoRoot, 'test', 'ecf', 'fixtures', 'authority', name), 'utf8');
}

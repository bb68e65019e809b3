import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { repoRoot } from '../../ecf/helpers/env.js';

export { repoRoot };

/** The DIAN XSD directory the tests use: DIAN_XSD_DIR, else ../shared/dian-xsd beside the checkout. */
export function dianXsdDir(): string {
  const dir = process.env.DIAN_XSD_DIR ? resolve(process.env.DIAN_XSD_DIR) : resolve(repoRoot, '../shared/dian-xsd');
  if (!existsSync(dir)) throw new Error(`DIAN XSD directory not found: ${dir} (set DIAN_XSD_DIR)`);
  return dir;
}

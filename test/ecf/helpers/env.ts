import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The official XSD directory the tests use: ECF_XSD_DIR, else ../shared/dgii-xsd beside the checkout. */
export function xsdDir(): string {
  const dir = process.env.ECF_XSD_DIR ? resolve(process.env.ECF_XSD_DIR) : resolve(repoRoot, '../shared/dgii-xsd');
  if (!existsSync(dir)) throw new Error(`XSD directory not found: ${dir} (set ECF_XSD_DIR)`);
  return dir;
}

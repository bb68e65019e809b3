/**
 * The kernel (src/shared) speaks no product's language: no authority, document or tax-id word of the
 * Dominican (DGII, e-CF, e-NCF, RNC, ITBIS) or Colombian (DIAN, CUFE, CUDE, NIT, UBL) products, in code or
 * comments. The kit's own name (`EcfError`, the `ECF_` environment prefix, `ecf_` tokens) is not a domain word.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../ecf/helpers/env.js';

const PRODUCT_WORDS = /\b(DGII|e-CF|e-NCF|eNCF|RNC|ITBIS|ncf|DIAN|CUFE|CUDE|CUDS|CUNE|NIT|UBL)\b/i;
const KIT_NAME = /\bEcfError\b|\bisNamedEcfError\b|\bisEcfError\b|\bECF_[A-Z_]+\b|\becf_\b/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('kernel words', () => {
  const kernel = files(join(repoRoot, 'src/shared'));

  it('finds the kernel sources', () => {
    expect(kernel.length).toBeGreaterThan(30);
  });

  it('no product word appears in src/shared', () => {
    const found: string[] = [];
    for (const file of kernel) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (PRODUCT_WORDS.test(line.replace(KIT_NAME, ''))) found.push(`${relative(repoRoot, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('the word check bites', () => {
    expect(PRODUCT_WORDS.test('DGII asks for QR version 8')).toBe(true);
    expect(PRODUCT_WORDS.test('the CUFE of the invoice')).toBe(true);
    expect(PRODUCT_WORDS.test('class KitError extends EcfError'.replace(KIT_NAME, ''))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import libxmljs from 'libxmljs';
import { xsdDir } from '../helpers/env.js';
import { createSchemaValidator } from '../../../src/ecf/xsd/index.js';
import { ecf43 } from './fixtures.js';

/**
 * libxmljs leaks on the usual parse/validate path (issue #652; string arguments, document wrappers). The validator
 * streams through the bindings without creating per-document native wrappers; this proves memory stays flat.
 */
describe('memory', () => {
  it('stays flat over many thousands of validations (valid and invalid documents)', () => {
    const v = createSchemaValidator(xsdDir());
    const good = ecf43({ items: 10 });
    const bad = ecf43({ items: 10, badItem: 5 });
    const run = (n: number) => {
      for (let i = 0; i < n; i++) {
        if (!v.validate(good, 'ECF-43').valid) throw new Error('valid document reported invalid');
        if (v.validate(bad, 'ECF-43').violations.length !== 1) throw new Error('invalid document not reported');
      }
    };
    const gc = (globalThis as { gc?: () => void }).gc;
    run(2_000); // warm up: schema compiled, JIT, allocator pools
    gc?.();
    const rss0 = process.memoryUsage().rss;
    const native0 = libxmljs.memoryUsage();
    run(25_000); // 50,000 validations
    gc?.();
    const rssGrowth = process.memoryUsage().rss - rss0;
    // libxml2's own allocations (tracked by libxmljs' allocator hooks) return exactly to the baseline.
    expect(libxmljs.memoryUsage()).toBe(native0);
    // The leaky paths cost 0.3–3.5 KB per document, i.e. 15–175 MB here; allow GC slack only.
    expect(rssGrowth).toBeLessThan(40 * 1024 * 1024);
  }, 30_000);
});

/** The SDK entry `buildDianXml`: validation first (422 body with paths), then the build, then DIAN's rule findings. */
import { describe, expect, it } from 'vitest';
import { buildDianXml } from '../../../src/dian/index.js';
import { DIAN_KIND_IDS } from '../../../src/dian/spec/kinds.js';
import { CONTEXT } from '../helpers/build-fixtures.js';
import { minimalDianRequest } from '../helpers/requests.js';

describe('buildDianXml', () => {
  it.each(DIAN_KIND_IDS)('%s: a valid request builds with no rule finding and no warning', (kind) => {
    const r = buildDianXml(kind, minimalDianRequest(kind), CONTEXT);
    if (!r.ok) throw new Error(JSON.stringify(r.body));
    expect(r.findings).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.xml).toContain(`>${r.codes.hash}</cbc:UUID>`);
  });

  it('refuses an invalid request with the service 422 body, every problem with its path, and builds nothing', () => {
    const r = buildDianXml(
      'invoice',
      { ...minimalDianRequest('invoice'), number: 'x', customer: { ...minimalDianRequest('invoice').customer, email: 7 } },
      CONTEXT,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.body.document.statusCode).toBe(13);
    expect(r.body.document.number).toBe('x');
    expect(Object.keys(r.body.document.detailedErrors).sort()).toEqual(['customer.email', 'number']);
  });

  it('reports DIAN rule findings of a built document without blocking it (the caller decides)', () => {
    const req = minimalDianRequest('invoice');
    const r = buildDianXml('invoice', { ...req, legal_monetary_totals: { ...req.legal_monetary_totals, payable_amount: 1 } }, CONTEXT);
    if (!r.ok) throw new Error(JSON.stringify(r.body));
    expect(r.findings.map((f) => [f.rule, f.kind])).toContainEqual(['FAU14', 'Rechazo']);
    expect(
      buildDianXml('invoice', { ...req, legal_monetary_totals: { ...req.legal_monetary_totals, payable_amount: 1 } }, CONTEXT, { rules: false }),
    ).toMatchObject({
      ok: true,
      findings: [],
    });
  });

  it('passes the obsolete payment_form through as payment_forms, with a warning', () => {
    const { payment_forms, ...rest } = minimalDianRequest('pos');
    const r = buildDianXml('pos', { ...rest, payment_form: payment_forms[0] }, CONTEXT);
    if (!r.ok) throw new Error(JSON.stringify(r.body));
    expect(r.warnings.map((w) => w.path)).toContain('payment_form');
    expect(r.xml).toContain('<cac:PaymentMeans><cbc:ID>');
  });
});

/** What every server's OpenAPI page (src/shared/server-kit/docs-page.ts) must be, checked on its HTTP answer. */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';

/**
 * A self-contained HTML page: no external assets, its inline script and style allowed by their hashes only
 * (the Content-Security-Policy), the script compiles. Returns the page's HTML and script for product checks.
 */
export async function expectSelfContainedDocsPage(res: Response): Promise<{ html: string; script: string }> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html).toContain('<html lang="es">');
  expect(html).toContain('openapi.json');
  expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
  expect(html).not.toMatch(/@import|url\(\s*["']?https?:/i);
  const csp = res.headers.get('content-security-policy')!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("connect-src 'self'");
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
  expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
  expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  // The page's script parses (it runs in browsers; here it is only compiled).
  expect(() => new Function(script)).not.toThrow();
  return { html, script };
}

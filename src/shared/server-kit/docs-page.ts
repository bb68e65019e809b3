/**
 * An OpenAPI documentation page for any of the servers: a self-contained HTML page that fetches the OpenAPI
 * document (a URL relative to the page) and lists the operations, parameters, bodies and responses with their
 * schemas, its interface text in Spanish. No CDN, no external assets: the script and the styles are inline,
 * allowed by a Content-Security-Policy hash. The product gives its title and where its document is.
 *
 * Kernel material (server kit): no product's words here.
 */
import { createHash } from 'node:crypto';

const SCRIPT = String.raw`
(function () {
  'use strict';
  var root = document.getElementById('ops');
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  function resolve(doc, s) {
    var seen = 0;
    while (s && s.$ref && seen++ < 20) {
      var parts = s.$ref.replace(/^#\//, '').split('/');
      var t = doc; for (var i = 0; i < parts.length; i++) t = t && t[parts[i]];
      s = t;
    }
    return s || {};
  }
  function refName(s) { return s && s.$ref ? s.$ref.split('/').pop() : null; }
  function typeOf(doc, s) {
    var name = refName(s); var r = resolve(doc, s);
    var t = r.type || (r.oneOf ? 'oneOf' : r.anyOf ? 'anyOf' : r.allOf ? 'allOf' : r.enum ? 'enum' : 'any');
    if (t === 'array') t = 'array<' + typeOf(doc, r.items || {}) + '>';
    if (r.nullable) t += ' | null';
    if (r.enum) t += ' (' + r.enum.map(function (v) { return JSON.stringify(v); }).join(', ') + ')';
    return name ? name + ': ' + t : t;
  }
  function schemaTree(doc, s, depth) {
    var r = resolve(doc, s);
    var box = el('div', 'schema');
    if (depth > 6) { box.appendChild(el('span', 'muted', '…')); return box; }
    var props = r.properties || (r.type === 'array' && resolve(doc, r.items).properties) || null;
    if (r.type === 'array' && !props) { box.appendChild(el('code', '', typeOf(doc, s))); return box; }
    if (!props) {
      box.appendChild(el('code', '', typeOf(doc, s)));
      if (r.description) box.appendChild(el('div', 'desc', r.description));
      return box;
    }
    if (r.type === 'array') box.appendChild(el('div', 'muted', 'array of:'));
    var required = (r.type === 'array' ? resolve(doc, r.items).required : r.required) || [];
    var table = el('table');
    Object.keys(props).forEach(function (k) {
      var p = props[k]; var pr = resolve(doc, p);
      var tr = el('tr');
      var name = el('td', 'name'); name.appendChild(el('code', '', k)); if (required.indexOf(k) >= 0) name.appendChild(el('span', 'req', ' *'));
      tr.appendChild(name);
      var td = el('td'); td.appendChild(el('code', 'type', typeOf(doc, p)));
      if (pr.description) td.appendChild(el('div', 'desc', pr.description));
      var inner = pr.properties || (pr.type === 'array' && resolve(doc, pr.items).properties);
      if (inner) td.appendChild(schemaTree(doc, p, depth + 1));
      tr.appendChild(td); table.appendChild(tr);
    });
    box.appendChild(table);
    return box;
  }
  function content(doc, c) {
    var wrap = el('div');
    Object.keys(c || {}).forEach(function (mt) {
      wrap.appendChild(el('div', 'mt', mt));
      if (c[mt].schema) wrap.appendChild(schemaTree(doc, c[mt].schema, 0));
    });
    return wrap;
  }
  function render(doc) {
    document.getElementById('title').textContent = doc.info.title + ' ' + doc.info.version;
    document.getElementById('intro').textContent = doc.info.description || '';
    Object.keys(doc.paths).forEach(function (path) {
      var item = doc.paths[path];
      ['get', 'post', 'put', 'patch', 'delete'].forEach(function (m) {
        var op = item[m]; if (!op) return;
        var d = el('details', 'op');
        var s = el('summary');
        s.appendChild(el('span', 'method ' + m, m.toUpperCase()));
        s.appendChild(el('code', 'path', path));
        s.appendChild(el('span', 'sum', op.summary || ''));
        if (op.security && op.security.length === 0) s.appendChild(el('span', 'badge', 'sin autenticación'));
        d.appendChild(s);
        if (op.description) d.appendChild(el('p', 'desc', op.description));
        var params = (op.parameters || []).map(function (p) { return resolve(doc, p); });
        if (params.length) {
          d.appendChild(el('h4', '', 'Parámetros'));
          var t = el('table');
          params.forEach(function (p) {
            var tr = el('tr');
            var n = el('td', 'name'); n.appendChild(el('code', '', p.name)); n.appendChild(el('span', 'muted', ' (' + p.in + ')'));
            if (p.required) n.appendChild(el('span', 'req', ' *'));
            tr.appendChild(n);
            var td = el('td'); td.appendChild(el('code', 'type', typeOf(doc, p.schema || {})));
            var desc = p.description || (p.schema && resolve(doc, p.schema).description);
            if (desc) td.appendChild(el('div', 'desc', desc));
            tr.appendChild(td); t.appendChild(tr);
          });
          d.appendChild(t);
        }
        if (op.requestBody) {
          d.appendChild(el('h4', '', 'Cuerpo'));
          if (op.requestBody.description) d.appendChild(el('p', 'desc', op.requestBody.description));
          d.appendChild(content(doc, op.requestBody.content));
        }
        d.appendChild(el('h4', '', 'Respuestas'));
        Object.keys(op.responses || {}).forEach(function (code) {
          var r = resolve(doc, op.responses[code]);
          var rd = el('div', 'resp');
          rd.appendChild(el('span', 'code c' + code.charAt(0), code));
          rd.appendChild(el('span', 'desc', ' ' + (r.description || '')));
          if (r.content) rd.appendChild(content(doc, r.content));
          d.appendChild(rd);
        });
        root.appendChild(d);
      });
    });
  }
  fetch(document.getElementById('ops').getAttribute('data-openapi'), { headers: { Accept: 'application/json' } })
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(render)
    .catch(function (e) { root.appendChild(el('p', 'error', 'No se pudo cargar openapi.json: ' + e.message)); });
})();
`;

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
header{background:#0b3d6e;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}header p{margin:6px 0 0;opacity:.85;max-width:980px}
main{padding:18px 28px;max-width:1100px}
details.op{background:#fff;border:1px solid #d8dde5;border-radius:6px;margin:10px 0;padding:0 14px}
details.op>summary{cursor:pointer;padding:10px 0;list-style:none;display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.method{font-weight:700;font-size:12px;padding:3px 8px;border-radius:4px;color:#fff;min-width:44px;text-align:center}
.get{background:#2f7d32}.post{background:#1565c0}.put,.patch{background:#8d6e00}.delete{background:#b71c1c}
.path{font-size:14px}.sum{color:#4a5565}.badge{font-size:11px;background:#eef1f5;border-radius:10px;padding:2px 8px;color:#4a5565}
h4{margin:14px 0 6px}table{border-collapse:collapse;width:100%;margin:4px 0}td{border-top:1px solid #eef1f5;padding:5px 6px;vertical-align:top}
td.name{white-space:nowrap;width:1%}.req{color:#b71c1c}.muted{color:#7a8494}.desc{color:#4a5565;font-size:13px}
.type{color:#6a1b9a}.schema{margin:4px 0 4px 10px}.mt{font-family:ui-monospace,monospace;font-size:12px;color:#0b3d6e;margin-top:6px}
.resp{margin:8px 0 12px}.code{font-weight:700;padding:1px 6px;border-radius:4px;background:#eef1f5}.c2{color:#2f7d32}.c4{color:#b26a00}.c5{color:#b71c1c}
.error{color:#b71c1c}code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
`;

const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64');
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Only the inline script and style of the page may run; data comes from the same origin. */
export const OPENAPI_DOCS_PAGE_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${SCRIPT_HASH}'`,
  `style-src 'sha256-${STYLE_HASH}'`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What the page names. */
export interface OpenApiDocsPageOptions {
  /** The page's title until the document's own (info.title and version) replaces it. */
  title: string;
  /** Where the page fetches the document: a URL relative to the page (`openapi.json` beside `…/docs`). */
  openApiUrl: string;
  /** The document's path as shown to the reader (e.g. `/service/openapi.json`). */
  openApiPath: string;
  /** How a client authenticates, shown under the link (HTML-escaped). */
  auth?: string;
}

/** The page's HTML (serve it with {@link OPENAPI_DOCS_PAGE_CSP} as its Content-Security-Policy). */
export function openApiDocsPageHtml(o: OpenApiDocsPageOptions): string {
  const title = escapeHtml(o.title);
  const auth = o.auth ? ` Autenticación: <code>${escapeHtml(o.auth)}</code>.` : '';
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1 id="title">${title}</h1><p id="intro"></p></header>
<main>
<p>Documento OpenAPI: <a href="${escapeHtml(o.openApiUrl)}"><code>${escapeHtml(o.openApiPath)}</code></a>.${auth}</p>
<div id="ops" data-openapi="${escapeHtml(o.openApiUrl)}"></div>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

import { SchemaError } from '../../shared/errors/index.js';

/**
 * The relaxed variant of e-CF-32 for a type-32 below RD$250,000: its full e-CF is kept (not sent to DGII) and may
 * hold up to 10,000 lines (FMT p. 35 note 48, IT §17), while the official XSD caps it at 1,000.
 *
 * Exactly these changes are made, in memory, and nothing else:
 * - `DetallesItems/Item` maxOccurs 1000 → 10000;
 * - `Paginacion/Pagina` maxOccurs 1000 → 10000;
 * - `NumeroLineaType` (Item/NumeroLinea): maxInclusive 1000 → 10000, totalDigits 4 → 5, pattern `[0-9]{0,4}` → `[0-9]{0,5}`;
 * - `Integer4V1To1000ValidationType` (Pagina/PaginaNo, NoLineaDesde, NoLineaHasta): maxInclusive 1000 → 10000,
 *   totalDigits 4 → 5, pattern `[0-9]{1,4}` → `[0-9]{1,5}`;
 * - `Integer4ValidationTypeMayorUno` (Encabezado/IdDoc/TotalPaginas, 4 digits so at most 9,999): totalDigits 4 → 5,
 *   pattern `[0-9]{1,4}` → `[0-9]{1,5}`, plus maxInclusive 10000, so a 10,000-page document can state its page count.
 *
 * Each change must apply exactly once, and each relaxed simple type must be used only by the elements named above;
 * otherwise the XSD is not the one this was written for and a `SchemaError` is thrown rather than guessing.
 */
export const RELAXED32_MAX_LINES = 10_000;

interface TypeRelaxation {
  type: string;
  users: string[];
  facets: Array<[RegExp, string, string]>;
  addMaxInclusive?: boolean;
}

const TYPES: TypeRelaxation[] = [
  {
    type: 'NumeroLineaType',
    users: ['NumeroLinea'],
    facets: [
      [/(<xs:maxInclusive\s+value=["'])1000(["'])/, '$110000$2', 'maxInclusive 1000 → 10000'],
      [/(<xs:totalDigits\s+value=["'])4(["'])/, '$15$2', 'totalDigits 4 → 5'],
      [/(<xs:pattern\s+value=["'])\[0-9\]\{0,4\}(["'])/, '$1[0-9]{0,5}$2', 'pattern [0-9]{0,4} → [0-9]{0,5}'],
    ],
  },
  {
    type: 'Integer4V1To1000ValidationType',
    users: ['PaginaNo', 'NoLineaDesde', 'NoLineaHasta'],
    facets: [
      [/(<xs:maxInclusive\s+value=["'])1000(["'])/, '$110000$2', 'maxInclusive 1000 → 10000'],
      [/(<xs:totalDigits\s+value=["'])4(["'])/, '$15$2', 'totalDigits 4 → 5'],
      [/(<xs:pattern\s+value=["'])\[0-9\]\{1,4\}(["'])/, '$1[0-9]{1,5}$2', 'pattern [0-9]{1,4} → [0-9]{1,5}'],
    ],
  },
  {
    type: 'Integer4ValidationTypeMayorUno',
    users: ['TotalPaginas'],
    facets: [
      [/(<xs:totalDigits\s+value=["'])4(["'])/, '$15$2', 'totalDigits 4 → 5'],
      [/(<xs:pattern\s+value=["'])\[0-9\]\{1,4\}(["'])/, '$1[0-9]{1,5}$2', 'pattern [0-9]{1,4} → [0-9]{1,5}'],
    ],
    addMaxInclusive: true,
  },
];

function fail(what: string): never {
  throw new SchemaError(
    `Cannot build the relaxed e-CF-32 schema: ${what}. The installed e-CF-32-v1.0.xsd differs from the one this relaxation was written for.`,
    { code: 'xsd_relax_failed' },
  );
}

function replaceOnce(text: string, re: RegExp, replacement: string, what: string): string {
  const global = new RegExp(re.source, 'g');
  const n = (text.match(global) ?? []).length;
  if (n !== 1) fail(`expected exactly one match for ${what}, found ${n}`);
  return text.replace(re, replacement);
}

/** Applies the relaxation to the (already fixed) e-CF-32 XSD text; returns the new text and the list of changes. */
export function relax32(text: string): { text: string; changes: string[] } {
  const changes: string[] = [];
  for (const name of ['Item', 'Pagina']) {
    const re = new RegExp(`(<xs:element\\s+name=["']${name}["'][^>]*?\\bmaxOccurs=["'])1000(["'])`);
    text = replaceOnce(text, re, '$110000$2', `element ${name} maxOccurs="1000"`);
    changes.push(`element ${name === 'Item' ? 'DetallesItems/Item' : 'Paginacion/Pagina'}: maxOccurs 1000 → 10000`);
  }
  for (const t of TYPES) {
    const usedBy = [...text.matchAll(new RegExp(`<xs:element\\s+name=["']([^"']+)["'][^>]*?\\btype=["']${t.type}["']`, 'g'))].map((m) => m[1]);
    if (usedBy.length !== t.users.length || usedBy.some((u) => !t.users.includes(u!))) {
      fail(`simple type ${t.type} is used by [${usedBy.join(', ')}], expected [${t.users.join(', ')}]`);
    }
    const blockRe = new RegExp(`<xs:simpleType\\s+name=["']${t.type}["']\\s*>[\\s\\S]*?</xs:simpleType>`);
    const block = text.match(blockRe)?.[0] ?? fail(`simple type ${t.type} not found`);
    let next = block;
    for (const [re, rep, what] of t.facets) {
      next = replaceOnce(next, re, rep, `${t.type} ${what}`);
      changes.push(`simple type ${t.type} (${t.users.join(', ')}): ${what}`);
    }
    if (t.addMaxInclusive) {
      if (/<xs:maxInclusive\b/.test(next)) fail(`simple type ${t.type} already has a maxInclusive facet`);
      next = replaceOnce(next, /<\/xs:restriction>/, '  <xs:maxInclusive value="10000"/>\n    </xs:restriction>', `${t.type} restriction end`);
      changes.push(`simple type ${t.type} (${t.users.join(', ')}): added maxInclusive 10000`);
    }
    text = text.replace(block, () => next);
  }
  return { text, changes };
}

/**
 * Renders src/ecf/spec/ecf-types.gen.ts: one TypeScript type per e-CF type (`EcfDocument<'31'>` …) of the
 * canonical JSON, from the same field table and the same JSON walk (`jsonFields`) the runtime validation and the
 * JSON Schemas use. Types differ by the table's rows: a group whose fields are the same in several types is one
 * interface shared by them; a group that differs gets one interface per variant (suffix: first type using it).
 * Every field carries JSDoc (XSD element path, format and length, occurrence) so editors show it.
 */
import { ECF_TYPES, type DocTable, type Facets } from '../src/ecf/spec/model.js';
import { jsonFields, xmlTree, type JsonField } from '../src/ecf/spec/tree.js';
import { amountBounds } from '../src/ecf/spec/formats.js';

const KIND_NOTE: Record<string, string> = {
  code: 'catalog code (string, leading zeros kept)',
  integer: 'integer',
  amount: 'number',
  digits: 'string of digits',
  date: 'date `dd-MM-yyyy`',
  datetime: 'date and time `dd-MM-yyyy HH:mm:ss`',
  country: 'ISO 3166-1 alpha-2 country code (written as the Spanish name in the XML)',
  string: 'text',
};

function valueType(f: JsonField): string {
  const facets = f.xml.facets!;
  const en = facets.enumeration;
  switch (f.xml.jsonKind) {
    case 'integer':
      return en ? en.map((v) => String(Number(v))).join(' | ') : 'number';
    case 'amount':
      return 'number';
    case 'code':
    case 'string':
      return en ? en.map((v) => JSON.stringify(v)).join(' | ') : 'string';
    default:
      return 'string';
  }
}

function formatNote(f: JsonField): string {
  const facets: Facets = f.xml.facets!;
  const parts = [KIND_NOTE[f.xml.jsonKind ?? 'string'] ?? 'text'];
  if (f.xml.jsonKind === 'amount') {
    const b = amountBounds(facets);
    parts.push(`at most ${b.decimals} decimals`, `${b.exclusiveMin ? '> 0' : b.min === null ? 'signed' : '≥ 0'}, ≤ ${b.maxText}`);
  } else {
    if (facets.enumeration && facets.enumeration.length > 12) parts.push(`${facets.enumeration.length} codes`);
    if (facets.minLength !== undefined || facets.maxLength !== undefined) parts.push(`length ${facets.minLength ?? 0}..${facets.maxLength ?? '∞'}`);
    if (facets.minInclusive !== undefined) parts.push(`≥ ${facets.minInclusive}`);
    if (facets.maxInclusive !== undefined) parts.push(`≤ ${facets.maxInclusive}`);
    if (facets.minExclusive !== undefined) parts.push(`> ${facets.minExclusive}`);
    if (f.xml.jsonKind === 'digits') parts.push(`at most ${facets.totalDigits ?? facets.maxLength ?? 20} digits`);
    if (facets.pattern && !facets.enumeration && f.xml.jsonKind === 'string') parts.push(`pattern \`${facets.pattern.join(' | ')}\``);
  }
  return parts.join('; ');
}

function occursNote(f: JsonField): string {
  if (f.array) return `${f.required ? 'Required' : 'Optional'}; ${f.minItems}..${f.maxItems} items.`;
  return f.required ? 'Required.' : 'Optional.';
}

function jsdoc(f: JsonField, indent: string): string {
  const lines = [`XSD \`${f.xml.row.xml}\` (canonical JSON \`${f.json}\`).`];
  if (!f.fields) lines.push(`Format: ${formatNote(f)}.`);
  lines.push(occursNote(f));
  // `*/` cannot occur in an XSD pattern that ends a comment; escape defensively anyway.
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l.replace(/\*\//g, '*\\/')}`).join('\n')}\n${indent} */\n`;
}

interface Iface {
  id: number;
  name: string;
  body: string;
  types: string[];
}

/** Renders the table's e-CF types as TypeScript source (the generated module). */
export function renderEcfTypes(table: DocTable, header: string): string {
  // One interface per distinct (group XML path, body); names from the XML element, de-duplicated.
  const byKey = new Map<string, Iface>();
  const variantsByXml = new Map<string, Iface[]>();
  const usedNames = new Map<string, string>(); // base name → xml path that owns it

  function baseName(xmlPath: string): string {
    const parts = xmlPath.split('/');
    let name = `Ecf${parts[parts.length - 1]}`;
    for (let i = parts.length - 2; usedNames.has(name) && usedNames.get(name) !== xmlPath && i >= 0; i--) name = `Ecf${parts[i]}${name.slice(3)}`;
    usedNames.set(name, xmlPath);
    return name;
  }

  function objectBody(fields: JsonField[], tipo: string, indent: string): string {
    return fields
      .map((f) => {
        let t = f.fields ? groupType(f, tipo) : valueType(f);
        if (f.array) t = t.includes(' | ') ? `(${t})[]` : `${t}[]`;
        return `${jsdoc(f, indent)}${indent}${f.key}${f.required ? '' : '?'}: ${t}${f.required ? '' : ' | null'};`;
      })
      .join('\n');
  }

  function groupType(f: JsonField, tipo: string): string {
    const body = objectBody(f.fields!, tipo, '  ');
    const key = `${f.xml.row.xml}\u0000${body}`;
    let iface = byKey.get(key);
    if (!iface) {
      const variants = variantsByXml.get(f.xml.row.xml) ?? [];
      iface = { id: byKey.size, name: '', body, types: [] };
      variants.push(iface);
      variantsByXml.set(f.xml.row.xml, variants);
      byKey.set(key, iface);
    }
    if (!iface.types.includes(tipo)) iface.types.push(tipo);
    return `\u0001${iface.id}\u0002`;
  }

  const roots = new Map<string, string>();
  for (const t of ECF_TYPES) roots.set(t, objectBody(jsonFields(xmlTree(table, t), 'doc'), t, '  '));

  // Names: one variant → the element name; several → element name + first type of each variant.
  for (const [xml, variants] of variantsByXml) {
    const base = baseName(xml);
    for (const v of variants) v.name = variants.length === 1 ? base : `${base}${v.types[0]}`;
  }
  const byId = new Map([...byKey.values()].map((i) => [String(i.id), i]));
  const resolve = (s: string) => s.replace(/\u0001(\d+)\u0002/g, (_, id: string) => byId.get(id)!.name);

  const out: string[] = [header];
  out.push(`import type { EcfType } from './model.js';\n`);
  const seen = new Set<string>();
  for (const [xml, variants] of variantsByXml) {
    for (const v of variants) {
      if (seen.has(v.name)) throw new Error(`duplicate generated type name ${v.name} (${xml})`);
      seen.add(v.name);
      out.push(
        `/** \`${xml}\` as the canonical JSON of type${v.types.length > 1 ? 's' : ''} ${v.types.join(', ')}. */\nexport interface ${v.name} {\n${resolve(v.body)}\n}\n`,
      );
    }
  }
  for (const t of ECF_TYPES) {
    out.push(
      `/** Canonical JSON of an e-CF type ${t}: the request body of \`POST /api/v1/documents/${t}\`. */\nexport interface EcfDocument${t} {\n${resolve(roots.get(t)!)}\n}\n`,
    );
  }
  out.push(
    `/** The canonical JSON type of each e-CF type code. */\nexport interface EcfDocumentMap {\n${ECF_TYPES.map((t) => `  '${t}': EcfDocument${t};`).join('\n')}\n}\n`,
  );
  out.push(
    `/**\n * The canonical JSON of e-CF type \`T\` (\`EcfDocument<'31'>\` …): what \`buildEcfXml\`, \`validateEcf\` and \`safeValidateEcf\`\n * take. Fields, formats and occurrence come from the official XSDs; business rules (totals, per-type\n * particularities) are checked at run time by \`validateEcf\`, the source of truth.\n */\nexport type EcfDocument<T extends EcfType = EcfType> = EcfDocumentMap[T];\n`,
  );
  return out.join('\n');
}

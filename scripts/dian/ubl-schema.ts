/**
 * Reads the DIAN XSD set (UBL 2.1 as DIAN ships it, `../shared/dian-xsd`) into a small model the DIAN generator
 * walks: global elements and their types, complex types as ordered child lists (XSD `sequence` order, with
 * occurrences), simple content with its attributes, and the chain of simple-content bases down to the UBL
 * unqualified data types (`udt:AmountType`, `udt:IdentifierType`, …) that decide how a value is written.
 *
 * UBL's shape keeps this small: every aggregate is a named complexType whose content is one `xsd:sequence` of
 * `xsd:element ref="…"`, every basic component a complexType with simple content extending a `udt:` or `qdt:`
 * type. The reader follows `xsd:import` / `xsd:include` from the document schemas, so only files reachable
 * from the roots are read. It is a build-time tool (reads files), not part of the pure core.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Element } from '@xmldom/xmldom';
import { parseXmlStrictly } from '../../src/shared/xml/strict-parser.js';
import { NS, ROOT_NAMESPACES } from '../../src/dian/ubl/namespaces.js';

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/**
 * The prefixes the generated description and the builder use, by namespace URI: the product's own table
 * (src/dian/ubl/namespaces.ts, the prefixes the reader and writer use), plus the schema-only modules, and the
 * document namespaces under short prefixes (the writer names roots by their local name).
 */
export const UBL_PREFIXES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(NS).map(([prefix, uri]) => [uri, prefix])),
  'urn:oasis:names:specification:ubl:schema:xsd:UnqualifiedDataTypes-2': 'udt',
  'urn:oasis:names:specification:ubl:schema:xsd:QualifiedDataTypes-2': 'qdt',
  'urn:un:unece:uncefact:data:specification:CoreComponentTypeSchemaModule:2': 'ccts-cct',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonSignatureComponents-2': 'sig',
  'urn:oasis:names:specification:ubl:schema:xsd:SignatureAggregateComponents-2': 'sac',
  'urn:oasis:names:specification:ubl:schema:xsd:SignatureBasicComponents-2': 'sbc',
  [ROOT_NAMESPACES.Invoice!]: 'inv',
  [ROOT_NAMESPACES.CreditNote!]: 'cn',
  [ROOT_NAMESPACES.DebitNote!]: 'dn',
  [ROOT_NAMESPACES.ApplicationResponse!]: 'ar',
  [ROOT_NAMESPACES.AttachedDocument!]: 'ad',
};

/** A qualified name written `prefix:local` with the prefixes of {@link UBL_PREFIXES}. */
export type QName = string;

export interface ChildRef {
  /** The global element referenced (`cbc:ID`, `cac:AccountingSupplierParty`). */
  element: QName;
  min: number;
  /** `null`: unbounded. */
  max: number | null;
  /** Type of a locally declared element (DIAN's own structures declare theirs locally); else the global one's. */
  type?: QName;
}

export interface AttributeDecl {
  name: string;
  /** Simple type of the attribute (`xsd:normalizedString`, …). */
  type: QName;
  required: boolean;
}

export interface ComplexTypeDecl {
  name: QName;
  /** Element content: the sequence, in order (empty for simple content). */
  children: ChildRef[];
  /** Simple content: the base type it extends or restricts. */
  simpleBase: QName | null;
  /** Attributes declared here (inherited ones come from the base chain). */
  attributes: AttributeDecl[];
  /** `xsd:any` in the content (extension content is lax). */
  any: boolean;
}

export interface UblSchema {
  /** Global elements → their type. */
  elements: ReadonlyMap<QName, QName>;
  complexTypes: ReadonlyMap<QName, ComplexTypeDecl>;
  /** Files read, relative to the set's directory. */
  files: readonly string[];
  /** The ordered children of a global element, or of a child as its parent declares it (empty for a basic component). */
  childrenOf(element: QName | ChildRef): ChildRef[];
  /** The `udt:`/`qdt:`/`xsd:` type at the root of an element's simple-content chain, or null for aggregates. */
  valueTypeOf(element: QName | ChildRef): QName | null;
  /** Every attribute an element's value may carry, the base chain included. */
  attributesOf(element: QName | ChildRef): AttributeDecl[];
}

/** The document schemas the DIAN product reads, relative to the set's directory. */
export const UBL_DOCUMENT_SCHEMAS = [
  'maindoc/UBL-Invoice-2.1.xsd',
  'maindoc/UBL-CreditNote-2.1.xsd',
  'maindoc/UBL-DebitNote-2.1.xsd',
  'maindoc/UBL-ApplicationResponse-2.1.xsd',
  'maindoc/UBL-AttachedDocument-2.1.xsd',
  'maindoc/DIAN_UBL_Structures.xsd',
] as const;

function xsdChildren(el: Element, local?: string): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (c as Element).namespaceURI === XSD_NS && (!local || (c as Element).localName === local)) out.push(c as Element);
  }
  return out;
}

function occurs(v: string | null, dflt: number): number | null {
  if (v === null || v === '') return dflt;
  return v === 'unbounded' ? null : Number(v);
}

/** Reads the set under `dir`, starting from `roots` (default: {@link UBL_DOCUMENT_SCHEMAS}). */
export function readUblSchema(dir: string, roots: readonly string[] = UBL_DOCUMENT_SCHEMAS): UblSchema {
  const base = resolve(dir);
  const elements = new Map<QName, QName>();
  const complexTypes = new Map<QName, ComplexTypeDecl>();
  const simpleTypes = new Map<QName, QName>();
  const seen = new Set<string>();
  const queue = roots.map((r) => resolve(base, r));

  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const parsed = parseXmlStrictly(readFileSync(file, 'utf8'));
    const schema = parsed.doc?.documentElement;
    if (!schema || parsed.problems.length > 0) throw new Error(`${file}: not a readable XSD (${parsed.problems[0] ?? 'no root'})`);
    const target = schema.getAttribute('targetNamespace') ?? '';
    const prefixOfTarget = UBL_PREFIXES[target];
    if (!prefixOfTarget) throw new Error(`${file}: namespace ${target} has no prefix in UBL_PREFIXES`);

    /** `p:local` in this file's prefixes → the canonical `prefix:local`. */
    const qn = (raw: string): QName => {
      const i = raw.indexOf(':');
      const local = i < 0 ? raw : raw.slice(i + 1);
      // UBL schemas declare every prefix on the schema element.
      const ns = i < 0 ? schema.getAttribute('xmlns') : schema.getAttribute(`xmlns:${raw.slice(0, i)}`);
      if (ns === XSD_NS) return `xsd:${local}`;
      const prefix = ns ? UBL_PREFIXES[ns] : undefined;
      if (!prefix) throw new Error(`${file}: ${raw}: namespace ${ns} has no prefix in UBL_PREFIXES`);
      return `${prefix}:${local}`;
    };
    const own = (name: string): QName => `${prefixOfTarget}:${name}`;

    for (const child of xsdChildren(schema)) {
      switch (child.localName) {
        case 'import':
        case 'include': {
          const loc = child.getAttribute('schemaLocation');
          if (loc && !/^[a-z]+:\/\//i.test(loc)) queue.push(resolve(dirname(file), loc));
          break;
        }
        case 'element':
          elements.set(
            own(child.getAttribute('name')!),
            child.hasAttribute('type') ? qn(child.getAttribute('type')!) : own(`${child.getAttribute('name')}#anonymous`),
          );
          for (const anon of xsdChildren(child, 'complexType'))
            complexTypes.set(own(`${child.getAttribute('name')}#anonymous`), readComplex(anon, own(`${child.getAttribute('name')}#anonymous`), qn));
          break;
        case 'complexType': {
          const locals: Array<[QName, Element]> = [];
          complexTypes.set(own(child.getAttribute('name')!), readComplex(child, own(child.getAttribute('name')!), qn, locals));
          while (locals.length > 0) {
            const [type, anon] = locals.shift()!;
            complexTypes.set(type, readComplex(anon, type, qn, locals));
          }
          break;
        }
        case 'simpleType': {
          const restriction = xsdChildren(child, 'restriction')[0];
          simpleTypes.set(own(child.getAttribute('name')!), restriction?.getAttribute('base') ? qn(restriction.getAttribute('base')!) : 'xsd:string');
          break;
        }
      }
    }
  }

  const typeName = (element: QName | ChildRef): QName | undefined =>
    typeof element === 'string' ? elements.get(element) : (element.type ?? elements.get(element.element));
  const typeOf = (element: QName | ChildRef): ComplexTypeDecl | undefined => {
    const t = typeName(element);
    return t ? complexTypes.get(t) : undefined;
  };

  return {
    elements,
    complexTypes,
    files: [...seen].map((f) => f.slice(base.length + 1)).sort(),
    childrenOf(element) {
      const t = typeOf(element);
      if (!t && !typeName(element)) throw new Error(`unknown element ${typeof element === 'string' ? element : element.element}`);
      return t ? t.children : [];
    },
    valueTypeOf(element) {
      const t = typeOf(element);
      if (!t) {
        const direct = typeName(element);
        return direct && !complexTypes.has(direct) ? (simpleTypes.get(direct) ?? direct) : null;
      }
      if (!t.simpleBase) return null;
      // Down the chain to the last udt:/qdt: type (the one that decides the lexical form), or an xsd: type.
      let last: QName = t.simpleBase;
      for (let guard = 0; guard < 16; guard++) {
        const next = complexTypes.get(last);
        if (!next?.simpleBase) break;
        if (/^(udt|qdt):/.test(last) && !/^(udt|qdt):/.test(next.simpleBase)) break;
        last = next.simpleBase;
      }
      return last;
    },
    attributesOf(element) {
      const out: AttributeDecl[] = [];
      let t = typeOf(element);
      for (let guard = 0; t && guard < 16; guard++) {
        for (const a of t.attributes) if (!out.some((o) => o.name === a.name)) out.push(a);
        t = t.simpleBase ? complexTypes.get(t.simpleBase) : undefined;
      }
      return out;
    },
  };
}

function readComplex(el: Element, name: QName, qn: (raw: string) => QName, locals: Array<[QName, Element]> = []): ComplexTypeDecl {
  const decl: ComplexTypeDecl = { name, children: [], simpleBase: null, attributes: [], any: false };
  const walk = (node: Element): void => {
    for (const c of xsdChildren(node)) {
      switch (c.localName) {
        case 'sequence':
        case 'choice':
          walk(c);
          break;
        case 'element':
          if (c.hasAttribute('ref')) {
            decl.children.push({
              element: qn(c.getAttribute('ref')!),
              min: occurs(c.getAttribute('minOccurs'), 1) ?? 1,
              max: occurs(c.getAttribute('maxOccurs'), 1),
            });
          } else {
            // A local declaration (UBL declares everything globally; DIAN_UBL_Structures does not).
            const local = `${name.split(':')[0]}:${c.getAttribute('name')}`;
            const type = c.hasAttribute('type') ? qn(c.getAttribute('type')!) : `${name}/${c.getAttribute('name')}#anonymous`;
            if (!c.hasAttribute('type')) {
              for (const anon of xsdChildren(c, 'complexType')) locals.push([type, anon]);
            }
            decl.children.push({ element: local, type, min: occurs(c.getAttribute('minOccurs'), 1) ?? 1, max: occurs(c.getAttribute('maxOccurs'), 1) });
          }
          break;
        case 'any':
          decl.any = true;
          break;
        case 'simpleContent':
        case 'complexContent':
          for (const d of xsdChildren(c)) {
            if (d.localName === 'extension' || d.localName === 'restriction') {
              decl.simpleBase = qn(d.getAttribute('base')!);
              walk(d);
            }
          }
          break;
        case 'attribute':
          if (c.hasAttribute('name')) {
            decl.attributes.push({
              name: c.getAttribute('name')!,
              type: c.hasAttribute('type') ? qn(c.getAttribute('type')!) : 'xsd:string',
              required: c.getAttribute('use') === 'required',
            });
          }
          break;
      }
    }
  };
  walk(el);
  return decl;
}

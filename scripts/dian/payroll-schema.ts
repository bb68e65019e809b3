/**
 * Reads DIAN's two payroll XSDs (Nómina Electrónica v1.0: `payroll/NominaIndividualElectronicaXSDV1.0.6.xsd` and
 * `payroll/NominaIndividualDeAjusteElectronicaXSDV1.0.6.xsd`) into the element tree the payroll builder, parser and
 * validator walk (src/dian/spec/payroll-schema.gen.ts): every element with its occurrences, its attributes (type,
 * required) and its text type, children in the order of the XSD sequence.
 *
 * The payroll schemas keep this small: every type is anonymous and inline, content is an `xsd:sequence` of local
 * elements, attributes are of built-in types, and the one simple-content element (`Novedad`) extends
 * `xsd:boolean`. Anything else (a named type, a choice, a group) is refused, so a new schema version that uses one
 * fails the generator instead of being read wrong. A build-time tool (reads files), not part of the pure core.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Element } from '@xmldom/xmldom';
import { parseXmlStrictly } from '../../src/shared/xml/strict-parser.js';
import type { PayrollXsdNode, PayrollXsdType } from '../../src/dian/spec/payroll-xsd.js';

const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
const EXT_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2';

/** The two payroll schema files under the XSD directory, by root element. */
export const PAYROLL_XSD_FILES = {
  NominaIndividual: 'payroll/NominaIndividualElectronicaXSDV1.0.6.xsd',
  NominaIndividualDeAjuste: 'payroll/NominaIndividualDeAjusteElectronicaXSDV1.0.6.xsd',
} as const;

const BUILT_IN: Record<string, PayrollXsdType> = {
  'xsd:string': 'string',
  'xsd:integer': 'integer',
  'xsd:decimal': 'decimal',
  'xsd:date': 'date',
  'xsd:time': 'time',
  'xsd:dateTime': 'dateTime',
  'xsd:boolean': 'boolean',
};

const kids = (e: Element): Element[] => {
  const out: Element[] = [];
  for (let c = e.firstChild; c; c = c.nextSibling) if (c.nodeType === 1 && (c as Element).namespaceURI === XSD_NS) out.push(c as Element);
  return out.filter((k) => k.localName !== 'annotation');
};

function builtIn(type: string | null, where: string): PayrollXsdType {
  const t = type ? BUILT_IN[type] : undefined;
  if (!t) throw new Error(`${where}: type ${String(type)} is not a built-in type the payroll reader knows`);
  return t;
}

function readAttributes(holder: Element, where: string): PayrollXsdNode['attrs'] {
  return kids(holder)
    .filter((k) => k.localName === 'attribute')
    .map((a) => ({
      name: a.getAttribute('name')!,
      type: builtIn(a.getAttribute('type'), `${where}/@${a.getAttribute('name')}`),
      required: a.getAttribute('use') === 'required',
    }));
}

function readElement(e: Element, where: string): PayrollXsdNode {
  const ref = e.getAttribute('ref');
  const min = Number(e.getAttribute('minOccurs') || '1');
  const maxText = e.getAttribute('maxOccurs') || '1';
  const max = maxText === 'unbounded' ? 'unbounded' : Number(maxText);
  if (ref) {
    // The one reference is the UBL extension container, where the signature goes.
    if (ref !== 'ext:UBLExtensions') throw new Error(`${where}: unexpected reference ${ref}`);
    return { name: 'ext:UBLExtensions', min, max, attrs: [], children: [] };
  }
  const name = e.getAttribute('name')!;
  const path = `${where}/${name}`;
  const type = e.getAttribute('type');
  if (type) return { name, min, max, text: builtIn(type, path), attrs: [], children: [] };
  const [complex, ...rest] = kids(e);
  if (complex?.localName !== 'complexType' || rest.length > 0) throw new Error(`${path}: expected one inline complexType`);
  return { name, min, max, ...readComplex(complex, path) };
}

function readComplex(complex: Element, path: string): Pick<PayrollXsdNode, 'attrs' | 'children' | 'text'> {
  const parts = kids(complex);
  const simple = parts.find((k) => k.localName === 'simpleContent');
  if (simple) {
    const ext = kids(simple)[0];
    if (ext?.localName !== 'extension') throw new Error(`${path}: simpleContent without extension`);
    return { text: builtIn(ext.getAttribute('base'), path), attrs: readAttributes(ext, path), children: [] };
  }
  const children: PayrollXsdNode[] = [];
  for (const p of parts) {
    if (p.localName === 'sequence') {
      for (const c of kids(p)) {
        if (c.localName !== 'element') throw new Error(`${path}: ${c.localName} inside a sequence is not supported`);
        children.push(readElement(c, path));
      }
    } else if (p.localName !== 'attribute') throw new Error(`${path}: ${p.localName} is not supported`);
  }
  return { attrs: readAttributes(complex, path), children };
}

/** The root element of one payroll schema as a tree. */
export function readPayrollSchema(xsdDir: string, root: keyof typeof PAYROLL_XSD_FILES): PayrollXsdNode {
  const file = resolve(xsdDir, PAYROLL_XSD_FILES[root]);
  const parsed = parseXmlStrictly(readFileSync(file, 'utf8'));
  const schema = parsed.doc?.documentElement;
  if (!schema || parsed.problems.length > 0) throw new Error(`${file}: ${parsed.problems.join('; ')}`);
  if (schema.getAttribute('xmlns:ext') !== EXT_NS) throw new Error(`${file}: unexpected ext namespace`);
  const top = kids(schema).filter((k) => k.localName === 'element');
  const rootEl = top.find((k) => k.getAttribute('name') === root);
  if (!rootEl) throw new Error(`${file}: no root element ${root}`);
  const typeName = rootEl.getAttribute('type');
  const type = kids(schema).find((k) => k.localName === 'complexType' && k.getAttribute('name') === typeName);
  if (!type) throw new Error(`${file}: no complexType ${String(typeName)}`);
  return { name: root, min: 1, max: 1, ...readComplex(type, root) };
}

/** Both payroll roots as trees. */
export function readPayrollSchemas(xsdDir: string): Record<keyof typeof PAYROLL_XSD_FILES, PayrollXsdNode> {
  return { NominaIndividual: readPayrollSchema(xsdDir, 'NominaIndividual'), NominaIndividualDeAjuste: readPayrollSchema(xsdDir, 'NominaIndividualDeAjuste') };
}

/** src/dian/spec/payroll-schema.gen.ts for both roots. */
export function renderPayrollSchema(schemas: Record<keyof typeof PAYROLL_XSD_FILES, PayrollXsdNode>): string {
  const roots = Object.entries(schemas);
  const lines = [
    '// Generated by scripts/dian/gen.ts (scripts/dian/payroll-schema.ts) from the DIAN payroll XSDs. Do not edit.',
    '',
    "import type { PayrollXsdNode } from './payroll-xsd.js';",
    '',
    '/** Each payroll root as its XSD declares it: elements in sequence order, occurrences, attributes, text types. */',
    'export const PAYROLL_XSD: Readonly<Record<"NominaIndividual" | "NominaIndividualDeAjuste", PayrollXsdNode>> = {',
  ];
  for (const [name, node] of roots) lines.push(`  ${name}: ${renderNode(node, '  ')},`);
  lines.push('};', '');
  return lines.join('\n');
}

function renderNode(n: PayrollXsdNode, indent: string): string {
  const attrs = n.attrs.map((a) => `{ name: ${JSON.stringify(a.name)}, type: "${a.type}", required: ${a.required} }`);
  const head = `name: ${JSON.stringify(n.name)}, min: ${n.min}, max: ${JSON.stringify(n.max)}${n.text ? `, text: "${n.text}"` : ''}`;
  const attrText = attrs.length === 0 ? '[]' : `[\n${attrs.map((a) => `${indent}    ${a},`).join('\n')}\n${indent}  ]`;
  const childText = n.children.length === 0 ? '[]' : `[\n${n.children.map((c) => `${indent}    ${renderNode(c, `${indent}    `)},`).join('\n')}\n${indent}  ]`;
  return `{\n${indent}  ${head},\n${indent}  attrs: ${attrText},\n${indent}  children: ${childText},\n${indent}}`;
}

/**
 * How each element of the generated payroll schema tree (src/dian/spec/payroll-schema.gen.ts) appears in the
 * request: the one reading of the description that the validator, the builder and the parser share. Pure.
 *
 * Shape rules, all derived from the XSD tree (no element is special-cased here):
 * - an attribute is a key of its element's object (key from PAYROLL_ATTRIBUTE_KEYS);
 * - an element with text and no attributes is a scalar; with text and attributes (`Novedad`) an object whose
 *   text is `value`; with attributes or children an object;
 * - an element that may repeat is a list of its form;
 * - a wrapper (no attributes, no text, exactly one child, which repeats: `HEDs`/`HED`, `FechasPagos`/`FechaPago`)
 *   is the list of that child under the wrapper's key;
 * - what PAYROLL_DERIVED names is the builder's, not the request's; PAYROLL_DEFAULTED is optional in the request.
 */
import { PAYROLL_XSD } from '../spec/payroll-schema.gen.js';
import type { PayrollXsdNode, PayrollXsdType } from '../spec/payroll-xsd.js';
import {
  PAYROLL_ATTRIBUTE_KEYS,
  PAYROLL_COUNTS,
  PAYROLL_DEFAULTED,
  PAYROLL_DERIVED,
  PAYROLL_ELEMENT_KEYS,
  PAYROLL_EXACT_DECIMALS,
  PAYROLL_KINDS,
  PAYROLL_NOTE_TYPES,
  type PayrollKindId,
} from './table.js';

/** The JSON type of a request value. `code`: a digit string (ids and codes the XSD types as integers). */
export type PayrollJsonType = 'string' | 'code' | 'integer' | 'number' | 'boolean' | 'date' | 'time' | 'dateTime';

/** How a scalar is written: its JSON type and, for numbers, `money` (2 decimals, half-to-even) or exact (min decimals). */
export interface PayrollScalar {
  type: PayrollJsonType;
  /** The XSD name it comes from (attribute or element), for the number rules. */
  xsdName: string;
  decimals?: 'money' | number;
}

/** One key of a request object. */
export interface PayrollEntry {
  key: string;
  /** `Element@Attribute` or `Element`: the name in PAYROLL_DERIVED and in messages. */
  ref: string;
  required: boolean;
  /** Derived (written by the builder): not in the request. */
  derived: boolean;
  /** An attribute of the object's element. */
  attr?: { name: string; scalar: PayrollScalar };
  /** A child element (for a wrapper: the wrapper; `item` is the repeated child). */
  child?: { node: PayrollXsdNode; form: PayrollForm; list: boolean; item?: PayrollXsdNode };
}

/** The form of an element's value: a scalar, an object (attributes and/or children), or text with attributes. */
export type PayrollForm = 'scalar' | 'object' | 'valued';

/** Key of the text of a `valued` element (`Novedad`: `{ value, cune }`). */
export const VALUE_KEY = 'value';

const ENTRIES = new WeakMap<PayrollXsdNode, readonly PayrollEntry[]>();

/** The scalar description of an XSD value named `xsdName` of type `t`. */
export function scalarOf(xsdName: string, t: PayrollXsdType): PayrollScalar {
  switch (t) {
    case 'integer':
      return { type: PAYROLL_COUNTS.has(xsdName) ? 'integer' : 'code', xsdName };
    case 'decimal': {
      const exact = PAYROLL_EXACT_DECIMALS[xsdName];
      return { type: 'number', xsdName, decimals: exact === undefined ? 'money' : exact };
    }
    default:
      return { type: t, xsdName };
  }
}

/** The form of an element. */
export function formOf(node: PayrollXsdNode): PayrollForm {
  if (node.text !== undefined) return node.attrs.length > 0 ? 'valued' : 'scalar';
  return 'object';
}

/** The repeated child of a wrapper element, or undefined when `node` is not a wrapper. */
export function wrappedItem(node: PayrollXsdNode): PayrollXsdNode | undefined {
  if (node.text !== undefined || node.attrs.length > 0 || node.children.length !== 1) return undefined;
  const only = node.children[0]!;
  return only.max === 1 ? undefined : only;
}

function elementKey(name: string): string {
  const key = PAYROLL_ELEMENT_KEYS[name];
  if (key === undefined) throw new Error(`payroll: no request key for element ${name}`);
  return key;
}

function attributeKey(element: string, name: string): string {
  const key = PAYROLL_ATTRIBUTE_KEYS[`${element}@${name}`] ?? PAYROLL_ATTRIBUTE_KEYS[name];
  if (key === undefined) throw new Error(`payroll: no request key for attribute ${element}@${name}`);
  return key;
}

/** The keys of the object an element is in the request (attributes first, then children, in XSD order). */
export function entriesOf(node: PayrollXsdNode): readonly PayrollEntry[] {
  let entries = ENTRIES.get(node);
  if (entries) return entries;
  const out: PayrollEntry[] = [];
  const isRoot = node.name === 'NominaIndividual' || node.name === 'NominaIndividualDeAjuste';
  for (const a of node.attrs) {
    const ref = `${isRoot ? '' : node.name}@${a.name}`;
    const derived = PAYROLL_DERIVED.has(ref);
    out.push({
      key: attributeKey(node.name, a.name),
      ref,
      required: a.required && !derived && !PAYROLL_DEFAULTED.has(ref),
      derived,
      attr: { name: a.name, scalar: scalarOf(a.name, a.type) },
    });
  }
  for (const c of node.children) {
    if (c.name === 'ext:UBLExtensions' || c.name === 'Reemplazar' || c.name === 'Eliminar') continue;
    const item = wrappedItem(c);
    const derived = PAYROLL_DERIVED.has(c.name);
    const entry: PayrollEntry = {
      key: elementKey(c.name),
      ref: c.name,
      required: c.min > 0 && !derived && asksForInput(c),
      derived,
      child: item ? { node: c, form: formOf(item), list: true, item } : { node: c, form: formOf(c), list: c.max !== 1 },
    };
    out.push(entry);
  }
  entries = out;
  ENTRIES.set(node, entries);
  return entries;
}

/**
 * Whether an element the XSD requires needs anything from the request: not when every required value in it is
 * the builder's (`ProveedorXML`: the provider's NIT, software id and code come from the context).
 */
function asksForInput(node: PayrollXsdNode): boolean {
  if (node.text !== undefined) return true;
  const ref = (a: string) => `${node.name}@${a}`;
  if (node.attrs.some((a) => a.required && !PAYROLL_DERIVED.has(ref(a.name)) && !PAYROLL_DEFAULTED.has(ref(a.name)))) return true;
  return node.children.some((c) => c.min > 0 && !PAYROLL_DERIVED.has(c.name));
}

/** The scalar of a `scalar` or `valued` element's text. */
export function textScalar(node: PayrollXsdNode): PayrollScalar {
  return scalarOf(node.name, node.text ?? 'string');
}

/** The element under which a document's content sits: the root (102) or the note type's wrapper (103). */
export function bodyNode(kind: PayrollKindId, noteType?: '1' | '2'): PayrollXsdNode | undefined {
  const root = PAYROLL_XSD[PAYROLL_KINDS[kind].root];
  if (kind === 'payroll') return root;
  if (noteType === undefined) return undefined;
  const wrapper = PAYROLL_NOTE_TYPES[noteType].wrapper;
  return root.children.find((c) => c.name === wrapper);
}

/** The request keys of an adjustment note outside its wrapper (`note_type`). */
export function rootEntries(kind: PayrollKindId): readonly PayrollEntry[] {
  return entriesOf(PAYROLL_XSD[PAYROLL_KINDS[kind].root]).filter((e) => kind === 'payroll-adjustment' && !e.derived);
}

/**
 * The in-memory form of a UBL document that the DIAN builder fills, the writer serialises, the reader produces
 * from XML text, and everything downstream (hash extraction, DIAN rules, the inverse parser) reads. One shape
 * for built and parsed documents, so a code computed from a built tree is computed by the same function as one
 * recomputed from a received file.
 *
 * Names are canonical qualified names (`cbc:ID`, `cac:Party`, `sts:DianExtensions`, the root's local name
 * without prefix): the reader maps whatever prefixes a file uses to these by namespace URI. Attributes are
 * kept in insertion order; text is the element's character content (elements of UBL have either text or
 * children, never both; a mixed element keeps its text and its children).
 *
 * Pure: no I/O.
 */

export interface UblNode {
  /** Canonical qualified name (`cbc:ID`), or the root's local name (`Invoice`). */
  name: string;
  /** Attributes in order, as `[name, value]`; names are as written (`currencyID`, `schemeID`). */
  attrs: [string, string][];
  /** Character content; `undefined` for an element with no text. */
  text?: string;
  children: UblNode[];
}

/** A new element with optional text and attributes. */
export function el(name: string, text?: string, attrs: [string, string][] = []): UblNode {
  return text === undefined ? { name, attrs, children: [] } : { name, attrs, text, children: [] };
}

/** The first child named `name`, or undefined. */
export function child(node: UblNode | undefined, name: string): UblNode | undefined {
  if (!node) return undefined;
  for (const c of node.children) if (c.name === name) return c;
  return undefined;
}

/** Every child named `name`, in document order. */
export function childrenNamed(node: UblNode | undefined, name: string): UblNode[] {
  if (!node) return [];
  return node.children.filter((c) => c.name === name);
}

/** The node at a `/`-separated path of child names below `node` (first match at each step), or undefined. */
export function at(node: UblNode | undefined, path: string): UblNode | undefined {
  let cur = node;
  for (const step of path.split('/')) {
    if (step === '') continue;
    cur = child(cur, step);
    if (!cur) return undefined;
  }
  return cur;
}

/** Every node matching a `/`-separated path below `node` (all matches at each step), in document order. */
export function all(node: UblNode | undefined, path: string): UblNode[] {
  let cur: UblNode[] = node ? [node] : [];
  for (const step of path.split('/')) {
    if (step === '') continue;
    const next: UblNode[] = [];
    for (const n of cur) for (const c of n.children) if (c.name === step) next.push(c);
    cur = next;
  }
  return cur;
}

/** The text at a path below `node` (trimmed), or undefined when the element is absent or has no text. */
export function textAt(node: UblNode | undefined, path: string): string | undefined {
  const t = at(node, path)?.text;
  return t === undefined ? undefined : t.trim();
}

/** The value of attribute `name` on `node`, or undefined. */
export function attr(node: UblNode | undefined, name: string): string | undefined {
  if (!node) return undefined;
  for (const [k, v] of node.attrs) if (k === name) return v;
  return undefined;
}

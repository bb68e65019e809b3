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
  /** Write `text` as CDATA (an embedded document that must come back byte for byte); see ubl/write.ts. */
  cdata?: true;
  children: UblNode[];
}

/** A new element with optional text and attributes. */
export function el(name: string, text?: string, attrs: [string, string][] = []): UblNode {
  return text === undefined ? { name, attrs, children: [] } : { name, attrs, text, children: [] };
}

/** The first child named `name`, or undefined. */
export function child(node: UblNode | undefined, name: string): UblNode | undefined {
  if (!node) return undefined;
  const cs = node.children;
  for (let i = 0; i < cs.length; i++) if (cs[i]!.name === name) return cs[i];
  return undefined;
}

/** Every child named `name`, in document order. */
export function childrenNamed(node: UblNode | undefined, name: string): UblNode[] {
  const out: UblNode[] = [];
  if (!node) return out;
  const cs = node.children;
  for (let i = 0; i < cs.length; i++) if (cs[i]!.name === name) out.push(cs[i]!);
  return out;
}

/** Split paths by text (the steps without empty ones), so a path is split once, not on every call. */
const STEPS = new Map<string, readonly string[]>();
/** Paths come from code, not data; the bound only keeps a caller that builds paths from data from growing the cache. */
const MAX_CACHED_PATHS = 4096;

/** The non-empty `/`-separated steps of `path`, split once per distinct path. */
export function pathSteps(path: string): readonly string[] {
  let steps = STEPS.get(path);
  if (steps === undefined) {
    steps = Object.freeze(path.split('/').filter((s) => s !== ''));
    if (STEPS.size < MAX_CACHED_PATHS) STEPS.set(path, steps);
  }
  return steps;
}

/** The node at a `/`-separated path of child names below `node` (first match at each step), or undefined. */
export function at(node: UblNode | undefined, path: string): UblNode | undefined {
  if (path.indexOf('/') < 0) return path === '' ? node : child(node, path);
  return atSteps(node, pathSteps(path));
}

/** {@link at} with the path already split into its steps (see {@link pathSteps}). */
export function atSteps(node: UblNode | undefined, steps: readonly string[]): UblNode | undefined {
  let cur = node;
  for (let i = 0; i < steps.length; i++) {
    cur = child(cur, steps[i]!);
    if (!cur) return undefined;
  }
  return cur;
}

/** Every node matching a `/`-separated path below `node` (all matches at each step), in document order. */
export function all(node: UblNode | undefined, path: string): UblNode[] {
  return allSteps(node, pathSteps(path));
}

/** {@link all} with the path already split into its steps (see {@link pathSteps}). */
export function allSteps(node: UblNode | undefined, steps: readonly string[]): UblNode[] {
  let cur: UblNode[] = node ? [node] : [];
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s]!;
    const next: UblNode[] = [];
    for (let i = 0; i < cur.length; i++) {
      const cs = cur[i]!.children;
      for (let j = 0; j < cs.length; j++) if (cs[j]!.name === step) next.push(cs[j]!);
    }
    cur = next;
  }
  return cur;
}

/** The text at a path below `node` (trimmed), or undefined when the element is absent or has no text. */
export function textAt(node: UblNode | undefined, path: string): string | undefined {
  const t = at(node, path)?.text;
  return t === undefined ? undefined : t.trim();
}

/** {@link textAt} with the path already split into its steps. */
export function textAtSteps(node: UblNode | undefined, steps: readonly string[]): string | undefined {
  const t = atSteps(node, steps)?.text;
  return t === undefined ? undefined : t.trim();
}

/** The value of attribute `name` on `node`, or undefined. */
export function attr(node: UblNode | undefined, name: string): string | undefined {
  if (!node) return undefined;
  const as = node.attrs;
  for (let i = 0; i < as.length; i++) if (as[i]![0] === name) return as[i]![1];
  return undefined;
}

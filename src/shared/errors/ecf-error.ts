/** Base class of every error ecf-kit throws. `code` is stable; `message` is English for developers. */
export class EcfError extends Error {
  readonly code: string;
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EcfError';
    this.code = options.code ?? 'ecf_error';
  }
}

/**
 * True for an error of the class called `name`, also when it comes from another copy of the package
 * (a duplicated bundle, another realm) where `instanceof` fails: an object with that `name`, a string
 * `message` and a string `code`. The per-class guards (`isTransportError`, …) add their own fields.
 */
export function isNamedEcfError(e: unknown, name: string): e is EcfError {
  if (typeof e !== 'object' || e === null) return false;
  const x = e as { name?: unknown; message?: unknown; code?: unknown };
  return x.name === name && typeof x.message === 'string' && typeof x.code === 'string';
}

/** True for any ecf-kit error, also across duplicated module copies (checks `name` and `code`). */
export function isEcfError(e: unknown): e is EcfError {
  return (
    e instanceof EcfError ||
    (e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && /^(Ecf|Certificate|Signing|Authority|Transport|Schema)/.test(e.name))
  );
}

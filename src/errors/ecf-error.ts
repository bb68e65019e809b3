/** Base class of every error ecf-kit throws. `code` is stable; `message` is English for developers. */
export class EcfError extends Error {
  readonly code: string;
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EcfError';
    this.code = options.code ?? 'ecf_error';
  }
}

/** True for any ecf-kit error, also across duplicated module copies (checks `name` and `code`). */
export function isEcfError(e: unknown): e is EcfError {
  return e instanceof EcfError || (e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && /^(Ecf|Certificate|Signing|Authority|Transport|Schema)/.test(e.name));
}

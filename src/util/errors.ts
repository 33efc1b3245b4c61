// The one error base class: a string `code` to decide retry and recovery on, and `cause` always set.

/**
 * The base of every error switchboard throws: `code` is stable (decide by it, never by the
 * message), `cause` is the underlying error or null.
 */
export class SwitchboardError extends Error {
  readonly code: string;
  override readonly cause: unknown;

  constructor(code: string, message: string, options: { cause?: unknown } = {}) {
    super(message);
    this.name = 'SwitchboardError';
    this.code = code;
    this.cause = options.cause ?? null;
  }
}

export function isSwitchboardError(err: unknown, code?: string): err is SwitchboardError {
  return err instanceof SwitchboardError && (code === undefined || err.code === code);
}

/** A readable one-line message for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

/** Exhaustiveness check for switches over discriminated unions. */
export function assertNever(value: never, what = 'value'): never {
  throw new SwitchboardError('internal', `unexpected ${what}: ${JSON.stringify(value)}`);
}

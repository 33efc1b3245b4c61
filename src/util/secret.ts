// A secret that never prints: JSON, String(), template literals and util.inspect all show it as
// [redacted], and spreading or copying the holder carries no value. Only reveal() hands it out, so
// the few places that must send it somewhere say so.

const REDACTED = '[redacted]';

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The value itself: for the one request that must carry it, never for a log line or a record. */
  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Secret(${REDACTED})`;
  }
}

// Bounded capture of a byte stream: keeps the first and last halves of the budget and counts what
// fell out in between, so a runaway command cannot exhaust memory yet its ending stays visible.

export class HeadTailBuffer {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #omitted = 0;

  constructor(maxBytes: number) {
    this.#headLimit = Math.ceil(maxBytes / 2);
    this.#tailLimit = Math.floor(maxBytes / 2);
  }

  push(chunk: Buffer): void {
    let rest = chunk;
    if (this.#headBytes < this.#headLimit) {
      const take = Math.min(rest.length, this.#headLimit - this.#headBytes);
      this.#head.push(rest.subarray(0, take));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes > this.#tailLimit) {
      const first = this.#tail[0]!;
      const excess = this.#tailBytes - this.#tailLimit;
      if (first.length <= excess) {
        this.#tail.shift();
        this.#tailBytes -= first.length;
        this.#omitted += first.length;
      } else {
        this.#tail[0] = first.subarray(excess);
        this.#tailBytes -= excess;
        this.#omitted += excess;
      }
    }
  }

  /** Bytes dropped from the middle. */
  get omittedBytes(): number {
    return this.#omitted;
  }

  /** The retained text; a marker line stands where bytes were dropped. */
  text(): string {
    if (this.#omitted === 0) return Buffer.concat([...this.#head, ...this.#tail]).toString('utf8');
    const head = Buffer.concat(this.#head).toString('utf8');
    const tail = Buffer.concat(this.#tail).toString('utf8');
    return `${head}\n[... ${this.#omitted} bytes not kept ...]\n${tail}`;
  }
}

// Splits a server's stderr bytes into lines and keeps the last few for error reports.

const MAX_LINE_BYTES = 16 * 1024;

export class StderrLines {
  private partial = '';
  private readonly tail: string[] = [];
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly keep = 20,
  ) {}

  push(chunk: Uint8Array): void {
    this.partial += this.decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = this.partial.indexOf('\n')) !== -1) {
      this.emit(this.partial.slice(0, nl));
      this.partial = this.partial.slice(nl + 1);
    }
    // A server that never ends its line must not grow this buffer without bound.
    if (this.partial.length > MAX_LINE_BYTES) {
      this.emit(this.partial);
      this.partial = '';
    }
  }

  /** Emit what is left after the stream ended. */
  flush(): void {
    this.partial += this.decoder.decode();
    if (this.partial !== '') this.emit(this.partial);
    this.partial = '';
  }

  lines(): string[] {
    return [...this.tail];
  }

  private emit(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    this.tail.push(line);
    if (this.tail.length > this.keep) this.tail.shift();
    this.onLine(line);
  }
}

// Newline framing of a byte stream, shared by every newline-delimited JSON-RPC reader (the MCP client
// over stdio, SSH and exec-server, and the stdio server side): lines out, with a bound on a line's size.

/** The MCP SDK's stdio limit: one line larger than this is a broken peer, not a message. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** Return `false` from a line callback to stop reading the rest of the chunk (the reader closed). */
export type OnLine = (line: string) => boolean | void;

export class LineFramer {
  /** The start of an unterminated line, split over earlier chunks. */
  private parts: Buffer[] = [];
  private pending = 0;

  constructor(readonly maxLineBytes = MAX_LINE_BYTES) {}

  /**
   * Splits `chunk` at `\n` (a trailing `\r` is dropped) and hands each complete line to `onLine`,
   * decoding UTF-8 only once the line is whole. Returns false when a line exceeds the bound; the
   * framer is then empty and the caller ends the connection.
   */
  push(chunk: Buffer, onLine: OnLine): boolean {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      let line: string;
      if (this.parts.length === 0) {
        if (nl - start > this.maxLineBytes) return this.overflow();
        line = chunk.toString('utf8', start, nl);
      } else {
        if (this.pending + nl - start > this.maxLineBytes) return this.overflow();
        this.parts.push(chunk.subarray(start, nl));
        line = Buffer.concat(this.parts).toString('utf8');
        this.parts = [];
        this.pending = 0;
      }
      start = nl + 1;
      if (onLine(line.endsWith('\r') ? line.slice(0, -1) : line) === false) return true;
    }
    if (start < chunk.length) {
      this.pending += chunk.length - start;
      if (this.pending > this.maxLineBytes) return this.overflow();
      this.parts.push(start === 0 ? chunk : chunk.subarray(start));
    }
    return true;
  }

  /** Bytes of the unterminated line held so far. */
  get pendingBytes(): number {
    return this.pending;
  }

  clear(): void {
    this.parts = [];
    this.pending = 0;
  }

  private overflow(): false {
    this.clear();
    return false;
  }
}

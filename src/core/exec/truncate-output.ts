// Caps command output sent to the model (Codex's budget: 10 KiB, 256 lines): keeps the head and the
// tail and marks the cut with how many lines and bytes were left out. Clients still get everything.

export const MODEL_FORMAT_MAX_BYTES = 10 * 1024;
export const MODEL_FORMAT_MAX_LINES = 256;

export interface TruncateLimits {
  maxBytes: number;
  maxLines: number;
}

export interface TruncatedOutput {
  text: string;
  /** Lines in the original text. */
  totalLines: number;
  truncated: boolean;
}

const DEFAULT_LIMITS: TruncateLimits = { maxBytes: MODEL_FORMAT_MAX_BYTES, maxLines: MODEL_FORMAT_MAX_LINES };
// Room kept for the marker line so head + marker + tail stays within maxBytes.
const MARKER_ALLOWANCE = 96;

function countLines(buf: Buffer, start = 0, end = buf.length): number {
  let n = 0;
  for (let i = start; i < end; i++) if (buf[i] === 0x0a) n++;
  return n;
}

/** Move a byte offset back to the start of the UTF-8 character it falls in. */
function charBoundary(buf: Buffer, offset: number): number {
  let i = Math.max(0, Math.min(offset, buf.length));
  while (i > 0 && i < buf.length && (buf[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** Byte offset just after the first `lines` lines. */
function afterLines(buf: Buffer, lines: number): number {
  let seen = 0;
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] === 0x0a && ++seen === lines) return i + 1;
  }
  return buf.length;
}

/** Byte offset where the last `lines` lines start. */
function beforeLastLines(buf: Buffer, lines: number): number {
  let seen = 0;
  const end = buf.length > 0 && buf[buf.length - 1] === 0x0a ? buf.length - 1 : buf.length;
  for (let i = end - 1; i >= 0; i--) {
    if (buf[i] === 0x0a && ++seen === lines) return i + 1;
  }
  return 0;
}

export function truncateForModel(text: string, limits: TruncateLimits = DEFAULT_LIMITS): TruncatedOutput {
  const buf = Buffer.from(text, 'utf8');
  const totalLines = text === '' ? 0 : countLines(buf) + (text.endsWith('\n') ? 0 : 1);
  if (buf.length <= limits.maxBytes && totalLines <= limits.maxLines) {
    return { text, totalLines, truncated: false };
  }
  const headLines = Math.floor(limits.maxLines / 2);
  const tailLines = limits.maxLines - headLines;
  const headBudget = Math.floor(limits.maxBytes / 2);
  const tailBudget = Math.max(0, limits.maxBytes - headBudget - MARKER_ALLOWANCE);

  const headEnd = charBoundary(buf, Math.min(afterLines(buf, headLines), headBudget));
  let tailStart = Math.max(beforeLastLines(buf, tailLines), buf.length - tailBudget);
  tailStart = Math.max(headEnd, charBoundary(buf, tailStart));

  const omittedBytes = tailStart - headEnd;
  const omittedLines = countLines(buf, headEnd, tailStart);
  const marker =
    omittedLines > 0
      ? `[... omitted ${omittedLines} of ${totalLines} lines (${omittedBytes} bytes) ...]`
      : `[... omitted ${omittedBytes} of ${buf.length} bytes ...]`;
  const head = buf.subarray(0, headEnd).toString('utf8');
  const tail = buf.subarray(tailStart).toString('utf8');
  const sep = head === '' || head.endsWith('\n') ? '' : '\n';
  return { text: `${head}${sep}${marker}\n${tail}`, totalLines, truncated: true };
}

// Parses Codex's patch format into hunks (no disk access). Grammar:
//   *** Begin Patch / hunk+ / *** End Patch
//   hunk: *** Add File: P (+line)* | *** Delete File: P | *** Update File: P [*** Move to: Q] chunk+
//   chunk: (@@ | @@ <context line>) then ' ' / '-' / '+' lines, optionally *** End of File
// Lenient like Codex: markers may carry surrounding whitespace, a heredoc wrapper is stripped, and
// the first chunk of an update may omit its @@ line.

export interface UpdateChunk {
  /** A line (e.g. a function signature) that must appear before `oldLines`. */
  context: string | null;
  oldLines: string[];
  newLines: string[];
  /** `oldLines` must match at the end of the file. */
  endOfFile: boolean;
}

export type Hunk =
  | { type: 'add'; path: string; contents: string }
  | { type: 'delete'; path: string }
  | { type: 'update'; path: string; movePath: string | null; chunks: UpdateChunk[] };

export class PatchParseError extends Error {
  constructor(
    message: string,
    /** 1-based line of the patch text, when the error is inside a hunk. */
    readonly lineNumber: number | null = null,
  ) {
    super(lineNumber === null ? `invalid patch: ${message}` : `invalid hunk at line ${lineNumber}, ${message}`);
    this.name = 'PatchParseError';
  }
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARKER = '*** End of File';
const HEREDOC_OPENERS = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);

function checkBoundaries(lines: string[]): string[] {
  const first = lines[0]?.trim();
  const last = lines[lines.length - 1]?.trim();
  if (first !== BEGIN) throw new PatchParseError(`The first line of the patch must be '${BEGIN}'`);
  if (lines.length < 2 || last !== END) throw new PatchParseError(`The last line of the patch must be '${END}'`);
  return lines.slice(1, -1);
}

export function parsePatch(text: string): Hunk[] {
  const lines = text.trim().split(/\r?\n/);
  let body: string[];
  try {
    body = checkBoundaries(lines);
  } catch (err) {
    // The model sometimes passes `<<'EOF' ... EOF` as if a shell were reading it.
    const first = lines[0]?.trim() ?? '';
    if (lines.length >= 4 && HEREDOC_OPENERS.has(first) && lines[lines.length - 1]!.trim().endsWith('EOF')) {
      body = checkBoundaries(lines.slice(1, -1));
    } else {
      throw err;
    }
  }
  const hunks: Hunk[] = [];
  let rest = body;
  let lineNumber = 2;
  while (rest.length > 0) {
    // Blank lines between hunks carry nothing.
    if (rest[0]!.trim() === '') {
      rest = rest.slice(1);
      lineNumber++;
      continue;
    }
    const [hunk, used] = parseHunk(rest, lineNumber);
    hunks.push(hunk);
    rest = rest.slice(used);
    lineNumber += used;
  }
  return hunks;
}

function parseHunk(lines: string[], lineNumber: number): [Hunk, number] {
  const header = lines[0]!.trim();
  if (header.startsWith(ADD)) {
    let contents = '';
    let used = 1;
    for (const line of lines.slice(1)) {
      if (!line.startsWith('+')) break;
      contents += `${line.slice(1)}\n`;
      used++;
    }
    return [{ type: 'add', path: header.slice(ADD.length).trim(), contents }, used];
  }
  if (header.startsWith(DELETE)) return [{ type: 'delete', path: header.slice(DELETE.length).trim() }, 1];
  if (header.startsWith(UPDATE)) {
    const path = header.slice(UPDATE.length).trim();
    let used = 1;
    let movePath: string | null = null;
    const maybeMove = lines[1]?.trim();
    if (maybeMove?.startsWith(MOVE)) {
      movePath = maybeMove.slice(MOVE.length).trim();
      used++;
    }
    const chunks: UpdateChunk[] = [];
    while (used < lines.length) {
      const line = lines[used]!;
      if (line.trim() === '') {
        used++;
        continue;
      }
      if (line.startsWith('*')) break;
      const [chunk, chunkLines] = parseChunk(lines.slice(used), lineNumber + used, chunks.length === 0);
      chunks.push(chunk);
      used += chunkLines;
    }
    if (chunks.length === 0) throw new PatchParseError(`Update file hunk for path '${path}' is empty`, lineNumber);
    return [{ type: 'update', path, movePath, chunks }, used];
  }
  throw new PatchParseError(
    `'${header}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
    lineNumber,
  );
}

function parseChunk(lines: string[], lineNumber: number, allowMissingContext: boolean): [UpdateChunk, number] {
  const first = lines[0]!;
  let start: number;
  let context: string | null;
  if (first.trim() === '@@') {
    context = null;
    start = 1;
  } else if (first.startsWith('@@ ')) {
    context = first.slice(3);
    start = 1;
  } else if (allowMissingContext) {
    context = null;
    start = 0;
  } else {
    throw new PatchParseError(`Expected update hunk to start with a @@ context marker, got: '${first}'`, lineNumber);
  }
  if (start >= lines.length) throw new PatchParseError('Update hunk does not contain any lines', lineNumber + 1);
  const chunk: UpdateChunk = { context, oldLines: [], newLines: [], endOfFile: false };
  let parsed = 0;
  for (const line of lines.slice(start)) {
    if (line.trim() === EOF_MARKER) {
      if (parsed === 0) throw new PatchParseError('Update hunk does not contain any lines', lineNumber + 1);
      chunk.endOfFile = true;
      parsed++;
      break;
    }
    const marker = line[0];
    if (marker === undefined) {
      chunk.oldLines.push('');
      chunk.newLines.push('');
    } else if (marker === ' ') {
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (marker === '+') {
      chunk.newLines.push(line.slice(1));
    } else if (marker === '-') {
      chunk.oldLines.push(line.slice(1));
    } else {
      if (parsed === 0) {
        throw new PatchParseError(
          `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
          lineNumber + 1,
        );
      }
      break; // the next chunk (@@) or hunk begins
    }
    parsed++;
  }
  return [chunk, start + parsed];
}

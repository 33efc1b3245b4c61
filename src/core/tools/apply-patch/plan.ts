// Turns parsed hunks into the complete set of file writes and deletions, computed in memory against
// the current files (hunks see the effects of earlier hunks). Nothing is written here, so a failing
// hunk anywhere leaves every file untouched.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileChange } from '../../../protocol/index.js';
import type { Hunk, UpdateChunk } from './parser.js';
import { seekSequence } from './seek-sequence.js';
import { unifiedDiff } from './unified-diff.js';

export class PatchApplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchApplyError';
  }
}

export interface PatchPlan {
  /** Final state of every touched absolute path: new content, or null to delete. */
  writes: Map<string, string | null>;
  /** Codex's `changes` map for events and approval requests, keyed by absolute path. */
  changes: Record<string, FileChange>;
  /** Every absolute path written or deleted (move destinations included). */
  paths: string[];
  /** `A path` / `M path` / `D path` lines as the model wrote the paths. */
  summary: string[];
}

function errnoText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'No such file or directory';
  if (code === 'EISDIR') return 'Is a directory';
  if (code === 'EACCES') return 'Permission denied';
  return err instanceof Error ? err.message : String(err);
}

interface Lines {
  lines: string[];
  eol: '\n' | '\r\n';
}

function splitLines(content: string): Lines {
  const newlines = content.split('\n').length - 1;
  const crlf = newlines > 0 && content.split('\r\n').length - 1 === newlines;
  const lines = crlf ? content.split('\r\n') : content.split('\n');
  // The final newline ends the last line; it is not an empty line of its own.
  if (lines[lines.length - 1] === '') lines.pop();
  return { lines, eol: crlf ? '\r\n' : '\n' };
}

type Replacement = { start: number; oldLen: number; newLines: string[] };

function computeReplacements(lines: readonly string[], file: string, chunks: readonly UpdateChunk[]): Replacement[] {
  const replacements: Replacement[] = [];
  let index = 0;
  for (const chunk of chunks) {
    let contextFound = false;
    if (chunk.context !== null) {
      const at = seekSequence(lines, [chunk.context], index, false);
      if (at < 0) throw new PatchApplyError(`Failed to find context '${chunk.context}' in ${file}`);
      index = at + 1;
      contextFound = true;
    }
    if (chunk.oldLines.length === 0) {
      // Pure addition: right after its context line, or at the end of the file.
      const at = contextFound ? index : lines.length;
      replacements.push({ start: at, oldLen: 0, newLines: chunk.newLines });
      continue;
    }
    let pattern = chunk.oldLines;
    let newLines = chunk.newLines;
    let at = seekSequence(lines, pattern, index, chunk.endOfFile);
    if (at < 0 && pattern[pattern.length - 1] === '') {
      // A trailing empty line usually stands for the file's final newline, which splitLines drops.
      pattern = pattern.slice(0, -1);
      if (newLines[newLines.length - 1] === '') newLines = newLines.slice(0, -1);
      at = seekSequence(lines, pattern, index, chunk.endOfFile);
    }
    if (at < 0) {
      throw new PatchApplyError(`Failed to find expected lines in ${file}:\n${chunk.oldLines.join('\n')}`);
    }
    replacements.push({ start: at, oldLen: pattern.length, newLines });
    index = at + pattern.length;
  }
  return replacements.sort((a, b) => a.start - b.start);
}

function applyReplacements(lines: readonly string[], replacements: readonly Replacement[]): string[] {
  const out = [...lines];
  for (const r of [...replacements].reverse()) out.splice(r.start, r.oldLen, ...r.newLines);
  return out;
}

/** Resolve a patch path against cwd (absolute paths are kept, `..` is normalised). */
export function resolvePatchPath(cwd: string, p: string): string {
  return path.resolve(cwd, p);
}

export async function planPatch(hunks: readonly Hunk[], cwd: string): Promise<PatchPlan> {
  if (hunks.length === 0) throw new PatchApplyError('No files were modified.');
  const writes = new Map<string, string | null>();
  const changes: Record<string, FileChange> = {};
  const paths = new Set<string>();
  const summary: string[] = [];

  const current = async (abs: string, context: string): Promise<string> => {
    if (writes.has(abs)) {
      const content = writes.get(abs);
      if (content === null || content === undefined) throw new PatchApplyError(`${context} ${abs}: No such file or directory`);
      return content;
    }
    try {
      const info = await stat(abs);
      if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      return await readFile(abs, 'utf8');
    } catch (err) {
      throw new PatchApplyError(`${context} ${abs}: ${errnoText(err)}`);
    }
  };

  for (const hunk of hunks) {
    const abs = resolvePatchPath(cwd, hunk.path);
    switch (hunk.type) {
      case 'add':
        writes.set(abs, hunk.contents);
        changes[abs] = { type: 'add', content: hunk.contents };
        paths.add(abs);
        summary.push(`A ${hunk.path}`);
        break;
      case 'delete': {
        const original = await current(abs, 'Failed to read');
        writes.set(abs, null);
        changes[abs] = { type: 'delete', content: original };
        paths.add(abs);
        summary.push(`D ${hunk.path}`);
        break;
      }
      case 'update': {
        const original = await current(abs, 'Failed to read file to update');
        const { lines, eol } = splitLines(original);
        const updated = applyReplacements(lines, computeReplacements(lines, abs, hunk.chunks));
        const content = updated.length === 0 ? '' : `${updated.join(eol)}${eol}`;
        const dest = hunk.movePath === null ? null : resolvePatchPath(cwd, hunk.movePath);
        if (dest !== null && dest !== abs) {
          writes.set(abs, null);
          writes.set(dest, content);
          paths.add(dest);
        } else {
          writes.set(abs, content);
        }
        paths.add(abs);
        changes[abs] = { type: 'update', unified_diff: unifiedDiff(lines, updated), move_path: dest };
        summary.push(`M ${hunk.movePath ?? hunk.path}`);
        break;
      }
    }
  }
  return { writes, changes, paths: [...paths], summary };
}

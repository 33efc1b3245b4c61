// Writes a computed patch to disk as one unit: every touched file is snapshotted first, and if any
// write or delete fails, what was already done is rolled back, so files end as they were.
import { lstat, mkdir, readFile, realpath, rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../../util/index.js';
import { PatchApplyError } from './plan.js';

type Snapshot = { path: string; existed: false } | { path: string; existed: true; content: Buffer; mode: number };

/** For writes through a symlink, the file it points at is the one replaced (links stay links). */
async function snapshot(file: string, followLinks: boolean): Promise<Snapshot> {
  try {
    if (followLinks) file = await realpath(file).catch(() => file);
    const info = await lstat(file);
    if (info.isDirectory()) throw new PatchApplyError(`Failed to write ${file}: Is a directory`);
    return { path: file, existed: true, content: await readFile(file), mode: info.mode & 0o7777 };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { path: file, existed: false };
    if (err instanceof PatchApplyError) throw err;
    throw new PatchApplyError(`Failed to read ${file}: ${reason(err)}`);
  }
}

/** The folders `mkdir -p dir` would create, outermost first. */
async function missingDirs(dir: string): Promise<string[]> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    try {
      await lstat(current);
      return missing.reverse();
    } catch {
      missing.push(current);
      const parent = path.dirname(current);
      if (parent === current) return missing.reverse();
      current = parent;
    }
  }
}

function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}` : String(err);
}

export async function commitPatch(writes: ReadonlyMap<string, string | null>): Promise<void> {
  const snapshots = new Map<string, Snapshot>();
  for (const [file, content] of writes) snapshots.set(file, await snapshot(file, content !== null));

  const done: Snapshot[] = [];
  const createdDirs: string[] = [];
  try {
    for (const [file, content] of writes) {
      const before = snapshots.get(file)!;
      if (content === null) {
        if (!before.existed) continue;
        await unlink(file).catch((err: unknown) => {
          throw new PatchApplyError(`Failed to delete file ${file}: ${reason(err)}`);
        });
      } else {
        const target = before.path;
        const dirs = await missingDirs(path.dirname(target));
        await mkdir(path.dirname(target), { recursive: true }).catch((err: unknown) => {
          throw new PatchApplyError(`Failed to create parent directories for ${file}: ${reason(err)}`);
        });
        createdDirs.push(...dirs);
        await writeFileAtomic(target, content, { mode: before.existed ? before.mode : undefined }).catch((err: unknown) => {
          throw new PatchApplyError(`Failed to write file ${file}: ${reason(err)}`);
        });
      }
      done.push(before);
    }
  } catch (err) {
    const failures = await rollback(done, createdDirs);
    const message = err instanceof Error ? err.message : String(err);
    throw new PatchApplyError(
      failures.length === 0
        ? `${message}\nNo files were changed.`
        : `${message}\nRolling back failed for: ${failures.join(', ')}`,
    );
  }
}

async function rollback(done: readonly Snapshot[], createdDirs: readonly string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const s of [...done].reverse()) {
    try {
      if (s.existed) await writeFileAtomic(s.path, s.content, { mode: s.mode });
      else await rm(s.path, { force: true });
    } catch {
      failures.push(s.path);
    }
  }
  for (const dir of [...createdDirs].reverse()) await rmdir(dir).catch(() => {});
  return failures;
}

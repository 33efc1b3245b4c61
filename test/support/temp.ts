// Temporary folders (and $SWITCHBOARD_HOMEs) that tests create and always remove.
import { mkdir, mkdtemp, readdir, readFile, rm, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export async function tempDir(prefix = 'sb-tools-', parent = os.tmpdir()): Promise<string> {
  return mkdtemp(path.join(parent, prefix));
}

/**
 * Removes a folder a test used. Retried: work the code under test finishes in the background (a lock
 * released, a snapshot written) may briefly put a file back while the removal runs (ENOTEMPTY).
 */
export async function removeTree(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

/** A temporary $SWITCHBOARD_HOME (or any folder a test owns), removed by the returned cleanup. */
export async function tempHome(prefix = 'sb-home-'): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await tempDir(prefix);
  return { home, cleanup: () => removeTree(home) };
}

/** A temporary root (added to `dirs`, for removeAll) with `work/`, the tool's cwd, and `outside/`, a folder beside it. */
export async function workAndOutside(dirs: string[]): Promise<{ root: string; cwd: string; outside: string }> {
  const root = await tempDir();
  dirs.push(root);
  const cwd = path.join(root, 'work');
  const outside = path.join(root, 'outside');
  await mkdir(cwd);
  await mkdir(outside);
  return { root, cwd, outside };
}

export async function removeAll(dirs: string[]): Promise<void> {
  await Promise.all(dirs.splice(0).map(removeTree));
}

/** Every file under `root` (relative path -> bytes as latin1 string), for exact comparisons. */
export async function readTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(abs);
      else out[path.relative(root, abs)] = await readFile(abs, 'latin1');
    }
  };
  await walk(root);
  return out;
}

export async function copyTree(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
}

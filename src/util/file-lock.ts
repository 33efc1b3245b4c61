// The locks shared by every layer: an in-process FIFO mutex, and a cross-process lock file that
// appears atomically with its owner's pid in it (a finished temp file hard-linked into place), so a
// waiter never mistakes a lock being created for a stale one. A dead owner's lock (or one held past
// `staleMs`) is moved aside and only that inode is removed, so two waiters never both take it over.
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sleep } from './abort.js';
import { SwitchboardError } from './errors.js';
import { randomHex } from './random-hex.js';

export type Release = () => void;
/** Releases a file lock; awaiting it is optional (the lock file is removed either way). */
export type FileRelease = () => Promise<void>;

/** FIFO mutex; `acquire` resolves to an idempotent release function. */
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();

  async acquire(): Promise<Release> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => mine);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

export interface FileLockOptions {
  /** Give up waiting after this long (default 30 s). */
  timeoutMs?: number;
  /** A lock held longer than this is taken over even if its owner lives (default 120 s). */
  staleMs?: number;
  signal?: AbortSignal;
}

function ownerAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Move a dead owner's lock aside; only the inode we judged stale is removed. */
async function takeOverIfStale(lockPath: string, staleMs: number): Promise<void> {
  let info;
  let pid;
  try {
    info = await stat(lockPath);
    pid = Number.parseInt(await readFile(lockPath, 'utf8'), 10);
  } catch {
    return; // released meanwhile
  }
  if (ownerAlive(pid) && Date.now() - info.mtimeMs < staleMs) return;
  const aside = `${lockPath}.stale-${randomHex()}`;
  try {
    await rename(lockPath, aside);
  } catch {
    return; // someone else took it over first
  }
  const moved = await stat(aside);
  if (moved.ino !== info.ino) {
    // A new owner locked in between: put its lock back.
    await link(aside, lockPath).catch(() => {});
  }
  await rm(aside, { force: true });
}

/**
 * Put our finished lock file in place; false when the lock is held. File systems without hard links
 * fall back to an exclusive create (a lock briefly empty there is tolerated: its owner is alive).
 */
async function tryLink(mine: string, lockPath: string): Promise<boolean> {
  try {
    await link(mine, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
  }
  try {
    await writeFile(lockPath, String(process.pid), { mode: 0o600, flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Take the lock; the returned function releases it. */
export async function acquireFileLock(lockPath: string, options: FileLockOptions = {}): Promise<FileRelease> {
  const dir = path.dirname(lockPath);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const staleMs = options.staleMs ?? 120_000;
  const mine = `${lockPath}.${process.pid}-${randomHex()}`;
  await writeFile(mine, String(process.pid), { mode: 0o600 });
  let delay = 5;
  try {
    for (;;) {
      if (await tryLink(mine, lockPath)) break;
      await takeOverIfStale(lockPath, staleMs);
      if (Date.now() > deadline) {
        throw new SwitchboardError('lock_timeout', `timed out waiting for lock ${lockPath}; if no other switchboard process is running, delete it`);
      }
      await sleep(delay, options.signal);
      delay = Math.min(delay * 2, 50);
    }
  } finally {
    await rm(mine, { force: true });
  }
  let released: Promise<void> | undefined;
  return () => {
    released ??= rm(lockPath, { force: true }).catch(() => {});
    return released;
  };
}

/** Run `fn` while holding `lockPath`; the lock is released in `finally`. */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const release = await acquireFileLock(lockPath, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}

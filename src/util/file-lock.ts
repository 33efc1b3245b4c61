// Cross-process advisory lock: a lock file holding the owner's pid, with stale-lock takeover.
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { SwitchboardError } from './errors.js';
import { sleep } from './abort.js';

export interface FileLockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this whose owner is gone is taken over (default 30 s). */
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

async function isStale(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    const pid = Number.parseInt(text, 10);
    const old = Date.now() - info.mtimeMs > staleMs;
    // A lock without a readable pid is only stale once it is old: its owner may be writing it right now.
    if (!Number.isInteger(pid)) return old;
    return !ownerAlive(pid) || old;
  } catch {
    return false;
  }
}

/**
 * Create `lockPath` holding our pid, or return false when it exists. The lock appears with its
 * content already written (hard link of a finished temp file), so no other process can see an
 * empty lock and mistake it for a stale one.
 */
async function tryCreate(lockPath: string): Promise<boolean> {
  const tmp = `${lockPath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, String(process.pid), { mode: 0o600, flag: 'wx' });
  try {
    await link(tmp, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    // File systems without hard links: exclusive create (an empty lock is tolerated by isStale).
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Run `fn` while holding `lockPath`; the lock is released in `finally`. */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const staleMs = options.staleMs ?? 30_000;
  let delay = 5;
  for (;;) {
    if (await tryCreate(lockPath)) break;
    if (await isStale(lockPath, staleMs)) {
      await rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new SwitchboardError('lock_timeout', `timed out waiting for lock ${lockPath}; if no other switchboard process is running, delete it`);
    }
    await sleep(delay, options.signal);
    delay = Math.min(delay * 2, 100);
  }
  try {
    return await fn();
  } finally {
    await rm(lockPath, { force: true });
  }
}

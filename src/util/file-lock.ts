// Cross-process advisory lock: an exclusively created lock file, with stale-lock takeover.
import { open, readFile, rm, stat } from 'node:fs/promises';
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
    const pid = Number.parseInt(await readFile(lockPath, 'utf8'), 10);
    if (!ownerAlive(pid)) return true;
    const info = await stat(lockPath);
    return Date.now() - info.mtimeMs > staleMs;
  } catch {
    return false;
  }
}

/** Run `fn` while holding `lockPath`; the lock is released in `finally`. */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const staleMs = options.staleMs ?? 30_000;
  let delay = 5;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
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
  }
  try {
    return await fn();
  } finally {
    await rm(lockPath, { force: true });
  }
}

// Two locks the refresh path needs: an in-process mutex and a cross-process file lock that can be
// held across callbacks (acquired in one provider method, released in another).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { withFileLock } from '../../util/index.js';

export type Release = () => void;

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

/**
 * Take the file lock (util's withFileLock, with its stale-lock takeover) and keep it until the
 * returned function is called. Errors while removing the lock are reported to `onReleaseError`.
 */
export async function acquireFileLock(lockPath: string, options: { timeoutMs?: number; onReleaseError?: (err: unknown) => void } = {}): Promise<Release> {
  await mkdir(path.dirname(lockPath), { recursive: true, mode: 0o700 });
  return new Promise<Release>((resolveAcquired, rejectAcquired) => {
    let acquired = false;
    withFileLock(
      lockPath,
      () =>
        new Promise<void>((releaseHeld) => {
          acquired = true;
          let released = false;
          resolveAcquired(() => {
            if (released) return;
            released = true;
            releaseHeld();
          });
        }),
      { timeoutMs: options.timeoutMs ?? 30_000, staleMs: 60_000 },
    ).catch((err: unknown) => {
      if (acquired) options.onReleaseError?.(err);
      else rejectAcquired(err);
    });
  });
}

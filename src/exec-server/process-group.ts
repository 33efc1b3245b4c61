// Signalling whole process groups: SIGTERM, then SIGKILL after a grace period, until the group is gone.
import { KILL_GRACE_MS } from './methods.js';

/** Send a signal to every process of group `pgid`; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: the group exists but is not ours to signal (pgid reused by another user); treat as gone.
    return false;
  }
}

export function groupExists(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

const POLL_MS = 25;

/**
 * SIGTERM the group, SIGKILL it if it is still there after `graceMs`, and resolve once it is gone
 * (or `graceMs + 1 s` after the SIGKILL at the latest, for processes stuck in the kernel).
 */
export function terminateGroup(pgid: number, graceMs = KILL_GRACE_MS): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return Promise.resolve();
  return new Promise((resolve) => {
    const started = Date.now();
    let killed = false;
    const timer = setInterval(() => {
      if (!groupExists(pgid)) {
        clearInterval(timer);
        resolve();
        return;
      }
      const elapsed = Date.now() - started;
      if (!killed && elapsed >= graceMs) {
        killed = true;
        signalGroup(pgid, 'SIGKILL');
      } else if (elapsed >= graceMs + 1000) {
        clearInterval(timer);
        resolve();
      }
    }, POLL_MS);
  });
}

// Signalling whole process groups (a stdio MCP server, an exec-server process, a shell command):
// SIGTERM, then SIGKILL after a grace period, until the group is gone. POSIX only.

/** SIGTERM to a process group, then SIGKILL after this long (Codex's PROCESS_GROUP_TERM_GRACE_PERIOD). */
export const PROCESS_GROUP_TERM_GRACE_MS = 2_000;

/** Send a signal to every process of group `pgid`; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    // ESRCH: gone. EPERM: the group exists but is not ours to signal (pgid reused by another user),
    // which is as good as gone for us.
    return false;
  }
}

export function groupExists(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

const POLL_MS = 25;

/**
 * SIGTERM the group, SIGKILL it if it is still there after `graceMs`, and resolve once it is gone
 * (or 1 s after the SIGKILL at the latest, for processes stuck in the kernel).
 */
export function terminateGroup(pgid: number, graceMs = PROCESS_GROUP_TERM_GRACE_MS): Promise<void> {
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

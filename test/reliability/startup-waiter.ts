// Waiting for a subject's next startup outcome of one server: checked now and on every change the
// subject announces to `listeners`, until it appears or the time is up.
import type { StartupOutcome } from './subjects.js';

export function waitForStartupOutcome(
  listeners: Set<() => void>,
  find: () => StartupOutcome | undefined,
  describe: () => string,
  timeoutMs: number,
): Promise<StartupOutcome> {
  return new Promise<StartupOutcome>((resolve, reject) => {
    const check = () => {
      const seen = find();
      if (!seen) return;
      clearTimeout(timer);
      listeners.delete(check);
      resolve(seen);
    };
    const timer = setTimeout(() => {
      listeners.delete(check);
      reject(new Error(describe()));
    }, timeoutMs);
    listeners.add(check);
    check();
  });
}

// Gives a quiet HTTP host's memory back to the system. Under load V8 grows its heap spaces (the young
// generation to its maximum) and keeps them when the load stops: a gateway that served 2,000 calls
// held about 160 MB more at rest than when it started, nearly all of it garbage and empty heap that
// only a full collection returns, which nothing runs while the process rests.
//
// By default not sooner than a minute: a collection that shrinks the heap does not keep alive the
// hidden classes (maps) of objects no request holds at that moment (V8 retains them only in
// collections that do not reduce memory), so it clears the inline caches and deoptimizes the code
// that serves requests. The next calls run unoptimized until V8 has optimized them again: after a
// 7 s pause the next 20 calls of one client took 87.5 and 82.8 ms against 61.8 and 59.1 ms, and 32
// clients' 640 calls after a pause about twice the CPU (docs/performance.md, issue 37 eleventh
// round). Agents pause for seconds between calls; a host quiet for a minute is at rest.
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Logger } from '../../util/index.js';

/** How long no request may arrive before the host collects and shrinks its heap (once per quiet spell). */
export const IDLE_RELEASE_MS = 60_000;

/** How often the quiet spell is checked: the collection runs within two of these after the idle time. */
const CHECK_EVERY_MS = 5_000;

type FullGc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let collector: FullGc | null | undefined;

/**
 * V8's collector with the `last-resort` flavor (every available collection, then the heap spaces
 * shrunk), as `--expose-gc` offers it. Node has no flag for it in a shebang launcher, so the flag is
 * set for a moment: a context made meanwhile gets `gc`, and no other context ever sees it.
 */
function fullCollector(): FullGc | null {
  if (collector !== undefined) return collector;
  try {
    const own = (globalThis as { gc?: unknown }).gc;
    if (typeof own === 'function') collector = own as FullGc;
    else {
      v8.setFlagsFromString('--expose-gc');
      collector = vm.runInNewContext('gc') as FullGc;
      v8.setFlagsFromString('--no-expose-gc');
    }
  } catch {
    collector = null;
  }
  return collector;
}

/**
 * Counts requests (call `seen` for each) and, once none arrived for `idleMs`, collects once; the
 * next request starts a new spell. The check runs on an unref'd timer: it never keeps the process up.
 * Returns the stop function.
 */
export function releaseWhenIdle(log: Logger, idleMs = IDLE_RELEASE_MS): { seen(): void; stop(): void } {
  let requests = 0;
  let checked = 0;
  let quietSince = Date.now();
  let released = true; // a fresh host has nothing to give back
  const timer = setInterval(
    () => {
      const now = Date.now();
      if (requests !== checked) {
        checked = requests;
        quietSince = now;
        released = false;
        return;
      }
      if (released || now - quietSince < idleMs) return;
      released = true;
      const gc = fullCollector();
      if (!gc) return;
      const before = process.memoryUsage.rss();
      gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      log.debug('idle: heap collected and shrunk', { rssBeforeMb: Math.round(before / 2 ** 20), rssAfterMb: Math.round(process.memoryUsage.rss() / 2 ** 20), tookMs: Date.now() - now });
    },
    Math.max(100, Math.min(CHECK_EVERY_MS, idleMs / 4)),
  );
  timer.unref();
  return {
    seen: () => {
      requests += 1;
    },
    stop: () => clearInterval(timer),
  };
}

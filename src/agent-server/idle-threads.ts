// Threads no call has used for a while are shut down to free their memory; their rollout stays on
// disk, and the next `codex-reply` resumes them from it. (Session-wide approvals are forgotten then.)
import type { ThreadManager } from '../core/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import type { ThreadLeases } from '../store/index.js';

export const DEFAULT_THREAD_IDLE_MS = 30 * 60_000;

export class IdleThreads {
  private readonly lastUsed = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly manager: ThreadManager,
    private readonly leases: ThreadLeases,
    readonly idleMs: number,
    private readonly logger: Logger,
  ) {}

  /** A call on this thread just finished. */
  touch(threadId: string): void {
    this.lastUsed.set(threadId, Date.now());
    if (!this.timer && this.idleMs > 0) {
      this.timer = setInterval(() => this.sweep(), Math.max(50, Math.min(this.idleMs / 2, 60_000)));
      this.timer.unref();
    }
  }

  /** Shut down threads idle for `idleMs` that no call holds. */
  sweep(now = Date.now()): void {
    for (const [id, used] of this.lastUsed) {
      if (now - used < this.idleMs || this.leases.isBusy(id)) continue;
      const thread = this.manager.find(id);
      // A call returns on its turn's last event, a moment before the thread itself is idle again:
      // a thread still running is looked at again on the next sweep, not forgotten.
      if (thread?.status === 'running') continue;
      this.lastUsed.delete(id);
      if (thread?.status !== 'idle') continue;
      this.logger.info('shutting down an idle thread (it resumes from its rollout on the next reply)', { threadId: id });
      thread.shutdown().catch((err: unknown) => this.logger.warn('idle thread shutdown failed', { threadId: id, error: errorMessage(err) }));
    }
    if (this.lastUsed.size === 0) this.stop();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

// The agent server's own shutdown, after the host stopped serving: idle threads stop being watched,
// and every thread is shut down within Codex's bound.
import type { ThreadManager } from '../core/index.js';
import type { Logger } from '../util/index.js';
import type { CodexAgent } from './tool-call.js';

/** Codex's bound on shutting threads down after stdin closes. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

/** Shut every thread down, waiting at most `timeoutMs`; false when the bound was hit. */
export async function shutdownThreads(manager: ThreadManager, logger: Logger, timeoutMs = SHUTDOWN_TIMEOUT_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const ok = await Promise.race([manager.shutdown().then(() => true as const), timedOut]);
    if (!ok) logger.warn('threads did not shut down in time', { timeoutMs });
    return ok;
  } finally {
    clearTimeout(timer);
  }
}

export async function shutdownAgent(agent: CodexAgent, logger: Logger): Promise<void> {
  agent.idle.stop();
  await shutdownThreads(agent.manager, logger);
}

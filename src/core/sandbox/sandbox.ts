// The Sandbox seam: a pure argv rewrite that confines a command to a SandboxPolicy, plus the one
// error every backend raises when it cannot confine anything (so nothing ever runs unconfined).
import type { SandboxPolicy } from '../../protocol/index.js';
import { SwitchboardError } from '../../util/index.js';

/** A folder the command may write, with sub-paths that stay read-only (e.g. `.git`). */
export interface WritableRoot {
  root: string;
  readOnlySubpaths: string[];
}

export interface SandboxWrapOptions {
  /** The session's working directory (the policy's "workspace"). */
  cwd: string;
  /** Folders writable under `workspace-write` (ignored by the other policies). */
  writableRoots: WritableRoot[];
  /** Network reachable from inside (only honoured under `workspace-write`). */
  networkAccess: boolean;
}

export type SandboxKind = 'bwrap' | 'seatbelt' | 'none';

/** Confines commands to a sandbox policy by rewriting their argv (bubblewrap, Seatbelt). */
export interface Sandbox {
  readonly kind: SandboxKind;
  /**
   * The argv that runs `argv` confined to `policy`. Pure: never spawns, never touches the disk.
   * `danger-full-access` returns `argv` unchanged.
   */
  wrap(argv: string[], policy: SandboxPolicy, options: SandboxWrapOptions): string[];
  /**
   * Resolves when confined commands can run on this machine; otherwise rejects with a
   * SandboxUnavailableError that names the fix. Callers check this before running a wrapped argv.
   */
  ensureAvailable(options?: { signal?: AbortSignal }): Promise<void>;
}

export const SANDBOX_UNAVAILABLE = 'sandbox_unavailable';

export class SandboxUnavailableError extends SwitchboardError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(SANDBOX_UNAVAILABLE, message, options);
    this.name = 'SandboxUnavailableError';
  }
}

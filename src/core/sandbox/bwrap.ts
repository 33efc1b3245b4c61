// Linux confinement through bubblewrap: read-only root, writable binds for the writable roots with
// `.git` re-bound read-only, no network unless allowed, own pid namespace, all capabilities dropped.
import { spawn } from 'node:child_process';
import type { SandboxPolicy } from '../../protocol/index.js';
import { assertNever } from '../../util/index.js';
import { SandboxUnavailableError, type Sandbox, type SandboxWrapOptions } from './sandbox.js';

export const BWRAP_INSTALL_HINT =
  'Install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`, Fedora: `dnf install bubblewrap`)';
export const USERNS_HINT =
  'bubblewrap needs user namespaces: enable them (`sysctl -w kernel.unprivileged_userns_clone=1` or ' +
  '`user.max_user_namespaces` > 0; on Ubuntu 24.04+ allow bwrap in AppArmor), or run inside a container ' +
  'started with namespace support';

/** The bubblewrap flags (everything after the `bwrap` executable) for a confined policy. */
export function bwrapArgs(argv: string[], policy: SandboxPolicy, options: SandboxWrapOptions): string[] {
  const args = ['--new-session', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev'];
  let network: boolean;
  switch (policy.type) {
    case 'read-only':
      network = false;
      break;
    case 'workspace-write':
      network = options.networkAccess;
      for (const root of options.writableRoots) args.push('--bind', root.root, root.root);
      // After the writable binds, so the protected sub-paths win.
      for (const root of options.writableRoots) {
        for (const sub of root.readOnlySubpaths) args.push('--ro-bind', sub, sub);
      }
      break;
    case 'danger-full-access':
      throw new Error('bwrapArgs: danger-full-access is not confined');
    default:
      return assertNever(policy, 'sandbox policy');
  }
  args.push('--unshare-pid');
  if (!network) args.push('--unshare-net');
  // A root caller keeps every capability inside bwrap unless told otherwise, and could remount `/`.
  args.push('--proc', '/proc', '--cap-drop', 'ALL');
  args.push('--setenv', 'SWITCHBOARD_SANDBOX', 'bwrap');
  if (!network) args.push('--setenv', 'SWITCHBOARD_SANDBOX_NETWORK_DISABLED', '1');
  args.push('--', ...argv);
  return args;
}

export interface BwrapSandboxOptions {
  /** The bubblewrap executable (default `bwrap`, found on PATH). */
  bwrapPath?: string;
}

export class BwrapSandbox implements Sandbox {
  readonly kind = 'bwrap' as const;
  readonly bwrapPath: string;
  #available: Promise<void> | undefined;

  constructor(options: BwrapSandboxOptions = {}) {
    this.bwrapPath = options.bwrapPath ?? 'bwrap';
  }

  wrap(argv: string[], policy: SandboxPolicy, options: SandboxWrapOptions): string[] {
    if (policy.type === 'danger-full-access') return argv;
    return [this.bwrapPath, ...bwrapArgs(argv, policy, options)];
  }

  ensureAvailable(options: { signal?: AbortSignal } = {}): Promise<void> {
    // Only success is remembered: a user may install bubblewrap while a session is open.
    this.#available ??= probeBwrap(this.bwrapPath, options.signal).catch((err: unknown) => {
      this.#available = undefined;
      throw err;
    });
    return this.#available;
  }
}

const PROBE_TIMEOUT_MS = 15_000;

/** Run a trivial command under the strictest confinement we use; explain what to do when it fails. */
function probeBwrap(bwrapPath: string, signal: AbortSignal | undefined): Promise<void> {
  const probe = bwrapArgs(['true'], { type: 'read-only' }, { cwd: '/', writableRoots: [], networkAccess: false });
  return new Promise((resolve, reject) => {
    const child = spawn(bwrapPath, probe, { stdio: ['ignore', 'ignore', 'pipe'], signal });
    // Our own bound, not spawn's `timeout`: that timer outlives a failed spawn (ENOENT) and keeps the
    // process alive for its whole length.
    const timer = setTimeout(() => child.kill('SIGTERM'), PROBE_TIMEOUT_MS);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 4096) stderr += d;
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (signal?.aborted) {
        reject(signal.reason);
      } else if (err.code === 'ENOENT') {
        reject(
          new SandboxUnavailableError(
            `sandbox unavailable: bubblewrap (\`${bwrapPath}\`) is not installed. ${BWRAP_INSTALL_HINT}, ` +
              'or choose sandbox_mode = "danger-full-access" to run commands unconfined.',
            { cause: err },
          ),
        );
      } else {
        reject(new SandboxUnavailableError(`sandbox unavailable: could not start \`${bwrapPath}\`: ${err.message}`, { cause: err }));
      }
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve();
        return;
      }
      const detail = stderr.trim() || (sig ? `killed by ${sig}` : `exit code ${code}`);
      reject(
        new SandboxUnavailableError(
          `sandbox unavailable: bubblewrap could not create its sandbox (${detail}). ${USERNS_HINT}; ` +
            'or choose sandbox_mode = "danger-full-access" to run commands unconfined.',
        ),
      );
    });
  });
}

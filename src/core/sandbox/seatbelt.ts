// macOS confinement through Seatbelt (`sandbox-exec -p <profile>`): the same three policies as the
// Linux backend, expressed as a deny-by-default profile with the writable roots passed as parameters.
import { access, constants } from 'node:fs/promises';
import type { SandboxPolicy } from '../../protocol/index.js';
import { assertNever } from '../../util/index.js';
import { SandboxUnavailableError, type Sandbox, type SandboxWrapOptions } from './sandbox.js';

export const SANDBOX_EXEC_PATH = '/usr/bin/sandbox-exec';

// Process, terminal and system-information rules every confined command needs to work at all.
const BASE_PROFILE = `(version 1)
(deny default)

; children inherit this profile
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))

(allow user-preference-read)
(allow sysctl-read)
(allow mach-host*)
(allow ipc-posix-sem)
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.PowerManagement.control"))

(allow file-write-data
  (require-all (path "/dev/null") (vnode-type CHARACTER-DEVICE)))

(allow pseudo-tty)
(allow file-read* file-write* file-ioctl (literal "/dev/ptmx"))
(allow file-read* file-write* file-ioctl (regex #"^/dev/ttys[0-9]+"))

; reading is allowed everywhere
(allow file-read*)
`;

const NETWORK_PROFILE = `
; network
(allow network-outbound)
(allow network-inbound)
(allow system-socket)
(allow mach-lookup
  (global-name "com.apple.SystemConfiguration.configd")
  (global-name "com.apple.dnssd.service")
  (global-name "com.apple.trustd.agent"))
`;

export interface SeatbeltProfile {
  profile: string;
  /** `-D` parameters referenced by the profile (writable roots and their read-only sub-paths). */
  params: Record<string, string>;
}

export function seatbeltProfile(policy: SandboxPolicy, options: SandboxWrapOptions): SeatbeltProfile {
  switch (policy.type) {
    case 'read-only':
      return { profile: BASE_PROFILE, params: {} };
    case 'workspace-write': {
      const params: Record<string, string> = {};
      const rules: string[] = [];
      options.writableRoots.forEach((root, i) => {
        const name = `WRITABLE_ROOT_${i}`;
        params[name] = root.root;
        if (root.readOnlySubpaths.length === 0) {
          rules.push(`  (subpath (param "${name}"))`);
          return;
        }
        const excluded = root.readOnlySubpaths.map((sub, j) => {
          const subName = `${name}_RO_${j}`;
          params[subName] = sub;
          return ` (require-not (subpath (param "${subName}")))`;
        });
        rules.push(`  (require-all (subpath (param "${name}"))${excluded.join('')})`);
      });
      let profile = BASE_PROFILE;
      if (rules.length > 0) profile += `\n; writable roots\n(allow file-write*\n${rules.join('\n')})\n`;
      if (options.networkAccess) profile += NETWORK_PROFILE;
      return { profile, params };
    }
    case 'danger-full-access':
      throw new Error('seatbeltProfile: danger-full-access is not confined');
    default:
      return assertNever(policy, 'sandbox policy');
  }
}

export class SeatbeltSandbox implements Sandbox {
  readonly kind = 'seatbelt' as const;
  readonly sandboxExecPath: string;

  constructor(options: { sandboxExecPath?: string } = {}) {
    this.sandboxExecPath = options.sandboxExecPath ?? SANDBOX_EXEC_PATH;
  }

  wrap(argv: string[], policy: SandboxPolicy, options: SandboxWrapOptions): string[] {
    if (policy.type === 'danger-full-access') return argv;
    const { profile, params } = seatbeltProfile(policy, options);
    const defines = Object.entries(params).map(([k, v]) => `-D${k}=${v}`);
    return [this.sandboxExecPath, '-p', profile, ...defines, '--', ...argv];
  }

  async ensureAvailable(): Promise<void> {
    try {
      await access(this.sandboxExecPath, constants.X_OK);
    } catch (err) {
      throw new SandboxUnavailableError(
        `sandbox unavailable: \`${this.sandboxExecPath}\` (macOS Seatbelt) is missing; ` +
          'choose sandbox_mode = "danger-full-access" to run commands unconfined.',
        { cause: err },
      );
    }
  }
}

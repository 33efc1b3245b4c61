// Picks the confinement backend for the running OS; other systems get one that refuses to confine.
import type { SandboxPolicy } from '../../protocol/index.js';
import { BwrapSandbox } from './bwrap.js';
import { SandboxUnavailableError, type Sandbox, type SandboxWrapOptions } from './sandbox.js';
import { SeatbeltSandbox } from './seatbelt.js';

export interface PlatformSandboxOptions {
  platform?: NodeJS.Platform;
  /** Linux: the bubblewrap executable (default `bwrap` on PATH). */
  bwrapPath?: string;
}

/** The sandbox for this OS: bubblewrap on Linux, Seatbelt on macOS; elsewhere one that runs only `danger-full-access` commands. */
export function createPlatformSandbox(options: PlatformSandboxOptions = {}): Sandbox {
  const platform = options.platform ?? process.platform;
  if (platform === 'linux') return new BwrapSandbox({ bwrapPath: options.bwrapPath });
  if (platform === 'darwin') return new SeatbeltSandbox();
  return new NoSandbox(platform);
}

/** For systems without a supported sandbox: unconfined policies run, everything else is refused. */
export class NoSandbox implements Sandbox {
  readonly kind = 'none' as const;
  constructor(private readonly platform: string) {}

  wrap(argv: string[], policy: SandboxPolicy, _options: SandboxWrapOptions): string[] {
    if (policy.type === 'danger-full-access') return argv;
    throw this.#error();
  }

  async ensureAvailable(): Promise<void> {
    throw this.#error();
  }

  #error(): SandboxUnavailableError {
    return new SandboxUnavailableError(
      `sandbox unavailable: no sandbox is supported on ${this.platform}; ` +
        'choose sandbox_mode = "danger-full-access" to run commands unconfined.',
    );
  }
}

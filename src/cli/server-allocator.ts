// The memory allocator of a long-running server command. glibc's malloc keeps the memory V8's
// compilers free in the arena of the thread that freed it, and gives back only what sits at an
// arena's top: a gateway at rest held 10 to 27 MB of such free memory, and its process was 89 to
// 117 MB where the same process under jemalloc, which returns freed pages after about ten seconds,
// was 84 to 88 MB (docs/performance.md, "Issue 37, twentieth round"). Node links glibc's malloc, so
// the launcher preloads jemalloc (`LD_PRELOAD`) in the re-execution that sets V8's flags, when the
// system has it (Debian and Ubuntu: the libjemalloc2 package). Without it a server runs as before.
//
// The preload is for switchboard's own process: the re-executed process takes it out of its
// environment before anything else runs, so the servers, shells and tools it starts never inherit it.
import fs from 'node:fs';
import { UsageError } from './exit-codes.js';

/** The operator's choice: `auto` (the default: jemalloc where installed), `jemalloc` (required), `system`. */
export const ALLOCATOR_VAR = 'SWITCHBOARD_ALLOCATOR';

/** Set beside our `LD_PRELOAD` for the re-executed process, which removes both. */
const PRELOADED_VAR = 'SWITCHBOARD_PRELOADED_ALLOCATOR';

const LIBRARY = 'libjemalloc.so.2';

const CHOICES = ['auto', 'jemalloc', 'system'] as const;
type Choice = (typeof CHOICES)[number];

/** Debian's and Ubuntu's multiarch directories, by Node's name for the architecture. */
const MULTIARCH: Readonly<Record<string, string>> = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu', arm: 'arm-linux-gnueabihf', ppc64: 'powerpc64le-linux-gnu', s390x: 's390x-linux-gnu', riscv64: 'riscv64-linux-gnu' };

/** Where distributions install jemalloc: Debian and Ubuntu by architecture, Fedora and RHEL in lib64, Arch in lib. */
export function jemallocPaths(arch: string): string[] {
  const triplet = MULTIARCH[arch];
  return [...(triplet ? [`/usr/lib/${triplet}/${LIBRARY}`] : []), `/usr/lib64/${LIBRARY}`, `/usr/lib/${LIBRARY}`];
}

/** What the allocator choice reads of the machine; tests pass their own. */
export interface AllocatorMachine {
  platform: NodeJS.Platform;
  arch: string;
  exists(file: string): boolean;
}

const thisMachine = (): AllocatorMachine => ({
  platform: process.platform,
  arch: process.arch,
  exists: (file) => {
    try {
      fs.accessSync(file, fs.constants.R_OK);
      return true;
    } catch {
      return false;
    }
  },
});

/**
 * The environment additions that preload jemalloc for a server command, or undefined to keep the
 * system allocator: chosen so, not Linux, no jemalloc installed (unless required), or an `LD_PRELOAD`
 * already set (the operator's, which is left as it is). A bad value, or `jemalloc` where it cannot be
 * had, is a usage error.
 */
export function allocatorPreload(env: Readonly<Record<string, string | undefined>>, machine: AllocatorMachine = thisMachine()): Record<string, string> | undefined {
  const value = (env[ALLOCATOR_VAR] ?? '').trim() || 'auto';
  if (!(CHOICES as readonly string[]).includes(value)) throw new UsageError(`${ALLOCATOR_VAR} must be ${CHOICES.join(', ')} or unset, not ${JSON.stringify(value)}`);
  const choice = value as Choice;
  if (choice === 'system' || env[PRELOADED_VAR] || (env.LD_PRELOAD ?? '').trim() !== '') return undefined;
  if (machine.platform !== 'linux') {
    if (choice === 'jemalloc') throw new UsageError(`${ALLOCATOR_VAR}=jemalloc is for Linux, where glibc's allocator is the default; unset it on ${machine.platform}`);
    return undefined;
  }
  const paths = jemallocPaths(machine.arch);
  const library = paths.find((p) => machine.exists(p));
  if (library === undefined) {
    if (choice === 'jemalloc') throw new UsageError(`${ALLOCATOR_VAR}=jemalloc, but ${LIBRARY} is in none of ${paths.join(', ')}: install it (Debian and Ubuntu: apt-get install libjemalloc2), or unset ${ALLOCATOR_VAR} to run with the system allocator`);
    return undefined;
  }
  return { LD_PRELOAD: library, [PRELOADED_VAR]: library };
}

let preloaded: string | undefined;

/**
 * In the re-executed process: takes our preload out of `env` (process.env), so that nothing this
 * process starts inherits it, and remembers it for {@link preloadedAllocator}. An `LD_PRELOAD` that
 * is not ours stays.
 */
export function forgetPreload(env: Record<string, string | undefined> = process.env): void {
  const library = env[PRELOADED_VAR];
  if (library === undefined) return;
  delete env[PRELOADED_VAR];
  if (env.LD_PRELOAD !== library) return;
  delete env.LD_PRELOAD;
  preloaded = library;
}

/** The allocator this process runs with, as its launcher chose it: `jemalloc (<path>)` or `system`. */
export function preloadedAllocator(): string {
  return preloaded !== undefined ? `jemalloc (${preloaded})` : 'system';
}

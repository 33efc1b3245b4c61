// The memory allocator of a long-running server command. glibc's malloc keeps the memory V8's
// compilers free in the arena of the thread that freed it, and gives back only what sits at an
// arena's top: a gateway at rest held 9 to 27 MB of such free memory, and its process was 89 to
// 117 MB where the same process under jemalloc, which returns freed pages after about ten seconds,
// was 84 to 88 MB (docs/performance.md, "Issue 37, twentieth round"). Node links glibc's malloc, so
// the launcher preloads jemalloc (`LD_PRELOAD`) in the re-execution that sets V8's flags, when the
// system has it (Debian and Ubuntu: the libjemalloc2 package). Without it a server runs as before.
// jemalloc returns memory from a thread of its own (`background_thread:true`, unless the operator
// set MALLOC_CONF): purged inline, on the thread that allocates, the p99 of a gateway's calls was
// higher than on glibc in three rounds of four gateways; with the thread it was lower.
//
// The preload is for switchboard's own process: the re-executed process takes it out of its
// environment before anything else runs, so the servers, shells and tools it starts never inherit it.
import fs from 'node:fs';
import { UsageError } from './exit-codes.js';

/** The operator's choice: `auto` (the default: jemalloc where installed), `jemalloc` (required), `system`. */
export const ALLOCATOR_VAR = 'SWITCHBOARD_ALLOCATOR';

/** Set beside our `LD_PRELOAD` for the re-executed process: the variables we added, which it removes. */
const PRELOADED_VAR = 'SWITCHBOARD_PRELOADED_ALLOCATOR';

/** jemalloc's settings where the operator has none: freed memory is returned by a thread of its own. */
const JEMALLOC_CONF = 'background_thread:true';

const LIBRARY = 'libjemalloc.so.2';

/** The paragraph of `serve --help` and `mcp-server --help` on it. */
export const ALLOCATOR_HELP = `Memory:
  On Linux the server runs on jemalloc where the system has it (Debian and Ubuntu: libjemalloc2),
  which gives freed memory back where glibc's allocator keeps it: a smaller process at rest. The
  servers and commands it starts do not inherit it. $${ALLOCATOR_VAR}: auto (default),
  jemalloc (refuse to start without it) or system. See docs/gateway.md, "The memory allocator".`;

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

/** The jemalloc library a server command would preload on `machine`, or undefined (none found, or not Linux). */
export function installedJemalloc(machine: AllocatorMachine = thisMachine()): string | undefined {
  return machine.platform === 'linux' ? jemallocPaths(machine.arch).find((p) => machine.exists(p)) : undefined;
}

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
  // An LD_PRELOAD already set is the operator's, or ours in the re-executed process.
  if (choice === 'system' || (env.LD_PRELOAD ?? '').trim() !== '') return undefined;
  const library = installedJemalloc(machine);
  if (library === undefined) {
    if (choice !== 'jemalloc') return undefined;
    throw new UsageError(
      machine.platform !== 'linux'
        ? `${ALLOCATOR_VAR}=jemalloc is for Linux, where glibc's allocator is the default; unset it on ${machine.platform}`
        : `${ALLOCATOR_VAR}=jemalloc, but ${LIBRARY} is in none of ${jemallocPaths(machine.arch).join(', ')}: install it (Debian and Ubuntu: apt-get install libjemalloc2), or unset ${ALLOCATOR_VAR} to run with the system allocator`,
    );
  }
  const added: Record<string, string> = { LD_PRELOAD: library };
  if ((env.MALLOC_CONF ?? '').trim() === '') added.MALLOC_CONF = JEMALLOC_CONF;
  return { ...added, [PRELOADED_VAR]: Object.keys(added).join(',') };
}

let preloaded: string | undefined;

/**
 * In the re-executed process: takes the variables our launch added out of `env` (process.env), so
 * that nothing this process starts inherits them, and remembers the library for
 * {@link preloadedAllocator}.
 */
export function forgetPreload(env: Record<string, string | undefined> = process.env): void {
  const added = env[PRELOADED_VAR]?.split(',');
  if (added === undefined) return;
  delete env[PRELOADED_VAR];
  if (added.includes('LD_PRELOAD')) preloaded = env.LD_PRELOAD;
  for (const name of ['LD_PRELOAD', 'MALLOC_CONF']) if (added.includes(name)) delete env[name];
}

/** The allocator this process runs with, as its launcher chose it: `jemalloc (<path>)` or `system`. */
export function preloadedAllocator(): string {
  return preloaded !== undefined ? `jemalloc (${preloaded})` : 'system';
}

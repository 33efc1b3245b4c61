// Node's settings for a long-running server command, which V8 reads only when the process starts. The
// launcher (bin/switchboard.js) re-executes a server command with them before it has opened or read
// anything: `process.execve` keeps the process, its pid and its descriptors.
//
// - The young generation. On a 64-bit machine with memory to spare, V8 lets a Node process's young
//   generation grow to 64 MB a semi-space, and a server that makes many small short-lived objects per
//   request grows it there: the gateway's process was 247 to 262 MB at the peak of 32 clients with
//   it, 162 to 190 MB with semi-spaces of at most 8 MB, and its calls took less CPU
//   (docs/performance.md, "Issue 37, fifteenth round").
// - V8's worker threads. Node starts four, whatever the machine. Each thread that runs V8's
//   optimizing compilers gets a malloc arena of its own, and glibc keeps the compilers' freed memory
//   there: on a 2-core machine the other threads' arenas of a gateway at rest held 11 to 26 MB with
//   four workers and 7 to 16 MB with two, its process 104 against 92 MB on average (six pairs;
//   docs/performance.md, "Issue 37, eighteenth round"). No more workers than cores, and at least two.
// - The memory allocator: jemalloc where the system has it (server-allocator.ts).
import os from 'node:os';
import { asksForHelp, readCommandLine } from './command-line.js';
import { allocatorPreload, type AllocatorMachine } from './server-allocator.js';

/** The commands that run until stopped, serving clients. */
const SERVER_COMMANDS: ReadonlySet<string> = new Set(['serve', 'mcp-server']);

/** Semi-spaces of at most 8 MB (a young generation of at most 16 MB): 4 MB cost more CPU per call, 16 MB a longer tail (p99). */
export const SERVER_HEAP_FLAG = '--max-semi-space-size=8';

/** Node's own number of V8 worker threads. */
const NODE_WORKERS = 4;

/** The fewest V8 workers a server gets: with one, the gateway at rest was larger in both pairs measured (docs/performance.md, seventeenth round). */
const MIN_WORKERS = 2;

/** A flag, and the option names (of Node's or V8's, `-` or `_`) by which the operator may have chosen otherwise. */
interface ServerFlag {
  flag: string;
  chosen: RegExp;
}

/** The flags a server command gets on a machine of `cpus` cores (as `os.availableParallelism()` counts them). */
function serverFlags(cpus: number): ServerFlag[] {
  const flags: ServerFlag[] = [{ flag: SERVER_HEAP_FLAG, chosen: /^--(max|min)[-_]semi[-_]space[-_]size\b/ }];
  if (cpus < NODE_WORKERS) flags.push({ flag: `--v8-pool-size=${Math.max(MIN_WORKERS, Math.floor(cpus))}`, chosen: /^--v8[-_]pool[-_]size\b/ });
  return flags;
}

/** The flags a server command starts with on a machine of `cpus` cores when the operator chose none of them. */
export function serverFlagsFor(cpus: number = os.availableParallelism()): string[] {
  return serverFlags(cpus).map((f) => f.flag);
}

export interface LaunchedProcess {
  readonly argv: readonly string[];
  readonly execArgv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** How to re-execute a server command: the arguments (argv[0] first) and the environment. */
export interface ServerLaunch {
  argv: string[];
  env: Record<string, string | undefined>;
}

/** What the launch reads of the machine beyond the process: its cores and its allocator; tests pass their own. */
export interface LaunchMachine {
  cpus?: number;
  allocator?: AllocatorMachine;
}

/**
 * How to re-execute `proc`, or undefined to run as it is: not a server command, or help asked for,
 * or a debugger's `--inspect` (which a re-executed process would drop), or nothing to change. A flag
 * the operator set in Node's options or NODE_OPTIONS (`--max-semi-space-size` or
 * `--min-semi-space-size`; `--v8-pool-size`) is theirs: ours is left out; so is an `LD_PRELOAD` of
 * theirs. The machine's cores (by default `os.availableParallelism()`, which reads the process's CPU
 * affinity and cgroup limits) and its allocator are looked up only for a server command: every CLI
 * run calls this. Throws a UsageError for a bad `SWITCHBOARD_ALLOCATOR`.
 */
export function serverLaunch(proc: LaunchedProcess, machine: LaunchMachine = {}): ServerLaunch | undefined {
  const args = proc.argv.slice(2);
  const { command } = readCommandLine(args);
  if (command === undefined || !SERVER_COMMANDS.has(command)) return undefined;
  if (asksForHelp(args)) return undefined;
  const nodeOptions = [...proc.execArgv, ...(proc.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (nodeOptions.some((o) => o.startsWith('--inspect'))) return undefined;
  const flags = serverFlags(machine.cpus ?? os.availableParallelism()).filter((f) => !nodeOptions.some((o) => f.chosen.test(o)));
  const preload = allocatorPreload(proc.env, machine.allocator);
  if (flags.length === 0 && preload === undefined) return undefined;
  return { argv: [proc.argv[0]!, ...flags.map((f) => f.flag), ...proc.execArgv, ...proc.argv.slice(1)], env: { ...proc.env, ...preload } };
}

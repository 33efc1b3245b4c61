// The young generation of a long-running server. On a 64-bit machine with memory to spare, V8 lets a
// Node process's young generation grow to 64 MB a semi-space, and a server that makes many small
// short-lived objects per request grows it there: the gateway's process was 247 to 262 MB at the
// peak of 32 clients with it, 162 to 190 MB with semi-spaces of at most 8 MB, and its calls took less
// CPU (docs/performance.md, "Issue 37, fifteenth round"). V8 takes the size only when the process
// starts, so the launcher (bin/switchboard.js) re-executes a server command with it before it has
// opened or read anything: `process.execve` keeps the process, its pid and its descriptors.
import { asksForHelp, readCommandLine } from './command-line.js';

/** The commands that run until stopped, serving clients. */
const SERVER_COMMANDS: ReadonlySet<string> = new Set(['serve', 'mcp-server']);

/** Semi-spaces of at most 8 MB (a young generation of at most 16 MB): 4 MB cost more CPU per call, 16 MB a longer tail (p99). */
export const SERVER_HEAP_FLAG = '--max-semi-space-size=8';

export interface LaunchedProcess {
  readonly argv: readonly string[];
  readonly execArgv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * The arguments to re-execute `proc` with (argv[0] first), or undefined to run as it is: not a server
 * command, or help asked for, or a young generation already chosen (`--max-semi-space-size` or
 * `--min-semi-space-size` in Node's options or NODE_OPTIONS: the operator's choice wins), or a
 * debugger's `--inspect` (which a re-executed process would drop).
 */
export function serverHeapArgv(proc: LaunchedProcess): string[] | undefined {
  const args = proc.argv.slice(2);
  const { command } = readCommandLine(args);
  if (command === undefined || !SERVER_COMMANDS.has(command)) return undefined;
  if (asksForHelp(args)) return undefined;
  const nodeOptions = [...proc.execArgv, ...(proc.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (nodeOptions.some((o) => /^--(max|min)[-_]semi[-_]space[-_]size\b/.test(o) || o.startsWith('--inspect'))) return undefined;
  return [proc.argv[0]!, SERVER_HEAP_FLAG, ...proc.execArgv, ...proc.argv.slice(1)];
}

// The local StdioLauncher: the server runs as a child in its own process group, with an allow-listed
// environment; stderr goes to the log and a small tail; close kills the whole group.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { errorMessage, sleep } from '../../util/index.js';
import { PROCESS_GROUP_TERM_GRACE_MS, STDERR_TAIL_LINES } from '../defaults.js';
import { McpClientError } from '../errors.js';
import type { LaunchedServer, LaunchOptions, StdioLauncher, StdioServerSpec } from './launcher.js';
import { createLocalServerEnv } from './stdio-env.js';
import { StdioStreamTransport } from './stdio-stream-transport.js';

/** How long an exited server's stderr may take to drain (a grandchild can hold it open). */
const STDERR_DRAIN_GRACE_MS = 250;

export interface LocalLauncherOptions {
  /** The environment the allow list copies from; defaults to this process's. */
  parentEnv?: Readonly<Record<string, string | undefined>>;
  /** SIGTERM → SIGKILL grace for the process group. */
  termGraceMs?: number;
}

export function createLocalLauncher(options: LocalLauncherOptions = {}): StdioLauncher {
  return {
    kind: 'local',
    launch: (spec, launchOptions) => launchLocal(spec, launchOptions, options),
  };
}

async function launchLocal(spec: StdioServerSpec, options: LaunchOptions, local: LocalLauncherOptions): Promise<LaunchedServer> {
  const env = createLocalServerEnv(local.parentEnv ?? process.env, spec.envVars, spec.env);
  const program = spec.command;
  if (spec.cwd !== null && !existsSync(spec.cwd)) {
    throw new McpClientError('launch_failed', `failed to start MCP server \`${program}\`: working directory \`${spec.cwd}\` does not exist`);
  }
  options.signal?.throwIfAborted();

  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd ?? undefined,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group, so close() reaches grandchildren (npx, uvx, sh -c wrappers).
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) => reject(new McpClientError('launch_failed', `failed to start MCP server \`${program}\`: ${err.message}`, { cause: err })));
  });

  const tail: string[] = [];
  const stderr = createInterface({ input: child.stderr!, crlfDelay: Infinity });
  stderr.on('line', (line) => {
    options.logger.info(`MCP server stderr (${program}): ${line}`);
    tail.push(line);
    if (tail.length > STDERR_TAIL_LINES) tail.shift();
    options.onStderrLine?.(line);
  });
  child.stderr!.on('error', (err) => options.logger.warn(`Failed to read MCP server stderr (${program}): ${errorMessage(err)}`));

  const grace = local.termGraceMs ?? PROCESS_GROUP_TERM_GRACE_MS;
  const transport = new StdioStreamTransport({
    stdin: child.stdin!,
    stdout: child.stdout!,
    program,
    terminate: () => terminateGroup(child, grace),
  });
  const stderrDrained = new Promise<void>((resolve) => stderr.once('close', resolve));
  child.once('exit', (code, signal) => {
    const how = signal ? `was killed by signal ${signal}` : `exited with code ${code ?? 'unknown'}`;
    // Its last words on stderr usually arrive after the exit status; they belong in the error.
    void Promise.race([stderrDrained, sleep(STDERR_DRAIN_GRACE_MS)]).then(() => {
      transport.fail(new McpClientError('process_exited', `MCP server \`${program}\` ${how}`));
    });
  });

  if (options.signal?.aborted) {
    await transport.close();
    options.signal.throwIfAborted();
  }
  return {
    transport,
    stderrTail: () => [...tail],
    describe: () => `local pid ${child.pid ?? '?'}`,
  };
}

/** SIGTERM to the group; SIGKILL after the grace if anything in it is still alive. */
async function terminateGroup(child: ChildProcess, graceMs: number): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    child.kill();
    return;
  }
  if (!signalGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(25);
    if (!signalGroup(pid, 0)) return;
  }
  signalGroup(pid, 'SIGKILL');
  for (let i = 0; i < 40 && signalGroup(pid, 0); i++) await sleep(25);
}

/** Signal the process group `pid`; false when no process of the group is left. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

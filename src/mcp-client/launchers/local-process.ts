// A local stdio server's process: spawned in its own process group with the allow-listed environment
// (and the Node compile cache), its exit recorded from the start. Free of the MCP SDK, so the manager
// can start a server before the MCP layer has loaded (prelaunch/); the local launcher wires the
// process to a transport.
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { errorMessage, terminateGroup, type Logger } from '../../util/index.js';
import { McpClientError } from '../errors.js';
import type { StdioServerSpec } from './launcher.js';
import { addCompileCache, createLocalServerEnv } from './stdio-env.js';

export interface LocalLauncherOptions {
  /** The environment the allow list copies from; defaults to this process's. */
  parentEnv?: Readonly<Record<string, string | undefined>>;
  /** SIGTERM → SIGKILL grace for the process group. */
  termGraceMs?: number;
  /** NODE_COMPILE_CACHE for servers that are Node programs (see addCompileCache); none when unset. */
  compileCacheDir?: string;
}

/** A started server process; nobody has read its output yet (its pipes hold it). */
export interface LocalProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly program: string;
  /** Whether it runs with NODE_COMPILE_CACHE (close then lets it exit on its own first). */
  readonly compileCache: boolean;
  /** How it ended; recorded from the spawn on, so an exit before anyone listened is not lost. */
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `spec` as a child in its own process group; rejects with `launch_failed` when it cannot
 * start. The process is spawned before this first yields (nothing on the way is asynchronous), so a
 * caller that goes on to load modules has the server starting meanwhile.
 */
export async function spawnLocalProcess(spec: StdioServerSpec, local: LocalLauncherOptions, logger: Logger, signal?: AbortSignal): Promise<LocalProcess> {
  const parentEnv = local.parentEnv ?? process.env;
  const env = createLocalServerEnv(parentEnv, spec.envVars, spec.env);
  let compileCache = addCompileCache(env, parentEnv, local.compileCacheDir);
  if (compileCache && !privateDir(local.compileCacheDir!, logger)) {
    delete env.NODE_COMPILE_CACHE;
    compileCache = false;
  }
  const program = spec.command;
  if (spec.cwd !== null && !existsSync(spec.cwd)) {
    throw new McpClientError('launch_failed', `working directory \`${spec.cwd}\` of \`${program}\` does not exist; check the server's \`cwd\``);
  }
  signal?.throwIfAborted();

  const child: ChildProcessWithoutNullStreams = spawn(spec.command, spec.args, {
    cwd: spec.cwd ?? undefined,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group, so close() reaches grandchildren (npx, uvx, sh -c wrappers).
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) => reject(new McpClientError('launch_failed', spawnFailureText(program, err), { cause: err })));
  });
  return { child, program, compileCache, exit };
}

/** Why `program` did not run, and what to check (the callers above say which server failed to start). */
function spawnFailureText(program: string, err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT':
      return `program \`${program}\` not found (spawn ENOENT); check the server's \`command\`: installed, and on PATH or an absolute path`;
    case 'EACCES':
      return `program \`${program}\` is not executable (spawn EACCES); check the server's \`command\` and the file's permissions`;
    default:
      return `cannot run \`${program}\`: ${err.message}`;
  }
}

/**
 * The compile cache's directory, made here (0700, like the rest of the home) rather than by the
 * server's Node, which would make it and its parents with the default mode. False if it cannot be.
 */
function privateDir(dir: string, logger: Logger): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  } catch (err) {
    logger.debug(`Node compile cache for stdio servers not used: ${errorMessage(err)}`);
    return false;
  }
}

/** The whole process group on POSIX; Windows has no groups to signal, so the child alone. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.pid === undefined) return;
  if (process.platform === 'win32') {
    child.kill();
    return;
  }
  await terminateGroup(child.pid, graceMs);
}

// The local StdioLauncher: the server runs as a child in its own process group, with an allow-listed
// environment; its pipes feed the shared StdioTransport, and close kills the whole group.
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { errorMessage, PROCESS_GROUP_TERM_GRACE_MS, terminateGroup } from '../../util/index.js';
import { McpClientError } from '../errors.js';
import type { LaunchedServer, LaunchOptions, StdioLauncher, StdioServerSpec } from './launcher.js';
import { addCompileCache, createLocalServerEnv } from './stdio-env.js';
import { StdioTransport } from './stdio-transport.js';

/** How long an exited server's stderr may take to drain (a grandchild can hold it open). */
const STDERR_DRAIN_GRACE_MS = 250;
/**
 * With a compile cache, how long close() waits for the server to exit on its own once its stdin is
 * closed before signalling it: Node writes the cache only on a normal exit, never when killed.
 */
const COMPILE_CACHE_EXIT_GRACE_MS = 200;

export interface LocalLauncherOptions {
  /** The environment the allow list copies from; defaults to this process's. */
  parentEnv?: Readonly<Record<string, string | undefined>>;
  /** SIGTERM → SIGKILL grace for the process group. */
  termGraceMs?: number;
  /** NODE_COMPILE_CACHE for servers that are Node programs (see addCompileCache); none when unset. */
  compileCacheDir?: string;
}

export function createLocalLauncher(options: LocalLauncherOptions = {}): StdioLauncher {
  return {
    kind: 'local',
    launch: (spec, launchOptions) => launchLocal(spec, launchOptions, options),
  };
}

async function launchLocal(spec: StdioServerSpec, options: LaunchOptions, local: LocalLauncherOptions): Promise<LaunchedServer> {
  const parentEnv = local.parentEnv ?? process.env;
  const env = createLocalServerEnv(parentEnv, spec.envVars, spec.env);
  let compileCache = addCompileCache(env, parentEnv, local.compileCacheDir);
  if (compileCache && !(await privateDir(local.compileCacheDir!, options.logger))) {
    delete env.NODE_COMPILE_CACHE;
    compileCache = false;
  }
  const program = spec.command;
  if (spec.cwd !== null && !existsSync(spec.cwd)) {
    throw new McpClientError('launch_failed', `failed to start MCP server \`${program}\`: working directory \`${spec.cwd}\` does not exist`);
  }
  options.signal?.throwIfAborted();

  const child: ChildProcessWithoutNullStreams = spawn(spec.command, spec.args, {
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

  const { stdin, stdout, stderr } = child;
  const transport = new StdioTransport({ program, logger: options.logger, onStderrLine: options.onStderrLine });
  stdout.on('data', (chunk: Buffer) => transport.receiveStdout(chunk));
  stdout.on('close', () => transport.broken(new McpClientError('connection_closed', `MCP server \`${program}\` closed its stdout`)));
  stdin.on('error', (err) => {
    transport.broken(new McpClientError('connection_closed', `cannot write to MCP server \`${program}\`: ${errorMessage(err)}`, { cause: err }));
  });
  stderr.on('data', (chunk: Buffer) => transport.receiveStderr(chunk));
  stderr.on('error', (err) => options.logger.warn(`Failed to read MCP server stderr (${program}): ${errorMessage(err)}`));
  const stderrDrained = new Promise<void>((resolve) =>
    stderr.once('close', () => {
      transport.stderrEnded();
      resolve();
    }),
  );
  child.once('exit', (code, signal) => {
    const how = signal ? `was killed by signal ${signal}` : `exited with code ${code ?? 'unknown'}`;
    // Its last words on stderr usually arrive after the exit status; they belong in the error. The
    // grace timer goes once stderr is drained: a pending timer would keep a finished CLI alive.
    let grace: ReturnType<typeof setTimeout> | undefined;
    void Promise.race([stderrDrained, new Promise<void>((resolve) => (grace = setTimeout(resolve, STDERR_DRAIN_GRACE_MS)))]).then(() => {
      clearTimeout(grace);
      transport.ended(new McpClientError('process_exited', `MCP server \`${program}\` ${how}`));
    });
  });

  const grace = local.termGraceMs ?? PROCESS_GROUP_TERM_GRACE_MS;
  transport.attach({
    write: (frame) => writeFrame(stdin, frame),
    async terminate() {
      try {
        stdin.end();
      } catch {
        // already gone
      }
      if (compileCache) await exitWithin(child, COMPILE_CACHE_EXIT_GRACE_MS);
      // Still the whole group: grandchildren outlive a wrapper (npx, sh -c) that exited.
      await stopChild(child, grace);
    },
  });

  if (options.signal?.aborted) {
    await transport.close();
    options.signal.throwIfAborted();
  }
  return {
    transport,
    stderrTail: () => transport.stderrTail(),
    describe: () => `local pid ${child.pid ?? '?'}`,
  };
}

/**
 * One write, with no completion callback (a failed write is reported by stdin's 'error' listener,
 * which ends the connection); a promise only when the pipe's buffer is full, settled by 'drain' or
 * by the pipe closing.
 */
function writeFrame(stdin: Writable, frame: string): Promise<void> | void {
  if (stdin.write(frame)) return;
  return new Promise<void>((resolve) => {
    const done = () => {
      stdin.off('drain', done);
      stdin.off('close', done);
      resolve();
    };
    stdin.once('drain', done);
    stdin.once('close', done);
  });
}

/**
 * The compile cache's directory, made here (0700, like the rest of the home) rather than by the
 * server's Node, which would make it and its parents with the default mode. False if it cannot be.
 */
async function privateDir(dir: string, logger: LaunchOptions['logger']): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return true;
  } catch (err) {
    logger.debug(`Node compile cache for stdio servers not used: ${errorMessage(err)}`);
    return false;
  }
}

/** Resolves when the child has exited, or after `ms`. */
function exitWithin(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      child.off('exit', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    child.once('exit', done);
  });
}

/** The whole process group on POSIX; Windows has no groups to signal, so the child alone. */
async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.pid === undefined) return;
  if (process.platform === 'win32') {
    child.kill();
    return;
  }
  await terminateGroup(child.pid, graceMs);
}

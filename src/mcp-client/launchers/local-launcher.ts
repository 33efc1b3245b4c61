// The local StdioLauncher: the server runs as a child in its own process group, with an allow-listed
// environment; its pipes feed the shared StdioTransport, and close kills the whole group.
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { errorMessage, PROCESS_GROUP_TERM_GRACE_MS } from '../../util/index.js';
import { McpClientError } from '../errors.js';
import type { LaunchedServer, LaunchOptions, StdioLauncher, StdioServerSpec } from './launcher.js';
import { spawnLocalProcess, stopChild, type LocalLauncherOptions, type LocalProcess } from './local-process.js';
import { StdioTransport } from './stdio-transport.js';
import type { Prelaunch } from '../prelaunch/index.js';

export type { LocalLauncherOptions } from './local-process.js';

/** How long an exited server's stderr may take to drain (a grandchild can hold it open). */
const STDERR_DRAIN_GRACE_MS = 250;
/**
 * With a compile cache, how long close() waits for the server to exit on its own once its stdin is
 * closed before signalling it: Node writes the cache only on a normal exit, never when killed.
 */
const COMPILE_CACHE_EXIT_GRACE_MS = 200;

export function createLocalLauncher(options: LocalLauncherOptions = {}): StdioLauncher {
  return {
    kind: 'local',
    launch: (spec, launchOptions) => launchLocal(spec, launchOptions, options),
  };
}

/**
 * The local launcher for one client whose server was started ahead of it (prelaunch/): the first
 * launch adopts that process, later ones (recovery, a restart after the era probe) start their own.
 */
export function adoptingLauncher(options: LocalLauncherOptions, prelaunched: Prelaunch): StdioLauncher {
  return {
    kind: 'local',
    async launch(spec, launchOptions) {
      const started = prelaunched.take();
      return launchLocal(spec, launchOptions, options, started ? await started : undefined);
    },
    release: () => prelaunched.abandon(),
  };
}

async function launchLocal(spec: StdioServerSpec, options: LaunchOptions, local: LocalLauncherOptions, started?: LocalProcess): Promise<LaunchedServer> {
  const { child, program, compileCache, exit } = started ?? (await spawnLocalProcess(spec, local, options.logger, options.signal));
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
  void exit.then(({ code, signal }) => {
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

// The seam "where does a stdio MCP server process run?": local child process, exec-server, or ssh.
import type { Transport } from '@modelcontextprotocol/client';
import type { EnvVarSpec } from '../../config/index.js';
import type { Logger } from '../../util/index.js';

/** What to run; the same for every launcher. Plain data so recovery can launch it again. */
export interface StdioServerSpec {
  serverName: string;
  command: string;
  args: string[];
  /** Literal variables, applied last. */
  env: Record<string, string> | null;
  /** Names to copy from the local (source "local") or executor (source "remote") environment. */
  envVars: EnvVarSpec[];
  cwd: string | null;
}

export interface LaunchOptions {
  signal?: AbortSignal;
  logger: Logger;
  /** Each stderr line of the server, already split; launchers also log it. */
  onStderrLine?: (line: string) => void;
}

/**
 * A launched stdio server: an SDK Transport (newline-delimited JSON-RPC over the process's
 * stdin/stdout). `onclose` fires when the process exits or its connection drops; `close()` kills
 * the whole process group (SIGTERM, then SIGKILL after 2 s).
 */
export interface LaunchedServer {
  transport: Transport;
  /** The last stderr lines (a small ring buffer), attached to startup errors. */
  stderrTail(): string[];
  /** Human-readable description of where it runs, e.g. "local pid 1234" or "exec-server ws://…". */
  describe(): string;
}

export interface StdioLauncher {
  readonly kind: 'local' | 'exec-server' | 'ssh';
  launch(spec: StdioServerSpec, options: LaunchOptions): Promise<LaunchedServer>;
  /** The client using it closed: what the launcher holds for that client alone goes (a process started ahead of it). */
  release?(): void;
}

// The CLI's composition root state: home, config location, overrides, output streams and the logger.
import path from 'node:path';
import {
  loadConfig,
  resolveHome,
  type ConfigOverride,
  type LoadedConfig,
} from '../config/index.js';
import { createFileLogger, type Logger } from '../util/index.js';
import type { Telemetry } from '../util/telemetry/index.js';

export interface Output {
  write(text: string): void;
  /** True when the stream is an interactive terminal (spinners, colours). */
  isTTY: boolean;
}

export interface CliIO {
  stdout: Output;
  stderr: Output;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface CliContext extends CliIO {
  home: string;
  configFile: string | undefined;
  overrides: ConfigOverride[];
  logger: Logger;
  /** Spans and metrics of a serving command (its MCP clients, its agent); none elsewhere. */
  telemetry?: Telemetry;
  /** Load and validate config, printing its warnings to stderr once. */
  loadConfig(): Promise<LoadedConfig & { text: string | null }>;
}

export function createContext(io: CliIO, opts: { config?: string; overrides: ConfigOverride[] }): CliContext {
  const home = resolveHome(io.env);
  // JSON lines, written asynchronously and flushed at exit; rotated at 10 MiB, keeping
  // switchboard.log.1 … .5 (DEFAULT_LOG_ROTATION). pino loads only when a record is first written.
  const logger = createFileLogger(path.join(home, 'log', 'switchboard.log'), {
    level: io.env.SWITCHBOARD_LOG_LEVEL === 'debug' ? 'debug' : 'info',
  });
  let warned = false;
  return {
    ...io,
    home,
    configFile: opts.config ? path.resolve(io.cwd, opts.config) : undefined,
    overrides: opts.overrides,
    logger,
    async loadConfig() {
      const loaded = await loadConfig({ home, file: opts.config ? path.resolve(io.cwd, opts.config) : undefined, overrides: opts.overrides });
      if (!warned) {
        warned = true;
        for (const w of loaded.warnings) {
          logger.warn(w);
          io.stderr.write(`warning: ${w}\n`);
        }
      }
      return loaded;
    },
  };
}

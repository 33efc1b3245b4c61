// Shared helpers for the mcp-client integration tests: configs from real TOML-shaped tables, a
// capturing logger, and client cleanup.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMcpServerConfig } from '../../src/config/index.js';
import type { McpServerConfig } from '../../src/config/index.js';
import { createMcpClient, isMcpClientError, type McpClientError } from '../../src/mcp-client/index.js';
import type { McpClient, McpClientDeps, McpClientOptions } from '../../src/mcp-client/index.js';
import { createLogger } from '../../src/util/index.js';
import type { Logger } from '../../src/util/index.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/mcp');
export const NODE = process.execPath;

export function serverConfig(name: string, raw: Record<string, unknown>): McpServerConfig {
  return parseMcpServerConfig(name, raw).config;
}

export function fixtureStdio(name: string, file: string, extra: Record<string, unknown> = {}): McpServerConfig {
  return serverConfig(name, { command: NODE, args: [fixtureProgram(`mcp/${file}`)], ...extra });
}

export interface CapturingLogger extends Logger {
  lines: string[];
}

export function capturingLogger(): CapturingLogger {
  const lines: string[] = [];
  const logger = createLogger((line) => lines.push(line), { level: 'debug' }) as CapturingLogger;
  logger.lines = lines;
  return logger;
}

/** Creates clients and closes every one of them after the test. */
export function clientPool() {
  const clients: McpClient[] = [];
  return {
    create(config: McpServerConfig, deps: Partial<McpClientDeps> = {}, options: McpClientOptions = {}): McpClient {
      const client = createMcpClient(config, { logger: deps.logger ?? capturingLogger(), ...deps }, options);
      clients.push(client);
      return client;
    },
    async closeAll(): Promise<void> {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    },
  };
}

export function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.map((c) => c.text ?? '').join('');
}

/** The McpClientError `promise` fails with; any other outcome fails the test. */
export async function failure(promise: Promise<unknown>): Promise<McpClientError> {
  try {
    await promise;
  } catch (err) {
    if (isMcpClientError(err)) return err;
    throw err;
  }
  throw new Error('expected the operation to fail');
}

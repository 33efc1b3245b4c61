// Shared by the `mcp` command files: the command group itself, the config file edits go to, name checks.
import type { Command } from 'commander';
import { defaultConfigPath, SERVER_NAME_PATTERN } from '../config/index.js';
import type { CliContext } from './context.js';
import { UsageError } from './exit-codes.js';

/** The `mcp` command group; every file that adds `mcp` subcommands (login, logout, ...) goes through here. */
export function mcpCommandGroup(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'mcp') ??
    program.command('mcp').description('Manage the MCP servers in config.toml ([mcp_servers.<name>] tables).')
  );
}

/** The file edits go to: --config FILE, else $SWITCHBOARD_HOME/config.toml. */
export function configFileOf(ctx: CliContext): string {
  return ctx.configFile ?? defaultConfigPath(ctx.home);
}

/** Codex's CLI check and text for a server name. */
export function validateServerName(name: string): void {
  if (!SERVER_NAME_PATTERN.test(name)) throw new UsageError(`invalid server name '${name}' (use letters, numbers, '-', '_')`);
}

// The list of command groups; each registers its subcommands on the program.
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { registerAuditCommand } from './audit-command.js';
import { registerExec } from './exec-command.js';
import { registerExecServerCommand } from './exec-server-command.js';
import { mcpConfigCommands } from './mcp-config-commands.js';
import { registerMcpOAuthCommands } from './mcp-login-commands.js';
import { registerMcpRuntimeCommands } from './mcp-runtime-commands.js';
import { registerMcpServerCommand } from './mcp-server-command.js';
import { registerServeCommand } from './serve-command.js';

export type RegisterCommand = (program: Command, context: () => CliContext, result: { exitCode?: number }) => void;

export const COMMANDS: RegisterCommand[] = [
  mcpConfigCommands(),
  registerMcpOAuthCommands,
  registerMcpRuntimeCommands,
  registerExec,
  registerExecServerCommand,
  registerMcpServerCommand,
  registerServeCommand,
  registerAuditCommand,
];

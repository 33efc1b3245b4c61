// The list of command groups; each registers its subcommands on the program.
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { registerMcpOAuthCommands } from './mcp-login-commands.js';
import { registerConformanceClientCommand } from './conformance-client-command.js';

export type RegisterCommand = (program: Command, context: () => CliContext, result: { exitCode?: number }) => void;

export const COMMANDS: RegisterCommand[] = [registerMcpOAuthCommands, registerConformanceClientCommand];

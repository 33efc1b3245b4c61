// The list of command groups; each registers its subcommands on the program. A group's modules load
// only when the command line names it (or needs them all: help, an unknown command), so a command
// does not pay, at every start, for loading the modules of every other command.
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { asksForHelp, readCommandLine } from './command-line.js';

export type RegisterCommand = (program: Command, context: () => CliContext, result: { exitCode?: number }) => void;

export interface CommandGroup {
  /** The top-level command names the group registers. */
  readonly names: readonly string[];
  /** The group's registrations; a group may load fewer for a subcommand `args` names (the whole command line, root options included). */
  load(args: readonly string[]): Promise<RegisterCommand[]>;
}

/** The `mcp` subcommands of mcp-runtime-commands.ts: one of them loads that file alone (`mcp tools --no-wait` is a start-up issue 37 times). */
const MCP_RUNTIME = new Set(['status', 'tools', 'call', 'resources', 'prompts']);

/** The word right after `command` when it is no option: its subcommand, or a value (which no subcommand set holds). */
export function subcommandOf(args: readonly string[], command: string): string | undefined {
  const next = args[args.indexOf(command) + 1];
  return next !== undefined && !next.startsWith('-') ? next : undefined;
}

/** In the order the root help lists them. */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    names: ['mcp'],
    load: async (args) => {
      if (MCP_RUNTIME.has(subcommandOf(args, 'mcp') ?? '')) return [(await import('./mcp-runtime-commands.js')).registerMcpRuntimeCommands];
      const [config, oauth, runtime] = await Promise.all([import('./mcp-config-commands.js'), import('./mcp-login-commands.js'), import('./mcp-runtime-commands.js')]);
      return [config.mcpConfigCommands(), oauth.registerMcpOAuthCommands, runtime.registerMcpRuntimeCommands];
    },
  },
  { names: ['exec'], load: async () => [(await import('./exec-command.js')).registerExec] },
  { names: ['exec-server'], load: async () => [(await import('./exec-server-command.js')).registerExecServerCommand] },
  { names: ['mcp-server'], load: async () => [(await import('./mcp-server-command.js')).registerMcpServerCommand] },
  { names: ['serve'], load: async () => [(await import('./serve-command.js')).registerServeCommand] },
  { names: ['audit'], load: async () => [(await import('./audit-command.js')).registerAuditCommand] },
  { names: ['credentials'], load: async () => [(await import('./credentials-command.js')).registerCredentialsCommand] },
];

/**
 * The groups a command line needs: the one its command names; none for a bare `--version`; all of
 * them otherwise (root help, `help <cmd>`, an unknown command and its suggestions), so what those
 * print is the same as ever.
 */
export function groupsFor(args: readonly string[]): readonly CommandGroup[] {
  const { command, version } = readCommandLine(args);
  if (command === undefined) return version && !asksForHelp(args) ? [] : COMMAND_GROUPS;
  const named = COMMAND_GROUPS.find((g) => g.names.includes(command));
  return named ? [named] : COMMAND_GROUPS;
}

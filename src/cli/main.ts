// CLI entry point: global options, command registration, and the one place errors become exit codes.
import { Command, CommanderError, Option } from 'commander';
import { ConfigError, parseOverride, type ConfigOverride } from '../config/index.js';
import { errorMessage, SwitchboardError, VERSION } from '../util/index.js';
import { createContext, processIO, type CliContext, type CliIO } from './context.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';
import { groupsFor } from './commands.js';

function collectOverride(value: string, previous: ConfigOverride[]): ConfigOverride[] {
  try {
    return [...previous, parseOverride(value)];
  } catch (err) {
    throw new UsageError(errorMessage(err));
  }
}

/**
 * The program with the commands `argv` needs (see `groupsFor`); every command when `argv` is not given.
 * `argv` is a full process argv (node, script, then the arguments).
 */
export async function buildProgram(io: CliIO, holder: { ctx?: CliContext; exitCode?: number }, argv?: readonly string[]): Promise<Command> {
  const groups = groupsFor(argv ? argv.slice(2) : []);
  const loading = Promise.all(groups.map((g) => g.load()));
  const program = new Command('switchboard')
    .description('A coding-agent runtime with a Codex-compatible MCP layer: many MCP servers as one catalog, and the agent as an MCP server.')
    .version(VERSION)
    .addOption(new Option('--config <file>', 'config file to use instead of $SWITCHBOARD_HOME/config.toml'))
    .addOption(
      new Option('-c, --override <key=value>', 'override a config value by dotted path; the value is parsed as TOML, else taken as a string (repeatable)')
        .argParser(collectOverride)
        .default([]),
    )
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();
  program.hook('preAction', (thisCommand) => {
    const opts = thisCommand.optsWithGlobals() as { config?: string; override: ConfigOverride[] };
    holder.ctx = createContext(io, { config: opts.config, overrides: opts.override ?? [] });
  });
  const context = () => {
    if (!holder.ctx) throw new Error('CLI context used before a command ran');
    return holder.ctx;
  };
  for (const registers of await loading) for (const register of registers) register(program, context, holder);
  return program;
}

/** Run the CLI; resolves to the exit code. Never calls process.exit itself. */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const holder: { ctx?: CliContext; exitCode?: number } = {};
  try {
    const program = await buildProgram(io, holder, argv);
    await program.parseAsync(argv);
    return holder.exitCode ?? EXIT_OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander reports --help and --version with exit code 0; help shown for a missing subcommand is a usage error.
      return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (err instanceof ConfigError) {
      io.stderr.write(`error: ${err.message}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof UsageError) {
      io.stderr.write(`error: ${err.message}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof SwitchboardError) {
      io.stderr.write(`error: ${err.message}\n`);
      return EXIT_FAILED;
    }
    io.stderr.write(`error: ${errorMessage(err)}\n`);
    holder.ctx?.logger.error('unexpected error', { error: err instanceof Error ? err.stack : String(err) });
    return EXIT_FAILED;
  }
}

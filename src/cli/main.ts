// CLI entry point: global options, command registration, and the one place errors become exit codes.
import { Command, CommanderError, Option } from 'commander';
import { ConfigError, parseOverride, type ConfigOverride } from '../config/index.js';
import { errorMessage, SwitchboardError, VERSION } from '../util/index.js';
import { createContext, type CliContext, type CliIO } from './context.js';
import { processIO } from './process-output.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, UsageError } from './exit-codes.js';
import { groupsFor } from './commands.js';
import { addCodexOptions, codexOverrides, type CodexFlags } from './codex-options.js';
import { parseWithoutCycles } from './zod-memoizer.js';

/** For the launcher (bin/switchboard.js), which reads it from this module so that other commands load nothing more. */
export { serverLaunch } from './server-flags.js';
export { forgetPreload } from './server-allocator.js';

function override(value: string): ConfigOverride {
  try {
    return parseOverride(value);
  } catch (err) {
    throw new UsageError(errorMessage(err));
  }
}

const collectOverride = (value: string, previous: ConfigOverride[]) => [...previous, override(value)];

/** `--config key=value` is Codex's long form of -c; any other value names a config file. */
const OVERRIDE_LIKE = /^\s*[\w"'.-]+\s*=/;

/**
 * The program with the commands `argv` needs (see `groupsFor`); every command when `argv` is not given.
 * `argv` is a full process argv (node, script, then the arguments).
 */
export async function buildProgram(io: CliIO, holder: { ctx?: CliContext; exitCode?: number }, argv?: readonly string[]): Promise<Command> {
  const args = argv ? argv.slice(2) : [];
  const loading = Promise.all(groupsFor(args).map((g) => g.load(args)));
  // Codex's `--config key=value` lands here, kept apart from a config file given the same way.
  const longFormOverrides: ConfigOverride[] = [];
  const configFlag = (value: string, previous: string | undefined) => {
    if (!OVERRIDE_LIKE.test(value)) return value;
    longFormOverrides.push(override(value));
    return previous;
  };
  const program = new Command('switchboard')
    .description('A coding-agent runtime with a Codex-compatible MCP layer: many MCP servers as one catalog, and the agent as an MCP server.')
    .version(VERSION)
    .addOption(new Option('--config <file>', 'config file to use instead of $SWITCHBOARD_HOME/config.toml (`--config key=value` is -c, as in Codex)').argParser(configFlag))
    .addOption(
      new Option('-c, --override <key=value>', 'override a config value by dotted path; the value is parsed as TOML, else taken as a string (repeatable)')
        .argParser(collectOverride)
        .default([]),
    );
  addCodexOptions(program)
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();
  program.hook('preAction', (thisCommand) => {
    const opts = thisCommand.optsWithGlobals() as CodexFlags & { config?: string; override: ConfigOverride[] };
    // As Codex orders them: -c overrides, then what -p and --enable/--disable stand for.
    const codex = codexOverrides(opts, (text) => io.stderr.write(`warning: ${text}\n`));
    holder.ctx = createContext(io, { config: opts.config, overrides: [...(opts.override ?? []), ...longFormOverrides, ...codex] });
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
  parseWithoutCycles();
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

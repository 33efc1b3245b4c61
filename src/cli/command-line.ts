// The command a command line names, read before commander parses it: the CLI loads only that
// command's modules (commands.ts), and the launcher re-executes a server command with a server's
// settings (server-flags.ts) before it runs.

/** Codex's root options that take a value (codex-options.ts defines them): the word after one is its value. */
export const CODEX_VALUE_OPTIONS = ['-m', '--model', '-p', '--profile', '-s', '--sandbox', '-a', '--ask-for-approval', '-C', '--cd', '--enable', '--disable'];

/** Root options that take a value (`--config FILE`, `-c KEY=VALUE`, `-m MODEL`, ...): the word after them is not a command. */
const ROOT_VALUE_OPTIONS = new Set(['--config', '-c', '--override', ...CODEX_VALUE_OPTIONS]);

export interface CommandLine {
  /** The first word that is neither an option nor a root option's value; undefined when help or `--` comes first. */
  readonly command: string | undefined;
  /** `-V` or `--version` came before the command. */
  readonly version: boolean;
}

/** `args`: the arguments after node and the script. */
export function readCommandLine(args: readonly string[]): CommandLine {
  let version = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (ROOT_VALUE_OPTIONS.has(arg)) i += 1;
    else if (arg === '-V' || arg === '--version') version = true;
    else if (!arg.startsWith('-')) return { command: arg, version };
    else if (arg === '-h' || arg === '--help' || arg === '--') break;
  }
  return { command: undefined, version };
}

/** `-h` or `--help` anywhere in the arguments: root help, or a command's own. */
export function asksForHelp(args: readonly string[]): boolean {
  return args.some((a) => a === '-h' || a === '--help');
}

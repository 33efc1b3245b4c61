// Which commands are known to be read-only and may run without asking under `untrusted` (Codex's
// list): a small set of programs, with the flags that write files or run other programs excluded.
import { shellScriptOf, splitPlainCommands } from './shell-script.js';

const ALWAYS_SAFE = new Set([
  'cat', 'cd', 'cut', 'echo', 'expr', 'false', 'grep', 'head', 'id', 'ls', 'nl', 'paste', 'pwd',
  'rev', 'seq', 'stat', 'tail', 'tr', 'true', 'uname', 'uniq', 'wc', 'which', 'whoami',
]);
const LINUX_SAFE = new Set(['numfmt', 'tac']);

// find: run programs, delete, or write file lists.
const UNSAFE_FIND = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fls', '-fprint', '-fprint0', '-fprintf']);
// rg: run a preprocessor or hostname program; decompressors.
const UNSAFE_RG_WITH_VALUE = ['--pre', '--hostname-bin'];
const UNSAFE_RG_FLAGS = new Set(['--search-zip', '-z']);
// git: write output files, run external diff/textconv programs, or page.
const UNSAFE_GIT_ARGS = new Set(['--output', '--ext-diff', '--textconv', '--exec', '--paginate']);
const GIT_READ_SUBCOMMANDS = new Set(['status', 'log', 'diff', 'show', 'branch']);
// git global options that take a separate value.
const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix']);
const GIT_BRANCH_READ_FLAGS = new Set(['--list', '-l', '--show-current', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose']);

function programName(arg0: string): string {
  return arg0.split('/').pop() ?? arg0;
}

function isSafeGit(argv: readonly string[]): boolean {
  // `-c key=value` / `--config-env` can point core.pager or diff drivers at arbitrary programs.
  if (argv.some((a) => a === '-c' || a === '--config-env' || (a.startsWith('-c') && a.length > 2) || a.startsWith('--config-env='))) {
    return false;
  }
  let i = 1;
  while (i < argv.length) {
    const a = argv[i]!;
    if (GIT_GLOBAL_WITH_VALUE.has(a)) i += 2;
    else if (a === '-p' || a === '--paginate') return false;
    else if (a.startsWith('-')) i += 1;
    else break;
  }
  const sub = argv[i];
  if (sub === undefined || !GIT_READ_SUBCOMMANDS.has(sub)) return false;
  const args = argv.slice(i + 1);
  if (args.some((a) => UNSAFE_GIT_ARGS.has(a) || a.startsWith('--output=') || a.startsWith('--exec='))) return false;
  if (sub !== 'branch') return true;
  // `git branch NAME` creates, `-d` deletes, `-m` renames: only listing flags are read-only.
  return args.every((a) => GIT_BRANCH_READ_FLAGS.has(a) || a.startsWith('--format='));
}

function isSedPrint(argv: readonly string[]): boolean {
  return argv.length <= 4 && argv[1] === '-n' && /^\d+(,\d+)?p$/.test(argv[2] ?? '');
}

/** One argv run directly (no shell). */
export function isSafeToExec(argv: readonly string[], platform: NodeJS.Platform = process.platform): boolean {
  const first = argv[0];
  if (first === undefined) return false;
  const cmd = programName(first);
  if (ALWAYS_SAFE.has(cmd)) return true;
  if (platform === 'linux' && LINUX_SAFE.has(cmd)) return true;
  switch (cmd) {
    case 'base64':
      return !argv.slice(1).some((a) => a === '-o' || a === '--output' || a.startsWith('--output=') || (a.startsWith('-o') && a !== '-o'));
    case 'find':
      return !argv.some((a) => UNSAFE_FIND.has(a));
    case 'rg':
      return !argv.some(
        (a) => UNSAFE_RG_FLAGS.has(a) || UNSAFE_RG_WITH_VALUE.some((opt) => a === opt || a.startsWith(`${opt}=`)),
      );
    case 'git':
      return isSafeGit(argv);
    case 'sed':
      return isSedPrint(argv);
    default:
      return false;
  }
}

/**
 * True when the command is known to only read: a safe program, or a `bash -lc` script of plain safe
 * commands joined by `&&`, `||`, `;` or `|` (no redirections, expansions or subshells).
 */
export function isKnownSafeCommand(command: readonly string[], platform: NodeJS.Platform = process.platform): boolean {
  const argv = command.map((a, i) => (i === 0 && programName(a) === 'zsh' ? 'bash' : a));
  if (isSafeToExec(argv, platform)) return true;
  const script = shellScriptOf(argv);
  if (script === null) return false;
  const commands = splitPlainCommands(script);
  return commands !== null && commands.length > 0 && commands.every((c) => isSafeToExec(c.argv, platform));
}

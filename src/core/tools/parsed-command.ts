// Describes a command for front-ends (`parsed_cmd` of exec events): reads, listings and searches are
// recognised; everything else is `unknown`. Purely descriptive: never used to decide safety.
import path from 'node:path';
import type { ParsedCommand } from '../../protocol/index.js';
import { shellJoin, shellScriptOf, splitPlainCommands } from '../approvals/shell-script.js';

// Options that consume the next word, per program.
const VALUE_FLAGS: Record<string, Set<string>> = {
  rg: new Set(['-g', '--glob', '--iglob', '-t', '--type', '-T', '--type-not', '-m', '--max-count', '-A', '-B', '-C', '--context', '-j', '--threads', '-M', '--max-columns', '--max-depth', '-E', '--encoding', '-r', '--replace', '--sort', '--sortr', '--color', '--colors']),
  grep: new Set(['-m', '--max-count', '-A', '-B', '-C', '--context', '--include', '--exclude', '--exclude-dir', '--color', '--colour', '-d', '--directories', '-D', '--devices']),
  head: new Set(['-n', '-c', '--lines', '--bytes']),
  tail: new Set(['-n', '-c', '--lines', '--bytes']),
  find: new Set(),
  fd: new Set(['-e', '--extension', '-t', '--type', '-d', '--max-depth', '-E', '--exclude']),
  ls: new Set(['-I', '--ignore', '-w', '--width', '--color', '--sort', '--time-style']),
};
// Pipeline stages after the first that only reshape the previous output.
const FORMATTERS = new Set(['head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'tr', 'nl', 'column', 'cat', 'less', 'more']);

function positionals(program: string, args: readonly string[]): { positional: string[]; pattern: string | undefined } {
  const valueFlags = VALUE_FLAGS[program] ?? new Set<string>();
  const positional: string[] = [];
  let pattern: string | undefined;
  let endOfFlags = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (endOfFlags || !a.startsWith('-') || a === '-') positional.push(a);
    else if (a === '--') endOfFlags = true;
    else if (a === '-e' || a === '--regexp') pattern ??= args[++i];
    else if (a.startsWith('--regexp=')) pattern ??= a.slice('--regexp='.length);
    else if (valueFlags.has(a)) i++;
  }
  return { positional, pattern };
}

function read(cmd: string, file: string): ParsedCommand {
  return { type: 'read', cmd, name: path.basename(file), path: file };
}

export function describeCommand(argv: readonly string[]): ParsedCommand {
  const cmd = shellJoin(argv);
  const program = (argv[0] ?? '').split('/').pop() ?? '';
  const args = argv.slice(1);
  switch (program) {
    case 'cat':
    case 'bat':
    case 'less':
    case 'more':
    case 'head':
    case 'tail':
    case 'nl':
    case 'tac': {
      const { positional } = positionals(program, args);
      return positional.length === 1 ? read(cmd, positional[0]!) : { type: 'unknown', cmd };
    }
    case 'sed': {
      // sed -n '<range>p' FILE
      if (args[0] === '-n' && args.length === 3 && /^\d+(,\d+)?p$/.test(args[1]!)) return read(cmd, args[2]!);
      return { type: 'unknown', cmd };
    }
    case 'ls':
    case 'tree':
    case 'du': {
      const { positional } = positionals(program, args);
      return positional[0] === undefined ? { type: 'list_files', cmd } : { type: 'list_files', cmd, path: positional[0] };
    }
    case 'rg':
    case 'grep':
    case 'egrep':
    case 'fgrep': {
      const key = program === 'rg' ? 'rg' : 'grep';
      const { positional, pattern } = positionals(key, args);
      if (key === 'rg' && args.includes('--files')) {
        return positional[0] === undefined ? { type: 'list_files', cmd } : { type: 'list_files', cmd, path: positional[0] };
      }
      const query = pattern ?? positional.shift();
      const result: ParsedCommand = { type: 'search', cmd };
      if (query !== undefined) result.query = query;
      if (positional[0] !== undefined) result.path = positional[0];
      return result;
    }
    case 'fd': {
      const { positional } = positionals('fd', args);
      if (positional.length === 0) return { type: 'list_files', cmd };
      const result: ParsedCommand = { type: 'search', cmd, query: positional[0]! };
      if (positional[1] !== undefined) result.path = positional[1];
      return result;
    }
    case 'find': {
      const dir = args[0] !== undefined && !args[0].startsWith('-') ? args[0] : undefined;
      const nameAt = args.findIndex((a) => a === '-name' || a === '-iname' || a === '-path');
      const query = nameAt >= 0 ? args[nameAt + 1] : undefined;
      if (query === undefined) return dir === undefined ? { type: 'list_files', cmd } : { type: 'list_files', cmd, path: dir };
      const result: ParsedCommand = { type: 'search', cmd, query };
      if (dir !== undefined) result.path = dir;
      return result;
    }
    case 'git':
      if (args[0] === 'grep') {
        const { positional, pattern } = positionals('grep', args.slice(1));
        const result: ParsedCommand = { type: 'search', cmd };
        const query = pattern ?? positional.shift();
        if (query !== undefined) result.query = query;
        if (positional[0] !== undefined) result.path = positional[0];
        return result;
      }
      if (args[0] === 'ls-files') return { type: 'list_files', cmd };
      return { type: 'unknown', cmd };
    default:
      return { type: 'unknown', cmd };
  }
}

/** `parsed_cmd` for an argv; `bash -lc` scripts of plain commands are described command by command. */
export function parseCommand(command: readonly string[]): ParsedCommand[] {
  const script = shellScriptOf(command);
  if (script === null) return [describeCommand(command)];
  const commands = splitPlainCommands(script);
  if (commands === null || commands.length === 0) return [{ type: 'unknown', cmd: script }];
  const described: ParsedCommand[] = [];
  for (const c of commands) {
    const program = c.argv[0]!.split('/').pop()!;
    if (program === 'cd' || program === 'true') continue;
    if (c.joinedBy === '|' && FORMATTERS.has(program) && described.length > 0) {
      const { positional } = positionals(program, c.argv.slice(1));
      if (positional.length === 0) continue;
    }
    described.push(describeCommand(c.argv));
  }
  return described.length > 0 ? described : [{ type: 'unknown', cmd: script }];
}

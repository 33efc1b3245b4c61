// Reads `bash -lc "<script>"` invocations conservatively: a script counts as plain only when it is
// words and quotes joined by `&&`, `||`, `;`, `|` or newlines. Anything that could expand, redirect,
// background or nest (`$`, backticks, globs, `>`, `<`, `&`, parentheses, braces) makes it opaque.

const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash']);

/** The script of `[bash|zsh|sh, -c|-lc, script]`, or null when argv is not that form. */
export function shellScriptOf(argv: readonly string[]): string | null {
  if (argv.length !== 3) return null;
  const shell = argv[0]!.split('/').pop()!;
  if (!SHELLS.has(shell)) return null;
  if (argv[1] !== '-c' && argv[1] !== '-lc') return null;
  return argv[2]!;
}

export type ScriptOperator = '&&' | '||' | ';' | '|';

export interface PlainCommand {
  argv: string[];
  /** The operator joining this command to the previous one (null for the first). */
  joinedBy: ScriptOperator | null;
}

// Characters that end an unquoted word or are never allowed unquoted.
const OPERATOR_CHARS = new Set(['&', '|', ';', '\n']);
const FORBIDDEN_UNQUOTED = new Set(['$', '`', '>', '<', '(', ')', '{', '}', '*', '?', '[', ']', '#', '!']);

/**
 * Split a script into plain commands, or return null when it is not plain (see module comment).
 * The result argv are the words as the shell would pass them (quotes removed).
 */
export function splitPlainCommands(script: string): PlainCommand[] | null {
  const commands: PlainCommand[] = [];
  let argv: string[] = [];
  let word: string | null = null;
  let joinedBy: ScriptOperator | null = null;
  let i = 0;

  const endWord = () => {
    if (word !== null) argv.push(word);
    word = null;
  };
  const endCommand = (op: ScriptOperator | null, newline = false): boolean => {
    endWord();
    if (argv.length === 0) {
      // Blank lines are fine; `a && && b`, `a; ; b` or a leading operator are syntax errors.
      return newline && (joinedBy === null || joinedBy === ';');
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0]!)) return false; // VAR=value cmd
    commands.push({ argv, joinedBy });
    argv = [];
    joinedBy = op;
    return true;
  };

  while (i < script.length) {
    const c = script[i]!;
    if (c === ' ' || c === '\t') {
      endWord();
      i++;
    } else if (OPERATOR_CHARS.has(c)) {
      const two = script.slice(i, i + 2);
      let op: ScriptOperator;
      if (two === '&&' || two === '||') {
        op = two;
        i += 2;
      } else if (c === '|') {
        if (script[i + 1] === '&') return null; // |&
        op = '|';
        i++;
      } else if (c === ';' || c === '\n') {
        if (two === ';;' || two === ';&') return null;
        op = ';';
        i++;
      } else {
        return null; // a lone & backgrounds
      }
      if (!endCommand(op, c === '\n')) return null;
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      if (end < 0) return null;
      word = (word ?? '') + script.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= script.length) return null;
        const d = script[j]!;
        if (d === '"') break;
        if (d === '$' || d === '`') return null;
        if (d === '\\' && j + 1 < script.length && '"\\$`\n'.includes(script[j + 1]!)) {
          if (script[j + 1] !== '\n') text += script[j + 1];
          j += 2;
          continue;
        }
        text += d;
        j++;
      }
      word = (word ?? '') + text;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 >= script.length) return null;
      if (script[i + 1] !== '\n') word = (word ?? '') + script[i + 1];
      i += 2;
    } else if (FORBIDDEN_UNQUOTED.has(c)) {
      return null;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  endWord();
  if (argv.length > 0) {
    if (!endCommand(null)) return null;
  } else if (joinedBy !== null && joinedBy !== ';') {
    return null; // trailing && || |
  }
  return commands;
}

/** Quote one word for a POSIX shell (only when needed). */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}

/** argv as one shell-readable line. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

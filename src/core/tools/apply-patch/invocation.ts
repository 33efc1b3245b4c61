// Recognises apply_patch invocations that arrive through the shell tool, as Codex does:
// `["apply_patch", PATCH]` and `bash -lc "[cd DIR &&] apply_patch <<'EOF' ... EOF"`.
import { shellScriptOf } from '../../approvals/shell-script.js';
import { parsePatch } from './parser.js';

export type PatchInvocation =
  | { kind: 'patch'; patch: string; workdir: string | null }
  /** A bare patch body sent as the command itself: the model must call apply_patch explicitly. */
  | { kind: 'implicit' }
  | { kind: 'none' };

export const IMPLICIT_PATCH_MESSAGE = 'patch detected without explicit call to apply_patch. Rerun as ["apply_patch", "<patch>"]';

const COMMANDS = new Set(['apply_patch', 'applypatch']);
const HEREDOC_SCRIPT =
  /^\s*(?:cd\s+('[^']*'|"[^"$`\\]*"|[^\s'"$`;&|<>]+)\s*&&\s*)?(?:apply_patch|applypatch)\s+<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2[ \t]*\n([\s\S]*?)\n\3[ \t]*\n?\s*$/;

function looksLikePatch(text: string): boolean {
  try {
    parsePatch(text);
    return true;
  } catch {
    return false;
  }
}

function unquote(word: string): string {
  return (word.startsWith("'") && word.endsWith("'")) || (word.startsWith('"') && word.endsWith('"')) ? word.slice(1, -1) : word;
}

export function patchInvocationOf(argv: readonly string[]): PatchInvocation {
  if (argv.length === 2 && COMMANDS.has(argv[0]!)) return { kind: 'patch', patch: argv[1]!, workdir: null };
  if (argv.length === 1 && looksLikePatch(argv[0]!)) return { kind: 'implicit' };
  const script = shellScriptOf(argv);
  if (script === null) return { kind: 'none' };
  const m = HEREDOC_SCRIPT.exec(script);
  if (m) return { kind: 'patch', patch: m[4]!, workdir: m[1] === undefined ? null : unquote(m[1]) };
  if (looksLikePatch(script)) return { kind: 'implicit' };
  return { kind: 'none' };
}

// fast-check generators of apply_patch inputs: patches built from the grammar (paths inside, outside,
// through a symlink, into .git; context taken from the real files or invented), and line-level
// mutations of such patches.
import fc from 'fast-check';

/** The workspace every case starts from: `work/` is the cwd; `outside/` must never change. */
export const WORKSPACE: Record<string, string> = {
  'work/a.txt': 'alpha\nbeta\ngamma\ndelta\nepsilon\n',
  'work/dir/b.py': 'def greet():\n    print("hi")\n\n\ndef main():\n    greet()\n',
  'work/c.md': '# Title\n\nSome prose — with “unicode” punctuation.\n',
  'work/crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  'work/no-newline.txt': 'last line without newline',
  'work/empty.txt': '',
  'work/.git/config': '[core]\n\tbare = false\n',
  'outside/secret.txt': 'do not touch\n',
};
/** Symlinks in the workspace: name → target (relative to the link's folder). */
export const LINKS: Record<string, string> = { 'work/link': '../outside' };

const fileLines = new Map(Object.entries(WORKSPACE).map(([p, c]) => [p.replace(/^work\//, ''), c.split(/\r?\n/)]));
const existing = [...fileLines.keys()].filter((p) => !p.startsWith('outside/'));
const line = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom('', ' ', '\t', '*** End Patch', '@@', '+', '-', '\\ No newline at end of file'));

/** Where a hunk points: existing files, new ones, nested, escaping, absolute, odd. */
export function pathArbitrary(outsideAbs: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...existing) },
    { weight: 3, arbitrary: fc.constantFrom('new.txt', 'dir/new.py', 'deep/er/new.md', 'dir', '.', 'link/secret.txt', 'link/new.txt', '.git/hooks/pre-commit', '.git/config') },
    { weight: 2, arbitrary: fc.constantFrom('../outside/secret.txt', '../outside/new.txt', '../../etc/passwd', `${outsideAbs}/secret.txt`, `${outsideAbs}/new.txt`, '/dev/null', '') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }) },
    { weight: 1, arbitrary: fc.constantFrom('a.txt ', ' a.txt', 'dir/../a.txt', 'dir//b.py', 'ünïcödé.txt', 'sp ace.txt', 'a.txt\u0000x', 'CON', '~/x') },
  );
}

/** Invented lines for a chunk, in the chunk's three parts. */
const invented = fc.tuple(fc.array(line, { maxLength: 3 }), fc.array(line, { maxLength: 3 }), fc.array(line, { maxLength: 3 }));

/** Three consecutive runs of the target's real lines (context, removed, context): a chunk that matches. */
function realRuns(target: string): fc.Arbitrary<[string[], string[], string[]]> {
  const real = (fileLines.get(target) ?? []).filter((_, i, all) => i < all.length - 1 || all[i] !== '');
  if (real.length === 0) return invented;
  return fc.tuple(fc.nat({ max: real.length - 1 }), fc.nat({ max: 3 }), fc.nat({ max: 2 }), fc.nat({ max: 3 })).map(([start, a, b, c]) => [
    real.slice(start, start + a),
    real.slice(start + a, start + a + b),
    real.slice(start + a + b, start + a + b + c),
  ]);
}

const chunk = (target: string): fc.Arbitrary<string[]> =>
  fc
    .tuple(
      fc.oneof(fc.constant('@@'), fc.constant(null), fc.constantFrom(...(fileLines.get(target) ?? ['x'])).map((l) => `@@ ${l}`), line.map((l) => `@@ ${l}`)),
      fc.oneof({ weight: 3, arbitrary: realRuns(target) }, { weight: 1, arbitrary: invented }),
      fc.array(line, { maxLength: 3 }),
      fc.boolean(),
    )
    .map(([header, [before, removed, after], added, eof]) => [
      ...(header === null ? [] : [header]),
      ...before.map((l) => ` ${l}`),
      ...removed.map((l) => `-${l}`),
      ...added.map((l) => `+${l}`),
      ...after.map((l) => ` ${l}`),
      ...(eof ? ['*** End of File'] : []),
    ]);

function hunk(outsideAbs: string): fc.Arbitrary<string[]> {
  return pathArbitrary(outsideAbs).chain((target) =>
    fc.oneof(
      fc.array(line, { maxLength: 4 }).map((lines) => [`*** Add File: ${target}`, ...lines.map((l) => `+${l}`)]),
      fc.constant<string[]>([`*** Delete File: ${target}`]),
      fc
        .tuple(fc.option(pathArbitrary(outsideAbs), { freq: 4 }), fc.array(chunk(target), { minLength: 1, maxLength: 3 }))
        .map(([move, chunks]) => [`*** Update File: ${target}`, ...(move === null ? [] : [`*** Move to: ${move}`]), ...chunks.flat()]),
    ),
  );
}

/** A patch built from the grammar, with the wrappers and whitespace Codex tolerates. */
export function grammarPatch(outsideAbs: string): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: hunk(outsideAbs).map((h) => [h]) }, { weight: 1, arbitrary: fc.array(hunk(outsideAbs), { minLength: 0, maxLength: 4 }) }),
      fc.constantFrom('plain', 'plain', 'padded', 'heredoc', 'crlf'),
    )
    .map(([hunks, style]) => {
      const body = ['*** Begin Patch', ...hunks.flat(), '*** End Patch'];
      switch (style) {
        case 'padded':
          return body.map((l, i) => (i === 0 || i === body.length - 1 ? `  ${l} ` : l)).join('\n');
        case 'heredoc':
          return ["<<'EOF'", ...body, 'EOF'].join('\n');
        case 'crlf':
          return `${body.join('\r\n')}\r\n`;
        default:
          return `${body.join('\n')}\n`;
      }
    });
}

/** Line-level edits of a grammar patch. */
export function mutatedPatch(outsideAbs: string): fc.Arbitrary<string> {
  return fc
    .tuple(grammarPatch(outsideAbs), fc.array(fc.tuple(fc.nat(), fc.constantFrom('delete', 'duplicate', 'swap', 'prefix', 'insert', 'truncate', 'strip'), line), { minLength: 1, maxLength: 5 }))
    .map(([patch, edits]) => {
      const lines = patch.split('\n');
      for (const [at, op, text] of edits) {
        const i = lines.length === 0 ? 0 : at % lines.length;
        if (op === 'delete') lines.splice(i, 1);
        else if (op === 'duplicate') lines.splice(i, 0, lines[i] ?? '');
        else if (op === 'swap' && i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
        else if (op === 'prefix') lines[i] = `${text.slice(0, 1) || '#'}${(lines[i] ?? '').slice(1)}`;
        else if (op === 'insert') lines.splice(i, 0, text);
        else if (op === 'truncate') lines.length = i;
        else if (op === 'strip') lines[i] = (lines[i] ?? '').trim();
      }
      return lines.join('\n');
    });
}

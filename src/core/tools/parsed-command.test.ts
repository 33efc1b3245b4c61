import { describe, expect, it } from 'vitest';
import { parseCommand } from './parsed-command.js';

describe('parseCommand', () => {
  it.each([
    [['cat', 'src/a.ts'], [{ type: 'read', cmd: 'cat src/a.ts', name: 'a.ts', path: 'src/a.ts' }]],
    [['head', '-n', '50', 'README.md'], [{ type: 'read', cmd: 'head -n 50 README.md', name: 'README.md', path: 'README.md' }]],
    [['sed', '-n', '1,200p', 'x.rs'], [{ type: 'read', cmd: 'sed -n 1,200p x.rs', name: 'x.rs', path: 'x.rs' }]],
    [['ls', '-la'], [{ type: 'list_files', cmd: 'ls -la' }]],
    [['ls', 'src'], [{ type: 'list_files', cmd: 'ls src', path: 'src' }]],
    [['rg', '--files', 'src'], [{ type: 'list_files', cmd: 'rg --files src', path: 'src' }]],
    [['rg', '-n', 'TODO', 'src'], [{ type: 'search', cmd: 'rg -n TODO src', query: 'TODO', path: 'src' }]],
    [['grep', '-R', '-e', 'x y', '.'], [{ type: 'search', cmd: "grep -R -e 'x y' .", query: 'x y', path: '.' }]],
    [['find', '.', '-name', '*.md'], [{ type: 'search', cmd: "find . -name '*.md'", query: '*.md', path: '.' }]],
    [['git', 'grep', 'foo'], [{ type: 'search', cmd: 'git grep foo', query: 'foo' }]],
    [['npm', 'test'], [{ type: 'unknown', cmd: 'npm test' }]],
  ])('%j', (argv, expected) => expect(parseCommand(argv)).toEqual(expected));

  it('describes plain bash -lc scripts command by command, dropping cd and formatters on pipes', () => {
    expect(parseCommand(['bash', '-lc', 'cd src && rg --files | head -n 20 && cat a.ts'])).toEqual([
      { type: 'list_files', cmd: 'rg --files' },
      { type: 'read', cmd: 'cat a.ts', name: 'a.ts', path: 'a.ts' },
    ]);
  });

  it('an opaque script is one unknown entry with the script text', () => {
    expect(parseCommand(['bash', '-lc', 'echo $(date) > x'])).toEqual([{ type: 'unknown', cmd: 'echo $(date) > x' }]);
  });
});

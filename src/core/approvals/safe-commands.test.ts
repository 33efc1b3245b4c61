import { describe, expect, it } from 'vitest';
import { isKnownSafeCommand } from './safe-commands.js';
import { splitPlainCommands } from './shell-script.js';

const safe = (...argv: string[]) => isKnownSafeCommand(argv, 'linux');

describe('isKnownSafeCommand', () => {
  it.each([
    [['ls']], [['ls', '-la', 'src']], [['cat', 'README.md']], [['grep', '-R', 'foo', '.']], [['rg', '-n', 'foo']],
    [['head', '-n', '5', 'a']], [['tail', 'a']], [['wc', '-l', 'a']], [['pwd']], [['/bin/ls']],
    [['git', 'status']], [['git', 'log', '-p', '-n', '3']], [['git', 'diff', 'HEAD~1']], [['git', 'show', 'HEAD']],
    [['git', '-C', 'sub', 'status']], [['git', 'branch']], [['git', 'branch', '--show-current']],
    [['find', '.', '-name', '*.ts']], [['sed', '-n', '1,20p', 'file']], [['base64', 'file']], [['tac', 'file']],
  ])('%j is safe', (argv) => expect(safe(...argv)).toBe(true));

  it.each([
    [['rm', '-rf', 'x']], [['touch', 'x']], [['npm', 'install']], [['cargo', 'check']], [['foo']],
    [['find', '.', '-exec', 'rm', '{}', ';']], [['find', '.', '-delete']], [['find', '.', '-fprint', '/etc/x']],
    [['rg', '--pre', 'evil', 'x']], [['rg', '--pre=evil', 'x']], [['rg', '-z', 'x']], [['rg', '--hostname-bin=x', 'y']],
    [['git', '-c', 'core.pager=evil', 'log']], [['git', '-ccore.pager=evil', 'status']], [['git', '--config-env=a=b', 'status']],
    [['git', 'push']], [['git', 'checkout', 'status']], [['git', 'branch', '-d', 'x']], [['git', 'branch', 'new']],
    [['git', 'log', '--output=/tmp/x']], [['git', 'diff', '--ext-diff']], [['git', 'show', '--textconv']], [['git', '-p', 'log']],
    [['sed', '-i', 's/a/b/', 'f']], [['sed', '-n', '1p;w out', 'f']], [['base64', '-o', 'out']], [['base64', '--output=out']],
    [[]],
  ])('%j is not safe', (argv) => expect(safe(...argv)).toBe(false));

  it.each([
    'ls', 'ls && pwd', 'cat a | wc -l', 'git status; git log -n 1', 'grep -n "hello world" src || echo none',
    "rg 'a b' src", 'cd sub && ls', 'ls\npwd',
  ])('bash -lc %j is safe', (script) => {
    expect(safe('bash', '-lc', script)).toBe(true);
    expect(safe('zsh', '-lc', script)).toBe(true);
    expect(safe('/bin/sh', '-c', script)).toBe(true);
  });

  it.each([
    'ls > out.txt', 'cat < in', 'ls >> log', 'ls 2>/dev/null', 'echo $(rm -rf x)', 'echo `rm x`', 'echo $HOME',
    '(ls)', 'ls && (pwd)', '{ ls; }', 'ls &', 'ls & rm x', 'ls && rm x', 'ls | xargs rm', 'FOO=bar ls',
    'ls *', 'cat "$(id)"', 'find . -exec rm {} ;', 'rg --pre evil x', 'git -c core.pager=x log', 'ls &&', '&& ls',
    'ls |& cat', "echo 'unterminated", 'cat <<EOF\nx\nEOF', 'ls; ; pwd',
  ])('bash -lc %j is not safe', (script) => {
    expect(safe('bash', '-lc', script)).toBe(false);
  });

  it('only bash/zsh/sh with -c or -lc count as scripts', () => {
    expect(safe('bash', '-x', 'ls')).toBe(false);
    expect(safe('python3', '-c', 'ls')).toBe(false);
    expect(safe('bash', '-lc', 'ls', 'extra')).toBe(false);
  });
});

describe('splitPlainCommands', () => {
  it('removes quotes and records the joining operators', () => {
    expect(splitPlainCommands(`grep -n "a \\"b\\"" 'c d' && wc -l x | head; pwd`)).toEqual([
      { argv: ['grep', '-n', 'a "b"', 'c d'], joinedBy: null },
      { argv: ['wc', '-l', 'x'], joinedBy: '&&' },
      { argv: ['head'], joinedBy: '|' },
      { argv: ['pwd'], joinedBy: ';' },
    ]);
  });

  it('rejects what a shell would expand or redirect', () => {
    for (const script of ['echo "$x"', 'a > b', 'a <(b)', 'a ~(x)', 'echo [a]', 'echo ?']) {
      expect(splitPlainCommands(script), script).toBeNull();
    }
  });
});

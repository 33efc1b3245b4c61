import { describe, expect, it } from 'vitest';
import { COMMAND_GROUPS, groupsFor } from './commands.js';

const names = (args: string[]) => groupsFor(args).flatMap((g) => g.names);

describe('groupsFor', () => {
  it('loads only the group the command line names, past root options and their values', () => {
    expect(names(['mcp', 'tools', '--no-wait'])).toEqual(['mcp']);
    expect(names(['--config', 'exec', 'serve', '--stdio'])).toEqual(['serve']);
    expect(names(['-c', 'model="x"', '--override', 'a=1', 'exec', 'hi'])).toEqual(['exec']);
    expect(names(['--config=other.toml', 'mcp-server'])).toEqual(['mcp-server']);
  });

  it("skips the values of Codex's global options (-m gpt-5.3-codex is not a command)", () => {
    expect(names(['-m', 'gpt-5.3-codex', 'mcp-server'])).toEqual(['mcp-server']);
    expect(names(['-p', 'fast', '-s', 'read-only', '-a', 'never', '-C', 'proj', '--enable', 'x', '--disable', 'y', 'exec', 'hi'])).toEqual(['exec']);
    expect(names(['--model', 'm', '--profile', 'p', '--sandbox', 's', '--ask-for-approval', 'a', '--cd', 'd', '--yolo', '--full-auto', '--oss', 'mcp-server'])).toEqual(['mcp-server']);
  });

  it('loads every group for help, an unknown command or none, and none for a bare --version', () => {
    const all = COMMAND_GROUPS.flatMap((g) => g.names);
    expect(names([])).toEqual(all);
    expect(names(['--help'])).toEqual(all);
    expect(names(['help', 'serve'])).toEqual(all);
    expect(names(['mcpx'])).toEqual(all);
    expect(names(['--version', '--help'])).toEqual(all);
    expect(names(['--version'])).toEqual([]);
  });
});

import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addCodexOptions } from './codex-options.js';
import { CODEX_VALUE_OPTIONS } from './command-line.js';
import { COMMAND_GROUPS, groupsFor, subcommandOf } from './commands.js';

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

  it("knows every Codex root option that takes a value, as codex-options.ts defines them", () => {
    const taking = addCodexOptions(new Command()).options.filter((o) => o.required || o.optional);
    expect(new Set(CODEX_VALUE_OPTIONS)).toEqual(new Set(taking.flatMap((o) => [o.short, o.long].filter((f) => f !== undefined))));
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

describe('the mcp group', () => {
  const mcp = COMMAND_GROUPS.find((g) => g.names.includes('mcp'))!;
  it('loads the runtime commands alone for a runtime subcommand, every mcp command otherwise', async () => {
    expect(await mcp.load(['mcp', 'tools', '--no-wait'])).toHaveLength(1);
    expect(await mcp.load(['-c', 'a=1', 'mcp', 'status', '--json'])).toHaveLength(1);
    for (const args of [['mcp'], ['mcp', '--help'], ['mcp', 'help', 'tools'], ['mcp', 'add', 'x'], ['mcp', 'login', 'x'], ['mcp', 'toolz']]) {
      expect(await mcp.load(args)).toHaveLength(3);
    }
  });
  it('reads the subcommand as the word after the command', () => {
    expect(subcommandOf(['-c', 'a=1', 'mcp', 'call', 's__t'], 'mcp')).toBe('call');
    expect(subcommandOf(['mcp', '--json'], 'mcp')).toBeUndefined();
    expect(subcommandOf(['mcp'], 'mcp')).toBeUndefined();
  });
});

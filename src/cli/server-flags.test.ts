import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { SERVER_HEAP_FLAG, serverArgv, serverFlagsFor } from './server-flags.js';

const NODE = '/usr/bin/node';
const SCRIPT = '/opt/switchboard/bin/switchboard.js';
const launched = (args: string[], execArgv: string[] = [], env: Record<string, string> = {}) => ({ argv: [NODE, SCRIPT, ...args], execArgv, env });
/** A machine with Node's four V8 workers or more cores: only the young generation's flag. */
const BIG = 8;

describe('serverArgv', () => {
  it('re-executes a server command with the flags first, Node options and the command line as they were', () => {
    expect(serverArgv(launched(['serve', '--http', '127.0.0.1:0']), BIG)).toEqual([NODE, SERVER_HEAP_FLAG, SCRIPT, 'serve', '--http', '127.0.0.1:0']);
    expect(serverArgv(launched(['-c', 'model="x"', '-m', 'serve', 'mcp-server'], ['--enable-source-maps']), BIG)).toEqual([NODE, SERVER_HEAP_FLAG, '--enable-source-maps', SCRIPT, '-c', 'model="x"', '-m', 'serve', 'mcp-server']);
  });

  it('gives a machine of fewer cores than Node has V8 workers one worker a core, and never fewer than two', () => {
    expect(serverArgv(launched(['serve']), 2)).toEqual([NODE, SERVER_HEAP_FLAG, '--v8-pool-size=2', SCRIPT, 'serve']);
    expect(serverArgv(launched(['mcp-server']), 3)).toEqual([NODE, SERVER_HEAP_FLAG, '--v8-pool-size=3', SCRIPT, 'mcp-server']);
    expect(serverArgv(launched(['serve']), 1)).toEqual([NODE, SERVER_HEAP_FLAG, '--v8-pool-size=2', SCRIPT, 'serve']);
    expect(serverFlagsFor(4)).toEqual([SERVER_HEAP_FLAG]);
    expect(serverFlagsFor(2)).toEqual([SERVER_HEAP_FLAG, '--v8-pool-size=2']);
  });

  it("asks for the machine's cores only for a server command (every CLI run goes through here)", () => {
    const cores = vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    try {
      expect(serverArgv(launched(['mcp', 'tools', '--no-wait']))).toBeUndefined();
      expect(serverArgv(launched(['serve', '--help']))).toBeUndefined();
      expect(cores).not.toHaveBeenCalled();
      expect(serverArgv(launched(['serve']))).toEqual([NODE, SERVER_HEAP_FLAG, '--v8-pool-size=2', SCRIPT, 'serve']);
      expect(cores).toHaveBeenCalledTimes(1);
    } finally {
      cores.mockRestore();
    }
  });

  it('leaves every other command as it is, and a value that happens to be a server command', () => {
    for (const args of [['mcp', 'tools'], ['exec', 'serve'], ['-m', 'serve', 'exec', 'hi'], ['--config', 'serve'], ['--version'], []]) {
      expect(serverArgv(launched(args), 2)).toBeUndefined();
    }
  });

  it('leaves help and a debugger alone', () => {
    expect(serverArgv(launched(['serve', '--help']), 2)).toBeUndefined();
    expect(serverArgv(launched(['mcp-server', '-h']), 2)).toBeUndefined();
    expect(serverArgv(launched(['serve'], ['--inspect=9229']), 2)).toBeUndefined();
  });

  it("leaves out a flag the operator chose, in Node's options or NODE_OPTIONS, and runs as it is when they chose every one", () => {
    expect(serverArgv(launched(['serve'], ['--max-semi-space-size=32']), BIG)).toBeUndefined();
    expect(serverArgv(launched(['serve'], [], { NODE_OPTIONS: '--trace-warnings --max-semi-space-size=2' }), BIG)).toBeUndefined();
    expect(serverArgv(launched(['serve'], [], { NODE_OPTIONS: '--min_semi_space_size=4' }), BIG)).toBeUndefined();
    expect(serverArgv(launched(['serve'], ['--max-semi-space-size=32']), 2)).toEqual([NODE, '--v8-pool-size=2', '--max-semi-space-size=32', SCRIPT, 'serve']);
    expect(serverArgv(launched(['serve'], [], { NODE_OPTIONS: '--v8-pool-size=1' }), 2)).toEqual([NODE, SERVER_HEAP_FLAG, SCRIPT, 'serve']);
    expect(serverArgv(launched(['serve'], ['--v8_pool_size=3', '--max-semi-space-size=4']), 2)).toBeUndefined();
    expect(serverArgv(launched(['serve'], [], { NODE_OPTIONS: '--trace-warnings' }), BIG)).toEqual([NODE, SERVER_HEAP_FLAG, SCRIPT, 'serve']);
  });
});

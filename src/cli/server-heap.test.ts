import { describe, expect, it } from 'vitest';
import { SERVER_HEAP_FLAG, serverHeapArgv } from './server-heap.js';

const NODE = '/usr/bin/node';
const SCRIPT = '/opt/switchboard/bin/switchboard.js';
const launched = (args: string[], execArgv: string[] = [], env: Record<string, string> = {}) => ({ argv: [NODE, SCRIPT, ...args], execArgv, env });

describe('serverHeapArgv', () => {
  it('re-executes a server command with the flag first, Node options and the command line as they were', () => {
    expect(serverHeapArgv(launched(['serve', '--http', '127.0.0.1:0']))).toEqual([NODE, SERVER_HEAP_FLAG, SCRIPT, 'serve', '--http', '127.0.0.1:0']);
    expect(serverHeapArgv(launched(['-c', 'model="x"', '-m', 'serve', 'mcp-server'], ['--enable-source-maps']))).toEqual([NODE, SERVER_HEAP_FLAG, '--enable-source-maps', SCRIPT, '-c', 'model="x"', '-m', 'serve', 'mcp-server']);
  });

  it('leaves every other command as it is, and a value that happens to be a server command', () => {
    for (const args of [['mcp', 'tools'], ['exec', 'serve'], ['-m', 'serve', 'exec', 'hi'], ['--config', 'serve'], ['--version'], []]) {
      expect(serverHeapArgv(launched(args))).toBeUndefined();
    }
  });

  it('leaves help, a young generation the operator chose, and a debugger alone', () => {
    expect(serverHeapArgv(launched(['serve', '--help']))).toBeUndefined();
    expect(serverHeapArgv(launched(['mcp-server', '-h']))).toBeUndefined();
    expect(serverHeapArgv(launched(['serve'], ['--max-semi-space-size=32']))).toBeUndefined();
    expect(serverHeapArgv(launched(['serve'], [], { NODE_OPTIONS: '--trace-warnings --max-semi-space-size=2' }))).toBeUndefined();
    expect(serverHeapArgv(launched(['serve'], [], { NODE_OPTIONS: '--min_semi_space_size=4' }))).toBeUndefined();
    expect(serverHeapArgv(launched(['serve'], ['--inspect=9229']))).toBeUndefined();
    expect(serverHeapArgv(launched(['serve'], [], { NODE_OPTIONS: '--trace-warnings' }))).toEqual([NODE, SERVER_HEAP_FLAG, SCRIPT, 'serve']);
  });
});

import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { ALLOCATOR_VAR, forgetPreload, jemallocPaths, preloadedAllocator, type AllocatorMachine } from './server-allocator.js';
import { SERVER_HEAP_FLAG, serverFlagsFor, serverLaunch } from './server-flags.js';

const NODE = '/usr/bin/node';
const SCRIPT = '/opt/switchboard/bin/switchboard.js';
const launched = (args: string[], execArgv: string[] = [], env: Record<string, string> = {}) => ({ argv: [NODE, SCRIPT, ...args], execArgv, env });
/** A machine with Node's four V8 workers or more cores: only the young generation's flag. */
const BIG = 8;
/** A Linux machine with jemalloc at `installed` (none when undefined). */
const linux = (installed?: string): AllocatorMachine => ({ platform: 'linux', arch: 'x64', exists: (file) => file === installed });
const JEMALLOC = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
/** The arguments a server command is re-executed with on a machine of `cpus` cores without jemalloc. */
const argvOf = (proc: ReturnType<typeof launched>, cpus?: number) => serverLaunch(proc, { ...(cpus !== undefined ? { cpus } : {}), allocator: linux() })?.argv;

describe('serverLaunch', () => {
  it('re-executes a server command with the flags first, Node options and the command line as they were', () => {
    expect(argvOf(launched(['serve', '--http', '127.0.0.1:0']), BIG)).toEqual([NODE, SERVER_HEAP_FLAG, SCRIPT, 'serve', '--http', '127.0.0.1:0']);
    expect(argvOf(launched(['-c', 'model="x"', '-m', 'serve', 'mcp-server'], ['--enable-source-maps']), BIG)).toEqual([NODE, SERVER_HEAP_FLAG, '--enable-source-maps', SCRIPT, '-c', 'model="x"', '-m', 'serve', 'mcp-server']);
  });

  it('gives a machine of fewer cores than Node has V8 workers one worker a core, and never fewer than two', () => {
    expect(argvOf(launched(['serve']), 2)).toEqual([NODE, SERVER_HEAP_FLAG, '--v8-pool-size=2', SCRIPT, 'serve']);
    expect(argvOf(launched(['mcp-server']), 3)).toEqual([NODE, SERVER_HEAP_FLAG, '--v8-pool-size=3', SCRIPT, 'mcp-server']);
    expect(argvOf(launched(['serve']), 1)).toEqual([NODE, SERVER_HEAP_FLAG, '--v8-pool-size=2', SCRIPT, 'serve']);
    expect(serverFlagsFor(4)).toEqual([SERVER_HEAP_FLAG]);
    expect(serverFlagsFor(2)).toEqual([SERVER_HEAP_FLAG, '--v8-pool-size=2']);
  });

  it("asks for the machine's cores only for a server command (every CLI run goes through here)", () => {
    const cores = vi.spyOn(os, 'availableParallelism').mockReturnValue(2);
    try {
      expect(argvOf(launched(['mcp', 'tools', '--no-wait']))).toBeUndefined();
      expect(argvOf(launched(['serve', '--help']))).toBeUndefined();
      expect(cores).not.toHaveBeenCalled();
      expect(argvOf(launched(['serve']))).toEqual([NODE, SERVER_HEAP_FLAG, '--v8-pool-size=2', SCRIPT, 'serve']);
      expect(cores).toHaveBeenCalledTimes(1);
    } finally {
      cores.mockRestore();
    }
  });

  it('leaves every other command as it is, and a value that happens to be a server command', () => {
    for (const args of [['mcp', 'tools'], ['exec', 'serve'], ['-m', 'serve', 'exec', 'hi'], ['--config', 'serve'], ['--version'], []]) {
      expect(argvOf(launched(args), 2)).toBeUndefined();
    }
  });

  it('leaves help and a debugger alone', () => {
    expect(argvOf(launched(['serve', '--help']), 2)).toBeUndefined();
    expect(argvOf(launched(['mcp-server', '-h']), 2)).toBeUndefined();
    expect(argvOf(launched(['serve'], ['--inspect=9229']), 2)).toBeUndefined();
  });

  it("leaves out a flag the operator chose, in Node's options or NODE_OPTIONS, and runs as it is when they chose every one", () => {
    expect(argvOf(launched(['serve'], ['--max-semi-space-size=32']), BIG)).toBeUndefined();
    expect(argvOf(launched(['serve'], [], { NODE_OPTIONS: '--trace-warnings --max-semi-space-size=2' }), BIG)).toBeUndefined();
    expect(argvOf(launched(['serve'], [], { NODE_OPTIONS: '--min_semi_space_size=4' }), BIG)).toBeUndefined();
    expect(argvOf(launched(['serve'], ['--max-semi-space-size=32']), 2)).toEqual([NODE, '--v8-pool-size=2', '--max-semi-space-size=32', SCRIPT, 'serve']);
    expect(argvOf(launched(['serve'], [], { NODE_OPTIONS: '--v8-pool-size=1' }), 2)).toEqual([NODE, SERVER_HEAP_FLAG, SCRIPT, 'serve']);
    expect(argvOf(launched(['serve'], ['--v8_pool_size=3', '--max-semi-space-size=4']), 2)).toBeUndefined();
    expect(argvOf(launched(['serve'], [], { NODE_OPTIONS: '--trace-warnings' }), BIG)).toEqual([NODE, SERVER_HEAP_FLAG, SCRIPT, 'serve']);
  });
});

describe('the allocator of a server command', () => {
  const env = (vars: Record<string, string> = {}) => launched(['serve'], [], { PATH: '/usr/bin', ...vars });

  it('preloads jemalloc where the system has it, in the environment of the re-execution only', () => {
    const proc = env();
    const launch = serverLaunch(proc, { cpus: BIG, allocator: linux(JEMALLOC) });
    expect(launch?.argv).toEqual([NODE, SERVER_HEAP_FLAG, SCRIPT, 'serve']);
    expect(launch?.env).toMatchObject({ PATH: '/usr/bin', LD_PRELOAD: JEMALLOC, MALLOC_CONF: 'background_thread:true' });
    expect(proc.env).toEqual({ PATH: '/usr/bin' });
    // jemalloc settings of the operator's are theirs.
    expect(serverLaunch(env({ MALLOC_CONF: 'narenas:1' }), { cpus: BIG, allocator: linux(JEMALLOC) })?.env).toMatchObject({ LD_PRELOAD: JEMALLOC, MALLOC_CONF: 'narenas:1' });
    // Every flag chosen by the operator: re-executed for the allocator alone.
    expect(serverLaunch(launched(['serve'], ['--max-semi-space-size=4']), { cpus: BIG, allocator: linux(JEMALLOC) })?.argv).toEqual([NODE, '--max-semi-space-size=4', SCRIPT, 'serve']);
  });

  it("looks where Debian, Ubuntu, Fedora and Arch put it, and leaves other systems and other commands alone", () => {
    expect(jemallocPaths('x64')[0]).toBe(JEMALLOC);
    expect(jemallocPaths('arm64')).toEqual(['/usr/lib/aarch64-linux-gnu/libjemalloc.so.2', '/usr/lib64/libjemalloc.so.2', '/usr/lib/libjemalloc.so.2']);
    expect(serverLaunch(env(), { cpus: BIG, allocator: linux('/usr/lib64/libjemalloc.so.2') })?.env.LD_PRELOAD).toBe('/usr/lib64/libjemalloc.so.2');
    expect(serverLaunch(env(), { cpus: BIG, allocator: linux() })?.env.LD_PRELOAD).toBeUndefined();
    expect(serverLaunch(env(), { cpus: BIG, allocator: { ...linux(JEMALLOC), platform: 'darwin' } })?.env.LD_PRELOAD).toBeUndefined();
    expect(serverLaunch(launched(['mcp', 'tools']), { cpus: BIG, allocator: linux(JEMALLOC) })).toBeUndefined();
  });

  it("keeps the operator's own LD_PRELOAD, and the system allocator when asked", () => {
    expect(serverLaunch(env({ LD_PRELOAD: '/opt/their.so' }), { cpus: BIG, allocator: linux(JEMALLOC) })?.env.LD_PRELOAD).toBe('/opt/their.so');
    expect(serverLaunch(env({ [ALLOCATOR_VAR]: 'system' }), { cpus: BIG, allocator: linux(JEMALLOC) })?.env.LD_PRELOAD).toBeUndefined();
    expect(serverLaunch(env({ [ALLOCATOR_VAR]: 'jemalloc' }), { cpus: BIG, allocator: linux(JEMALLOC) })?.env.LD_PRELOAD).toBe(JEMALLOC);
    expect(serverLaunch(env({ [ALLOCATOR_VAR]: ' auto ' }), { cpus: BIG, allocator: linux(JEMALLOC) })?.env.LD_PRELOAD).toBe(JEMALLOC);
  });

  it('refuses a value it does not know, and jemalloc required where it cannot be had', () => {
    expect(() => serverLaunch(env({ [ALLOCATOR_VAR]: 'mimalloc' }), { cpus: BIG, allocator: linux(JEMALLOC) })).toThrow(/SWITCHBOARD_ALLOCATOR must be auto, jemalloc, system or unset, not "mimalloc"/);
    expect(() => serverLaunch(env({ [ALLOCATOR_VAR]: 'jemalloc' }), { cpus: BIG, allocator: linux() })).toThrow(/libjemalloc\.so\.2 is in none of .*apt-get install libjemalloc2/);
    expect(() => serverLaunch(env({ [ALLOCATOR_VAR]: 'jemalloc' }), { cpus: BIG, allocator: { ...linux(JEMALLOC), platform: 'win32' } })).toThrow(/for Linux/);
    // Checked only for a server command: a bad value does not stop `mcp tools`.
    expect(serverLaunch(launched(['mcp', 'tools'], [], { [ALLOCATOR_VAR]: 'mimalloc' }), { cpus: BIG, allocator: linux(JEMALLOC) })).toBeUndefined();
  });

  it('is taken out of the re-executed process\'s environment, so that nothing it starts inherits it', () => {
    const launch = serverLaunch(env(), { cpus: BIG, allocator: linux(JEMALLOC) })!;
    const reexecuted = { ...launch.env };
    // The re-executed process runs the launch again first: its own preload makes no second one.
    expect(serverLaunch({ argv: launch.argv, execArgv: [SERVER_HEAP_FLAG], env: reexecuted }, { cpus: BIG, allocator: linux(JEMALLOC) })).toBeUndefined();
    forgetPreload(reexecuted);
    expect(reexecuted).toEqual({ PATH: '/usr/bin' });
    expect(preloadedAllocator()).toBe(`jemalloc (${JEMALLOC})`);
    const theirs: Record<string, string> = { LD_PRELOAD: '/opt/their.so' };
    forgetPreload(theirs);
    expect(theirs).toEqual({ LD_PRELOAD: '/opt/their.so' });
    const theirConf = { ...serverLaunch(env({ MALLOC_CONF: 'narenas:1' }), { cpus: BIG, allocator: linux(JEMALLOC) })!.env };
    forgetPreload(theirConf);
    expect(theirConf).toEqual({ PATH: '/usr/bin', MALLOC_CONF: 'narenas:1' });
  });
});

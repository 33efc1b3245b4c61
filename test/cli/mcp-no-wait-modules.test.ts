// `mcp tools --no-wait` answers from snapshots without starting a server, so it loads none of the MCP
// SDK, nor Node modules only built-ins' ES facades load (issue 37: the warm start against a bare
// `node -e 0`). The built CLI runs with a hook that lists
// every file it loads (loaded-modules.ts); the SDK's protocol class marks the chunks that carry the SDK.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, runCliProcess } from '../support/cli.js';
import { tempHome } from '../support/temp.js';
import { MANAGER_FIXTURE } from '../mcp/manager-harness.js';
import { LOADED_MODULES_ENV, loadedBuiltins, loadedFiles, threadNames } from './loaded-modules.js';

const q = JSON.stringify;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** Our built files the run loaded that carry the SDK's protocol class (the SDK is bundled into dist/chunks). */
function sdkFilesLoaded(stderr: string): string[] {
  const ours = loadedFiles(stderr).filter((f) => f.startsWith(path.join(REPO, 'dist')));
  expect(ours.length).toBeGreaterThan(0);
  return ours.filter((f) => readFileSync(f, 'utf8').includes('extends Protocol'));
}

/** A home with one server, listed live once (which writes its snapshot), then the warm run; both with the hook. */
async function liveThenWarm() {
  const { home, cleanup } = await tempHome();
  cleanups.push(cleanup);
  await writeFile(path.join(home, 'config.toml'), [`[mcp_servers.a]`, `command = ${q(process.execPath)}`, `args = [${q(MANAGER_FIXTURE)}]`, `env = { MGR_NAME = "a", MGR_TOOLS = "echo" }`, ''].join('\n'));
  const env = LOADED_MODULES_ENV;
  const live = await runCliProcess(['mcp', 'tools', '--json'], { home, env });
  const warm = await runCliProcess(['mcp', 'tools', '--json', '--no-wait'], { home, env });
  return { live, warm };
}

describe('mcp tools --no-wait', () => {
  it('answers from the snapshots without loading the MCP SDK, which a live listing loads', async () => {
    const { live, warm } = await liveThenWarm();
    expect(live.code).toBe(0);
    const listed = (stdout: string) => JSON.parse(stdout) as { name: string; source: string }[];
    expect(listed(live.stdout).map((t) => t.name)).toContain('mcp__a__echo');
    expect(new Set(listed(live.stdout).map((t) => t.source))).toEqual(new Set(['live']));
    expect(sdkFilesLoaded(live.stderr)).not.toEqual([]);

    expect(warm.code).toBe(0);
    expect(listed(warm.stdout).map((t) => t.name)).toEqual(listed(live.stdout).map((t) => t.name));
    expect(new Set(listed(warm.stdout).map((t) => t.source))).toEqual(new Set(['snapshot']));
    expect(sdkFilesLoaded(warm.stderr)).toEqual([]);
    // Nor what an import of a built-in runs through its ES facade's getters (the build takes built-ins
    // with process.getBuiltinModule): worker_threads and the report for node:process and node:util,
    // the fs streams for node:fs. Nor node:crypto: the snapshots' names are a hash in JavaScript
    // (textHash64), and the live run above needed crypto for its sessions anyway. Nor child_process,
    // which commander's chunk names but takes only when a property is read (TAKEN_WHEN_USED in
    // scripts/bundle-options.ts); the live run spawned its server with it.
    // Nor, as it only prints (twenty-third round): net and the streams, which process.stdout on a pipe
    // loads (its text is written straight to the descriptor, src/cli/process-output.ts); fs/promises
    // and the readline it loads (config.toml and the snapshots are read through node:fs); and
    // node:net and readline/promises, which chunks on its way name but take at first use.
    expect(loadedBuiltins(warm.stderr)).toContain('fs');
    expect(loadedBuiltins(live.stderr)).toEqual(expect.arrayContaining(['crypto', 'child_process', 'net', 'stream']));
    expect(
      loadedBuiltins(warm.stderr).filter((m) =>
        ['worker_threads', 'internal/process/report', 'internal/fs/streams', 'crypto', 'child_process', 'net', 'stream', 'internal/fs/promises', 'internal/readline/interface', 'readline/promises'].includes(m),
      ),
    ).toEqual([]);
  });

  // Config.toml and the snapshots are read synchronously (twenty-fourth round): a command that only
  // prints makes no asynchronous file read, so libuv never starts its pool of four threads.
  it.runIf(process.platform === 'linux')('starts none of libuv\'s worker threads, which an asynchronous file read starts (Linux names threads in /proc)', async () => {
    const { warm } = await liveThenWarm();
    expect(warm.code).toBe(0);
    expect(threadNames(warm.stderr)).toContain('MainThread');
    expect(threadNames(warm.stderr)).not.toContain('libuv-worker');
    // The same listing sees the pool where there is one: a bare Node that reads a file asynchronously.
    const control = spawnSync(process.execPath, ['-e', 'require("node:fs").readFile(process.execPath, () => {})'], { env: { ...process.env, ...LOADED_MODULES_ENV }, encoding: 'utf8' });
    expect(control.status).toBe(0);
    expect(threadNames(control.stderr)).toContain('libuv-worker');
  });
});

// Node's module compile cache for local stdio servers (docs/performance.md): on by default under
// $SWITCHBOARD_HOME/cache/node-compile, written by the servers themselves when they exit after their
// stdin is closed (Node never writes it when killed), and off with `mcp_node_compile_cache = false`.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempHome } from '../support/temp.js';
import { MANAGER_FIXTURE } from '../mcp/manager-harness.js';

const q = JSON.stringify;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function homeWith(extra: string[] = []): Promise<string> {
  const { home, cleanup } = await tempHome();
  cleanups.push(cleanup);
  const servers = ['a', 'b'].flatMap((n) => [`[mcp_servers.${n}]`, `command = ${q(process.execPath)}`, `args = [${q(MANAGER_FIXTURE)}]`, `env = { MGR_NAME = "${n}", MGR_TOOLS = "echo" }`, '']);
  await writeFile(path.join(home, 'config.toml'), [...extra, '', ...servers].join('\n'));
  return home;
}

/** Files under the cache directory (Node keeps them in a per-version subdirectory). */
function cachedFiles(home: string): string[] {
  const dir = path.join(home, 'cache', 'node-compile');
  return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];
}

describe('Node compile cache for stdio servers', () => {
  it('is written under the home by servers stopped at the end of a command', async () => {
    const home = await homeWith();
    const r = await runCli(['mcp', 'tools', '--json'], { home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['mcp__a__echo', 'mcp__b__echo']));
    expect(cachedFiles(home).length).toBeGreaterThan(0);
    // Made by switchboard, private like the rest of the home (not by the server's Node, default mode).
    expect((statSync(path.join(home, 'cache', 'node-compile')).mode & 0o777).toString(8)).toBe('700');
  });

  it('is not used with mcp_node_compile_cache = false', async () => {
    const home = await homeWith(['mcp_node_compile_cache = false']);
    const r = await runCli(['mcp', 'tools', '--json'], { home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['mcp__a__echo', 'mcp__b__echo']));
    expect(existsSync(path.join(home, 'cache', 'node-compile'))).toBe(false);
  });

  it('rejects a value that is not a boolean', async () => {
    const home = await homeWith(['mcp_node_compile_cache = "yes"']);
    const r = await runCli(['mcp', 'tools', '--json', '--no-wait'], { home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('mcp_node_compile_cache must be true or false');
  });
});

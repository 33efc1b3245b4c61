// Two real switchboard processes refreshing the same login at the same moment: the one-time
// refresh token is presented once and both processes end up with valid tokens.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../../fixtures/oauth-fixture.js';
import { httpServer, loginWithBrowser, storedCredentials } from './helpers.js';
import { tempHome } from '../../support/temp.js';
import { fixtureProgram } from '../../support/fixture-bundles.js';

const CHILD = fixtureProgram('oauth-refresh-child.mjs');
const DIST = path.resolve(import.meta.dirname, '../../../dist/mcp-client/oauth/index.js');

interface ChildResult {
  ok: boolean;
  text?: string;
  code?: string;
  message?: string;
}

function startChild(home: string, url: string): { child: ChildProcess; ready: Promise<void>; result: Promise<ChildResult> } {
  const child = spawn(process.execPath, [CHILD, home, 'docs', url], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! });
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  const result = new Promise<ChildResult>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') onReady();
      else resolve(JSON.parse(line) as ChildResult);
    });
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before reporting`)));
  });
  return { child, ready, result };
}

describe('refresh race across processes', { timeout: 90_000 }, () => {
  let fixture: OAuthFixture | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    if (!existsSync(DIST)) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
    await fixture?.close();
    await cleanup?.();
  });

  async function race(loginTtlSec: number, prepare: (f: OAuthFixture) => void): Promise<{ fixture: OAuthFixture; results: ChildResult[]; home: string }> {
    fixture = await startOAuthFixture({ accessTokenTtlSec: loginTtlSec, refreshDelayMs: 300 });
    const home = await tempHome();
    cleanup = home.cleanup;
    await loginWithBrowser(home.home, httpServer('docs', fixture.mcpUrl));
    prepare(fixture);
    const procs = [startChild(home.home, fixture.mcpUrl), startChild(home.home, fixture.mcpUrl)];
    children.push(...procs.map((p) => p.child));
    await Promise.all(procs.map((p) => p.ready));
    for (const p of procs) p.child.stdin!.write('go\n');
    const results = await Promise.all(procs.map((p) => p.result));
    return { fixture, results, home: home.home };
  }

  it('refreshing before expiry: one refresh, the other process adopts the stored tokens', async () => {
    // Logged in with a 30 s token: both processes find it within the 60 s refresh window.
    const { fixture, results, home } = await race(30, (f) => {
      f.accessTokenTtlSec = 3600;
    });
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(fixture.stats.refreshGrants).toBe(1);
    expect(fixture.stats.refreshReuse).toBe(0);
    const stored = await storedCredentials(home, 'docs', fixture.mcpUrl);
    expect(stored?.tokens?.refresh_token).toBeDefined();
  });

  it('refreshing after 401s: every refresh presents a different refresh token', async () => {
    // A long-lived token the server then forgets: both processes get a 401 and the SDK refreshes.
    const { fixture, results } = await race(3600, (f) => {
      f.rejectIssuedAccessTokens();
    });
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(fixture.stats.refreshGrants).toBeGreaterThanOrEqual(1);
    expect(fixture.stats.refreshReuse).toBe(0);
  });
});

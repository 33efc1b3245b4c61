// openBrowser with real processes: `$BROWSER` first, else the `open` package (here: its bundled
// xdg-open, which picks `www-browser` from PATH when there is no display), and the URL arrives whole.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openBrowser } from './open-browser.js';

// An OAuth URL: several `&`, an encoded space, a `%` escape, a `#`-free query.
const URL_WITH_AMPERSANDS = 'http://127.0.0.1:9/authorize?response_type=code&client_id=a%20b&state=x&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb';

let dir: string;
let received: string;

/** An executable that records its arguments (one per line) and exits with `code`. */
async function fakeBrowser(name: string, code = 0): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(received)}\nexit ${code}\n`);
  await chmod(file, 0o755);
  return file;
}

async function receivedArgs(): Promise<string[]> {
  for (let i = 0; i < 200; i++) {
    const text = await readFile(received, 'utf8').catch(() => '');
    if (text.endsWith('\n')) return text.slice(0, -1).split('\n');
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the browser was never started');
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sb-browser-'));
  received = path.join(dir, 'received');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('openBrowser', () => {
  it('runs $BROWSER with the URL as one argument, & and all', async () => {
    const browser = await fakeBrowser('my-browser');
    expect(await openBrowser(URL_WITH_AMPERSANDS, { ...process.env, BROWSER: browser })).toBe(true);
    expect(await receivedArgs()).toEqual([URL_WITH_AMPERSANDS]);
  });

  it('reports failure when $BROWSER cannot start or exits non-zero', async () => {
    expect(await openBrowser(URL_WITH_AMPERSANDS, { ...process.env, BROWSER: path.join(dir, 'missing') })).toBe(false);
    const failing = await fakeBrowser('failing-browser', 3);
    expect(await openBrowser(URL_WITH_AMPERSANDS, { ...process.env, BROWSER: failing })).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')('without $BROWSER, opens through the open package (xdg-open → www-browser)', async () => {
    await fakeBrowser('www-browser');
    vi.stubEnv('PATH', `${dir}:${process.env.PATH ?? ''}`);
    // No desktop: xdg-open falls back to the terminal browsers it knows, www-browser first.
    for (const name of ['BROWSER', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_CURRENT_DESKTOP', 'DESKTOP_SESSION', 'KDE_FULL_SESSION', 'GNOME_DESKTOP_SESSION_ID']) {
      vi.stubEnv(name, undefined);
    }
    const { BROWSER: _ignored, ...env } = process.env;
    expect(await openBrowser(URL_WITH_AMPERSANDS, env)).toBe(true);
    expect(await receivedArgs()).toEqual([URL_WITH_AMPERSANDS]);
  });

  it.skipIf(process.platform !== 'linux')('without $BROWSER and with no browser at all, reports failure', async () => {
    vi.stubEnv('PATH', dir); // xdg-open needs only the shell's builtins to find that nothing is there
    for (const name of ['BROWSER', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_CURRENT_DESKTOP', 'DESKTOP_SESSION']) vi.stubEnv(name, undefined);
    expect(await openBrowser(URL_WITH_AMPERSANDS, {})).toBe(false);
  });
});

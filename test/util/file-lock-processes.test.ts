// withFileLock across real processes: no lost updates, no leftovers, stale locks taken over.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/util/index.js';
import { FIXTURES, REPO } from '../support/cli.js';
import { tempHome } from '../support/temp.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home: dir, cleanup } = await tempHome());
});
afterEach(async () => {
  await cleanup();
});

function run(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? -1));
  });
}

describe('withFileLock', { timeout: 60_000 }, () => {
  it('serialises read-modify-write across processes', async () => {
    const dist = path.join(REPO, 'dist', 'util', 'index.js');
    if (!existsSync(dist)) throw new Error('dist/ is missing: run `npm run build` first');
    const counter = path.join(dir, 'counter');
    await writeFile(counter, '0');
    const codes = await Promise.all(
      Array.from({ length: 6 }, () => run([path.join(FIXTURES, 'lock-counter.mjs'), pathToFileURL(dist).href, counter, '15'])),
    );
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await readFile(counter, 'utf8')).toBe('90');
    expect(await readdir(dir)).toEqual(['counter']);
  });

  it('takes over a lock whose owner is gone', async () => {
    const lock = path.join(dir, 'x.lock');
    await writeFile(lock, '2147483646');
    expect(await withFileLock(lock, async () => 'ran', { timeoutMs: 5_000 })).toBe('ran');
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for a live owner, then times out', async () => {
    const lock = path.join(dir, 'x.lock');
    await writeFile(lock, String(process.pid));
    await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 200 })).rejects.toMatchObject({ code: 'lock_timeout' });
    expect(await readFile(lock, 'utf8')).toBe(String(process.pid));
  });
});

import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replaceCacheFileSync } from './atomic-write.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sb-cache-file-'));
  dirs.push(dir);
  return dir;
}

describe('replaceCacheFileSync', () => {
  it('writes the file with the mode given, then replaces it whole (a new inode), leaving no temporary file', async () => {
    const dir = await folder();
    const file = path.join(dir, 'list.json');
    replaceCacheFileSync(file, '{"v":1}', 0o600);
    expect(await readFile(file, 'utf8')).toBe('{"v":1}');
    const first = await stat(file);
    expect(first.mode & 0o777).toBe(0o600);
    replaceCacheFileSync(file, '{"v":2}', 0o600);
    expect(await readFile(file, 'utf8')).toBe('{"v":2}');
    expect((await stat(file)).ino).not.toBe(first.ino);
    expect(await readdir(dir)).toEqual(['list.json']);
  });

  it('throws when it cannot replace the file, and removes its temporary file', async () => {
    const dir = await folder();
    const file = path.join(dir, 'taken');
    await mkdir(path.join(file, 'inside'), { recursive: true }); // a folder that is not empty cannot be renamed over
    expect(() => replaceCacheFileSync(file, 'x', 0o600)).toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
  });
});

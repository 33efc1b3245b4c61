// The file logger on a real file: pino JSON lines, redaction, level filter, file modes, and size
// rotation (also when another process sharing the file has rotated it first).
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLogger } from './file-logger.js';
import { RotatingLogFile, type FdDestination, type LogRotation } from './log-file.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sb-log-'));
  file = path.join(dir, 'log', 'switchboard.log');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = (f = file): string => (existsSync(f) ? readFileSync(f, 'utf8') : '');
const records = (f = file) =>
  read(f)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Writes are asynchronous: wait until the file holds what the test expects. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const destination = (fd: number) => pino.destination({ dest: fd, sync: false, minLength: 0 }) as unknown as FdDestination;

describe('createFileLogger', () => {
  it('writes one JSON object per line: level, ISO time, msg, then the fields', async () => {
    const logger = createFileLogger(file, { level: 'debug' });
    logger.child({ server: 'docs' }).debug('connected', { attempt: 2 });
    logger.error('failed');
    await until(() => records().length === 2, 'two records');
    const [first, second] = records();
    expect(first).toEqual({ level: 'debug', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/), msg: 'connected', server: 'docs', attempt: 2 });
    expect(second).toMatchObject({ level: 'error', msg: 'failed' });
    expect(Object.keys(second!)).toEqual(['level', 'time', 'msg']);
  });

  it('masks secrets before they reach the file', async () => {
    const logger = createFileLogger(file).child({ bearer_token: 'bound-secret' });
    logger.warn('request failed', { Authorization: 'Bearer abc123', headers: { cookie: 'session=s3cr3t' }, server: 'docs' });
    await until(() => records().length === 1, 'the record');
    const text = read();
    for (const s of ['bound-secret', 'abc123', 's3cr3t']) expect(text).not.toContain(s);
    expect(records()[0]).toMatchObject({ bearer_token: '*****', Authorization: '*****', headers: { cookie: '*****' }, server: 'docs' });
  });

  it('creates nothing for records below its level, and keeps lines in order', async () => {
    const logger = createFileLogger(file); // info
    logger.debug('skipped');
    await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(path.dirname(file))).toBe(false);
    for (let i = 0; i < 500; i++) logger.info(`line ${i}`);
    await until(() => records().length === 500, '500 records');
    expect(records().map((r) => r.msg)).toEqual(Array.from({ length: 500 }, (_, i) => `line ${i}`));
  });

  it('creates the file 0600 in a 0700 folder, whatever the umask', async () => {
    const previous = process.umask(0);
    try {
      createFileLogger(file).info('x');
    } finally {
      process.umask(previous);
    }
    await until(() => records().length === 1, 'the record');
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect((statSync(path.dirname(file)).mode & 0o777).toString(8)).toBe('700');
  });

  it('never throws when the file cannot be written', () => {
    writeFileSync(path.join(dir, 'log'), 'a file where the folder should be');
    const logger = createFileLogger(file);
    expect(() => logger.error('lost', { n: 1 })).not.toThrow();
  });
});

describe('RotatingLogFile', () => {
  const line = (i: number) => `${JSON.stringify({ i, pad: 'x'.repeat(40) })}\n`; // 55-57 bytes
  const logFiles = () => readdirSync(path.dirname(file)).sort();
  const indices = (f: string) => records(f).map((r) => r.i as number);

  it('rotates by size into file.1 … file.N, dropping the oldest, without losing or reordering lines', async () => {
    const rotation: LogRotation = { maxBytes: 500, maxFiles: 2 };
    const sink = new RotatingLogFile(file, rotation, destination);
    for (let i = 0; i < 40; i++) sink.write(line(i));
    const all = () => [`${file}.2`, `${file}.1`, file].flatMap(indices);
    await until(() => all().at(-1) === 39, 'the last line');
    expect(logFiles()).toEqual(['switchboard.log', 'switchboard.log.1', 'switchboard.log.2']);
    // Each file stops at the first line that reaches the limit.
    for (const f of [file, `${file}.1`, `${file}.2`]) expect(statSync(f).size).toBeLessThan(rotation.maxBytes + 60);
    const kept = all();
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, k) => 40 - kept.length + k)); // the newest, in order
    expect(kept.length).toBeGreaterThan(20);
  });

  it('rotates a file that is already over the limit before writing to it', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'old\n'.repeat(200));
    const sink = new RotatingLogFile(file, { maxBytes: 500, maxFiles: 5 }, destination);
    sink.write(line(0));
    await until(() => indices(file).length === 1, 'the new line');
    expect(read(`${file}.1`)).toBe('old\n'.repeat(200));
  });

  it('moves to the new file when another writer has rotated, instead of rotating again', async () => {
    const rotation: LogRotation = { maxBytes: 300, maxFiles: 5 };
    const a = new RotatingLogFile(file, rotation, destination);
    const b = new RotatingLogFile(file, rotation, destination); // another process on the same file
    b.write(line(100));
    await until(() => indices(file).length === 1, "b's first line");
    for (let i = 0; i <= 5; i++) a.write(line(i)); // a starts at b's size, reaches 300 bytes and rotates
    await until(() => indices(`${file}.1`).includes(4) && indices(file).includes(5), 'a rotating');
    for (let i = 101; i <= 106; i++) b.write(line(i)); // b reaches its own limit: the path is a newer file now
    await until(() => indices(file).includes(106) && indices(`${file}.1`).includes(105), 'b moving to the new file');
    expect(logFiles()).toEqual(['switchboard.log', 'switchboard.log.1']);
    expect(indices(`${file}.1`)).toEqual([100, 0, 1, 2, 3, 4, 101, 102, 103, 104, 105]);
    expect(indices(file)).toEqual([5, 106]);
  });
});

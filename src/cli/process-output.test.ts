// The CLI's text written straight to a descriptor (process-output.ts): in order and whole, and on a
// descriptor that cannot take more now (non-blocking, its reader slow), the rest handed to the stream.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { descriptorOutput } from './process-output.js';

const opened: number[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A FIFO's two ends, both non-blocking: a write that does not fit in the pipe fails with EAGAIN. */
function nonBlockingPipe(): { read: number; write: number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-output-'));
  dirs.push(dir);
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const read = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const write = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  opened.push(read, write);
  return { read, write };
}

/** Everything the pipe holds now. */
function drain(fd: number): Buffer {
  const parts: Buffer[] = [];
  const buf = Buffer.alloc(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw err;
    }
    if (n === 0) break;
    parts.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(parts);
}

/** A stand-in for process.stdout (the edge): what the output hands it, in order. */
function recordingStream(): { stream: () => NodeJS.WriteStream; handed: Buffer[]; made: () => number } {
  const handed: Buffer[] = [];
  let made = 0;
  const stream = { write: (chunk: string | Uint8Array) => (handed.push(Buffer.from(chunk)), true), isTTY: false };
  return { stream: () => (made++, stream as unknown as NodeJS.WriteStream), handed, made: () => made };
}

describe('descriptorOutput', () => {
  it('writes every byte to the descriptor, in order, without making the stream', () => {
    const pipe = nonBlockingPipe();
    const rec = recordingStream();
    const out = descriptorOutput(pipe.write, rec.stream);
    out.write('first line\n');
    out.write('ünïcödé second\n');
    expect(drain(pipe.read).toString('utf8')).toBe('first line\nünïcödé second\n');
    expect(rec.made()).toBe(0);
  });

  it('hands what the descriptor cannot take now, and every later write, to the stream', () => {
    const pipe = nonBlockingPipe();
    const rec = recordingStream();
    const out = descriptorOutput(pipe.write, rec.stream);
    // More than a pipe holds (64 KiB on Linux), nobody reading yet.
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`).join('');
    out.write(big);
    out.write('after\n');
    const inPipe = drain(pipe.read);
    expect(inPipe.length).toBeGreaterThan(0);
    expect(inPipe.length).toBeLessThan(Buffer.byteLength(big));
    expect(Buffer.concat([inPipe, ...rec.handed]).toString('utf8')).toBe(`${big}after\n`);
    // Nothing reaches the descriptor once handed over, though the pipe has room again.
    out.write('later\n');
    expect(drain(pipe.read).length).toBe(0);
    expect(rec.handed.at(-1)!.toString()).toBe('later\n');
  });

  it('asks the stream whether it is a terminal only when asked', () => {
    const pipe = nonBlockingPipe();
    const rec = recordingStream();
    const out = descriptorOutput(pipe.write, rec.stream);
    expect(rec.made()).toBe(0);
    expect(out.isTTY).toBe(false);
    expect(rec.made()).toBe(1);
  });
});

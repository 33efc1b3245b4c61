// The CLI's output and environment from the process: its text written straight to file descriptors 1
// and 2, process.stdout and process.stderr made only when something asks for them.
import { writeSync } from 'node:fs';
import type { CliIO, Output } from './context.js';

/** The CLI's output (POSIX: descriptorOutput on 1 and 2), environment and working directory. */
export function processIO(): CliIO {
  if (process.platform === 'win32') return streamIO();
  // A stream is made only if something asks for it (stdio serving, --verbose, a prompt, isTTY).
  guardWhenMade('stdout');
  guardWhenMade('stderr');
  return {
    stdout: descriptorOutput(1, () => process.stdout),
    stderr: descriptorOutput(2, () => process.stderr),
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Windows: the process's streams, made at once (its console writes go through them). */
function streamIO(): CliIO {
  guard(process.stdout);
  guard(process.stderr);
  return {
    stdout: { write: (t) => void process.stdout.write(t), isTTY: process.stdout.isTTY === true },
    stderr: { write: (t) => void process.stderr.write(t), isTTY: process.stderr.isTTY === true },
    env: process.env,
    cwd: process.cwd(),
  };
}

/** A reader that goes away (`switchboard mcp tools | head`) is not an error worth a stack trace. */
function readerGone(): never {
  process.exit(process.exitCode ?? 0);
}

/** `stream`'s reader going away ends the run quietly, unless the command listens for its errors itself. */
function guard(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    // A command that handles its own stream errors (mcp-server's stdio transport shuts down and
    // exits 1 on a broken stdout) decides what happens.
    if (stream.listenerCount('error') > 1) return;
    if (err.code === 'EPIPE') readerGone();
    throw err;
  });
}

/** process[name], guarded when it is first made; making it loads net or tty and the streams. */
function guardWhenMade(name: 'stdout' | 'stderr'): void {
  const made = Object.getOwnPropertyDescriptor(process, name);
  if (!made?.get || !made.configurable) return guard(process[name]);
  const make = made.get;
  let stream: NodeJS.WriteStream | undefined;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: made.enumerable,
    get: () => {
      if (stream === undefined) {
        stream = make.call(process) as NodeJS.WriteStream;
        guard(stream);
      }
      return stream;
    },
  });
}

/**
 * The CLI's text, written straight to file descriptor `fd`: a command that only prints (`mcp tools
 * --no-wait`, `--version`) never makes process.stdout, whose pipe or terminal stream loads net, tty
 * and the streams (docs/performance.md, "Issue 37, twenty-third round"). Synchronous and in order, as
 * Node's own writes to files, pipes and terminals are on Linux. A descriptor left non-blocking by
 * whoever started us that cannot take more now (EAGAIN) hands the rest, and every write after it, to
 * the stream, which waits for the reader.
 */
export function descriptorOutput(fd: number, stream: () => NodeJS.WriteStream): Output {
  let handedOver = false;
  return {
    write(text) {
      if (handedOver) return void stream().write(text);
      const bytes = Buffer.from(text, 'utf8');
      let written = 0;
      try {
        while (written < bytes.length) written += writeSync(fd, bytes, written);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') readerGone();
        if (code !== 'EAGAIN') throw err;
        handedOver = true;
        stream().write(bytes.subarray(written));
      }
    },
    get isTTY() {
      return stream().isTTY === true;
    },
  };
}

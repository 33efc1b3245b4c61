// `switchboard serve --http` as a real child process (the built CLI): waits for its
// "listening on <url>" line, keeps its output, and stops it with SIGTERM (SIGKILL after a grace);
// and what an operator sees of a running server (its status page's live feed).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { BIN } from '../support/mcp-server-harness.js';
import { tempDir } from '../support/temp.js';
import { freePort } from '../support/free-port.mjs';

export interface ServeProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export async function spawnServe(args: string[], opts: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs?: number }): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: opts.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no "listening on" line within ${opts.timeoutMs ?? 30_000} ms; stderr: ${err}`)), opts.timeoutMs ?? 30_000);
    const onData = () => {
      const m = /listening on (\S+)/.exec(out);
      if (m) done(null, m[1]);
    };
    const onExit = (code: number | null) => done(new Error(`serve exited (${code}) before listening; stderr: ${err}`));
    function done(error: Error | null, found?: string): void {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else resolve(found!);
    }
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    onData();
  });
  return {
    url,
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        try {
          return await exited;
        } finally {
          clearTimeout(timer);
        }
      }
      return exited;
    },
  };
}

/**
 * Where a `serve --http` with [server_auth] will run: a fresh home with a `work` folder, and a free
 * loopback port chosen first (the audience its tokens name must be known before it starts).
 */
export async function servePlace(prefix: string): Promise<{ home: string; work: string; port: number; origin: string; mcpUrl: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const home = await tempDir(prefix);
  const work = path.join(home, 'work');
  await mkdir(work);
  return { home, work, port, origin, mcpUrl: `${origin}/mcp` };
}

/** The first frame of the status page's live feed at `url` (`<origin>/ops/events`): the sections it shows. */
export async function firstStatusFrame(url: string, headers: Record<string, string> = {}): Promise<string> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    while (!text.includes('\n\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    abort.abort();
  }
  return text;
}

// The programs in examples/ are type-checked against the built declarations (dist/api/*.d.ts, as a
// user importing 'switchboard' sees them) and run as a user runs them (`node examples/x.ts`, the
// package resolving to dist/ through its own `exports`), against real MCP servers from node_modules
// and the fake model. Needs `npm run build` first (`npm test` does it).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatTurn, startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { removeTree } from '../support/temp.js';
import { TSC } from '../support/typescript.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const examples = ['aggregate-servers.ts', 'agent-turn.ts', 'embed-gateway.ts'].map((f) => path.join('examples', f));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment of a user's shell, minus model credentials, with a fresh $SWITCHBOARD_HOME. */
function userEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OPENAI_|MODEL$)/.test(k)));
  return { ...env, SWITCHBOARD_HOME: home, ...extra };
}

describe('examples/', () => {
  let home: string;

  beforeAll(async () => {
    if (!existsSync(path.join(root, 'dist', 'api', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
    home = await mkdtemp(path.join(os.tmpdir(), 'sb-examples-'));
  });
  afterAll(async () => {
    await removeTree(home);
  });

  it('type-check against the built declarations', async () => {
    // Command-line files: tsconfig.json (and its `paths` to src/) is not used, so 'switchboard'
    // resolves through package.json `exports` to dist/api/*.d.ts.
    const flags = ['--ignoreConfig', '--noEmit', '--skipLibCheck', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', '--types', 'node'];
    const result = await run(process.execPath, [TSC, ...flags, ...examples], process.env, 120_000);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 130_000);

  it('aggregate-servers.ts lists both servers under catalog names and calls one', async () => {
    const result = await run(process.execPath, ['examples/aggregate-servers.ts'], userEnv(home));
    expect(result.stderr).toMatch(/everything: ready/);
    expect(result.stderr).toMatch(/files: ready/);
    expect(result.stdout).toMatch(/^\d+ tools from everything and files:$/m);
    expect(result.stdout).toContain('mcp__everything__echo  (everything: echo)');
    expect(result.stdout).toContain('mcp__files__read_text_file  (files: read_text_file)');
    expect(result.stdout).toContain('mcp__everything__echo ->\nEcho: hello from switchboard\n');
    expect(result.code).toBe(0);
  });

  describe('agent-turn.ts', () => {
    let model: FakeModelServer;
    beforeAll(async () => {
      model = await startFakeModelServer();
    });
    afterAll(async () => {
      await model.close();
    });

    it('runs one turn against an OpenAI-compatible endpoint named by environment variables', async () => {
      model.enqueue(chatTurn({ text: 'Hello from the fake model.' }));
      const env = userEnv(home, { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'sk-example-key', MODEL: 'example-model' });
      const result = await run(process.execPath, ['examples/agent-turn.ts', 'Greet me'], env);
      expect(result.stdout).toBe('Hello from the fake model.\n');
      expect(result.code).toBe(0);
      expect(model.requests).toHaveLength(1);
      const request = model.requests[0]!;
      expect(request.url).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe('Bearer sk-example-key');
      expect(request.body.model).toBe('example-model');
      expect(JSON.stringify(request.body.messages)).toContain('Greet me');
    });
  });

  it('embed-gateway.ts serves the gateway over HTTP in-process and calls a tool through it', async () => {
    const result = await run(process.execPath, ['examples/embed-gateway.ts'], userEnv(home));
    expect(result.stdout).toMatch(/^gateway listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
    expect(result.stdout).toMatch(/^\d+ tools, e\.g\. mcp__everything__/m);
    expect(result.stdout).toContain('The sum of 2 and 3 is 5.');
    expect(result.code).toBe(0);
  });
});

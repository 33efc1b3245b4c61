// Through `switchboard serve --transparent` (the built CLI, over stdio and over Streamable HTTP with a
// token), every tool of @modelcontextprotocol/server-everything returns what calling it directly
// returns; so do its tool list, resources, templates, prompts and completions. Both sides declare the
// same capabilities (sampling, form and URL elicitation, roots) and answer the same way.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, requireBuild } from '../support/mcp-server-harness.js';
import { spawnServe, type ServeProcess } from './serve-process.js';
import { tempDir, removeTree } from '../support/temp.js';

const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const TOKEN = 'gateway-test-token-0123456789';
const CALL = { timeout: 60_000 };

/** Arguments for every tool; anything that would leave the machine gets a local input. */
const ARGS: Record<string, Record<string, unknown>> = {
  echo: { message: 'hello gateway' },
  'get-annotated-message': { messageType: 'success', includeImage: true },
  'get-env': {},
  'get-resource-links': { count: 2 },
  'get-resource-reference': { resourceType: 'Text', resourceId: 2 },
  'get-structured-content': { location: 'Chicago' },
  'get-sum': { a: 2, b: 40 },
  'get-tiny-image': {},
  'gzip-file-as-resource': { name: 'hello.txt.gz', data: 'data:text/plain;base64,aGVsbG8gZ2F0ZXdheQ==', outputType: 'resource' },
  'toggle-simulated-logging': {},
  'toggle-subscriber-updates': {},
  'trigger-long-running-operation': { duration: 0.3, steps: 3 },
  'get-roots-list': {},
  'trigger-elicitation-request': {},
  'trigger-url-elicitation': { url: 'https://example.com/consent', elicitationId: 'fixed-elicitation-id' },
  'trigger-sampling-request': { prompt: 'say hi', maxTokens: 5 },
  'simulate-research-query': { topic: 'gateways' },
};
/** Output that depends on the process (its environment) or on fresh random ids: compared by shape. */
const BY_SHAPE = new Set(['get-env', 'trigger-url-elicitation']);

interface Outcome {
  result?: unknown;
  error?: { code?: unknown; message: string };
}

/** Wall-clock times in text (a resource "created at 10:25:09 PM") masked: two calls may straddle a second. */
function withoutClock(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\b\d{1,2}:\d{2}:\d{2}(\s?[AP]M)?\b/g, '<time>');
  if (Array.isArray(value)) return value.map(withoutClock);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutClock(v)]));
  return value;
}

function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'type' || k === 'mimeType' ? v : shape(v)]));
  return typeof value;
}

async function connect(transport: Transport, roots: string): Promise<Client> {
  const client = new Client({ name: 'parity-client', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: false } } });
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: roots, name: 'workspace' }] }));
  client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'hello from the test model' }, model: 'test-model' }));
  client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, progress: unknown[]): Promise<Outcome> {
  try {
    return { result: await client.callTool({ name, arguments: ARGS[name] }, { ...CALL, onprogress: (p) => progress.push(p) }) };
  } catch (err) {
    const e = err as { code?: unknown; message: string };
    return { error: { code: e.code, message: e.message } };
  }
}

describe.each(['stdio', 'http'] as const)('server-everything through `switchboard serve --transparent` over %s', (wire) => {
  let home: string;
  let work: string;
  let direct: Client;
  let gateway: Client;
  let serve: ServeProcess | undefined;

  beforeAll(async () => {
    requireBuild();
    home = await tempDir('sb-gw-everything-');
    work = path.join(home, 'work');
    await mkdir(work);
    await writeFile(path.join(home, 'config.toml'), `[mcp_servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n`);
    await writeFile(path.join(home, 'token'), `${TOKEN}\n`, { mode: 0o600 });
    const env = { PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_HOME: home };
    const roots = pathToFileURL(work).href;
    direct = await connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], env: { HOME: home }, cwd: work, stderr: 'ignore' }), roots);
    if (wire === 'stdio') {
      gateway = await connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--transparent'], env, cwd: work, stderr: 'ignore' }), roots);
    } else {
      serve = await spawnServe(['--http', '127.0.0.1:0', '--transparent', '--token-file', path.join(home, 'token')], { env, cwd: work });
      gateway = await connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }), roots);
    }
  }, 60_000);

  afterAll(async () => {
    await gateway?.close().catch(() => {});
    await direct?.close().catch(() => {});
    await serve?.stop();
    if (home) await removeTree(home);
  });

  it('lists the same tools with the same definitions', async () => {
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : 1);
    const ours = (await gateway.listTools()).tools.sort(byName);
    const theirs = (await direct.listTools()).tools.sort(byName);
    expect(ours).toEqual(theirs);
    expect(ours.map((t) => t.name).sort()).toEqual(Object.keys(ARGS).sort());
  });

  it.each(Object.keys(ARGS))('%s returns what it returns when called directly', async (name) => {
    const progressOurs: unknown[] = [];
    const progressTheirs: unknown[] = [];
    const [ours, theirs] = await Promise.all([call(gateway, name, progressOurs), call(direct, name, progressTheirs)]);
    if (BY_SHAPE.has(name)) expect(shape(ours)).toEqual(shape(theirs));
    else expect(withoutClock(ours)).toEqual(withoutClock(theirs));
    if (name === 'trigger-long-running-operation') {
      // Progress is relayed too; the SDK client may drop one that arrives in the same read as the result.
      expect(progressOurs.length).toBeGreaterThanOrEqual(2);
      expect(progressOurs[0]).toEqual(progressTheirs[0]);
    }
  });

  it('serves the same resources, templates and resource contents', async () => {
    const ours = await gateway.listResources();
    expect(ours).toEqual(await direct.listResources());
    expect(await gateway.listResourceTemplates()).toEqual(await direct.listResourceTemplates());
    for (const r of ours.resources.slice(0, 3)) expect(await gateway.readResource({ uri: r.uri })).toEqual(await direct.readResource({ uri: r.uri }));
    const dynamic = 'demo://resource/dynamic/text/7';
    // The dynamic resource says when it was made, to the second: two reads may straddle a second.
    const untimed = (read: { contents: unknown[] }) => JSON.stringify(read).replace(/created at [^"]*/, 'created at <time>');
    expect(untimed(await gateway.readResource({ uri: dynamic }))).toBe(untimed(await direct.readResource({ uri: dynamic })));
    expect(await gateway.subscribeResource({ uri: ours.resources[0]!.uri })).toEqual({});
  });

  it('serves the same prompts and completions', async () => {
    expect(await gateway.listPrompts()).toEqual(await direct.listPrompts());
    const args = { name: 'args-prompt', arguments: { city: 'Lisbon', state: 'none' } };
    expect(await gateway.getPrompt(args)).toEqual(await direct.getPrompt(args));
    const ref = { ref: { type: 'ref/prompt' as const, name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } };
    const completion = await gateway.complete(ref);
    expect(completion).toEqual(await direct.complete(ref));
    expect(completion.completion.values.length).toBeGreaterThan(0);
  });
});

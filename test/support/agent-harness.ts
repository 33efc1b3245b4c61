// Test harness for the agent: a temp $SWITCHBOARD_HOME, a config pointing at the fake model server,
// a ThreadManager, and helpers that read a thread's events until a turn ends.
import path from 'node:path';
import { buildConfig, type Config } from '../../src/config/index.js';
import { OpenAIModelClient, ThreadManager, type McpToolSource, type Thread, type Tool } from '../../src/core/index.js';
import { EventSchema, type Event, type EventMsg } from '../../src/protocol/index.js';
import { afterEach, beforeEach } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { tempDir, removeTree } from './temp.js';

export interface Harness {
  home: string;
  config: Config;
  manager: ThreadManager;
  cleanup(): Promise<void>;
}

export async function makeHarness(
  server: FakeModelServer,
  opts: { tools?: Tool[]; mcp?: McpToolSource; raw?: Record<string, unknown>; provider?: Record<string, unknown>; env?: NodeJS.ProcessEnv } = {},
): Promise<Harness> {
  const home = await tempDir('sb-agent-');
  const { config } = buildConfig(
    {
      model: 'mock-model',
      model_provider: 'mock',
      model_providers: {
        mock: { name: 'Mock', base_url: server.url, env_key: 'MOCK_KEY', request_max_retries: 2, stream_max_retries: 2, ...(opts.provider ?? {}) },
      },
      ...(opts.raw ?? {}),
    },
    { home, file: path.join(home, 'config.toml') },
  );
  const env = opts.env ?? { MOCK_KEY: 'sk-mock' };
  const manager = new ThreadManager({
    home,
    config,
    cwd: home,
    tools: opts.tools ?? [],
    mcp: opts.mcp ?? null,
    createModelClient: (provider) => new OpenAIModelClient(provider, { env, retryBaseDelayMs: 5 }),
  });
  return {
    home,
    config,
    manager,
    async cleanup() {
      await manager.shutdown();
      await removeTree(home);
    },
  };
}

/** What {@link agentTestBed} gives a test file. */
export interface AgentTestBed {
  /** This test's fake model server. */
  readonly server: FakeModelServer;
  /** A harness on this test's server, cleaned up after the test. */
  harness(opts?: Parameters<typeof makeHarness>[1]): Promise<Harness>;
}

/**
 * For a test file of agent turns: a fresh fake model server for every test, and every harness made
 * on it cleaned up (before the server closes) when the test ends.
 */
export function agentTestBed(): AgentTestBed {
  let server: FakeModelServer | undefined;
  const made: Harness[] = [];
  beforeEach(async () => {
    server = await startFakeModelServer();
  });
  afterEach(async () => {
    for (const h of made.splice(0)) await h.cleanup();
    await server?.close();
    server = undefined;
  });
  const current = (): FakeModelServer => {
    if (!server) throw new Error('the fake model server runs only inside a test');
    return server;
  };
  return {
    get server() {
      return current();
    },
    async harness(opts) {
      const h = await makeHarness(current(), opts);
      made.push(h);
      return h;
    },
  };
}

/** Reads a thread's events; every event is checked against the protocol schema. */
export class EventReader {
  readonly seen: Event[] = [];
  private readonly it: AsyncIterator<Event>;

  constructor(thread: Thread) {
    this.it = thread.events()[Symbol.asyncIterator]();
  }

  async next(timeoutMs = 20_000): Promise<Event> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no event within ${timeoutMs} ms; seen: ${this.seen.map((e) => e.msg.type).join(', ')}`)), timeoutMs);
    });
    try {
      const r = await Promise.race([this.it.next(), timeout]);
      if (r.done) throw new Error(`event stream ended; seen: ${this.seen.map((e) => e.msg.type).join(', ')}`);
      EventSchema.parse(r.value);
      this.seen.push(r.value);
      return r.value;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Read until an event of `type` (optionally matching `pred`); returns it. */
  async until<T extends EventMsg['type']>(type: T, pred: (msg: Extract<EventMsg, { type: T }>) => boolean = () => true): Promise<Extract<EventMsg, { type: T }>> {
    for (;;) {
      const ev = await this.next();
      if (ev.msg.type === type && pred(ev.msg as Extract<EventMsg, { type: T }>)) return ev.msg as Extract<EventMsg, { type: T }>;
    }
  }

  /** Read until the turn `turnId` ends; returns its closing event. */
  async turnEnd(turnId: string): Promise<Extract<EventMsg, { type: 'task_complete' | 'turn_aborted' }>> {
    for (;;) {
      const { msg } = await this.next();
      if ((msg.type === 'task_complete' || msg.type === 'turn_aborted') && msg.turn_id === turnId) return msg;
    }
  }

  types(): string[] {
    return this.seen.map((e) => e.msg.type);
  }
}

export const text = (t: string) => ({ type: 'user_input' as const, items: [{ type: 'text' as const, text: t }] });

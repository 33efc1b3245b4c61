// The agent with its threads in a real PostgreSQL: a thread started by one ThreadManager (one
// replica, its own pool) continues in another, with the whole conversation and one history.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIModelClient, ThreadManager } from '../../src/core/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { responsesTurn } from '../fixtures/fake-model-server.js';
import { agentTestBed, EventReader, text, type Harness } from '../support/agent-harness.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { isMissing } from '../support/system-tags.js';

const skip = isMissing('postgresql');
const bed = agentTestBed();
let pg: TestPostgres | undefined;
let dbs = 0;

beforeAll(async () => {
  if (!skip) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

type Item = Record<string, unknown>;

async function replica(h: Harness, url: string): Promise<{ manager: ThreadManager; store: Store }> {
  const store = await openStore({ home: h.home, settings: { postgres_url_env_var: 'SB_DB' }, env: { SB_DB: url } });
  const manager = new ThreadManager({
    home: h.home,
    threads: store.threads,
    config: h.config,
    createModelClient: (p) => new OpenAIModelClient(p, { env: { MOCK_KEY: 'k' }, retryBaseDelayMs: 5 }),
  });
  return { manager, store };
}

describe('agent threads in PostgreSQL', { tags: ['postgresql'] }, () => {
  it('a thread started on one replica continues on another, and nothing lands under $SWITCHBOARD_HOME', async () => {
    const h = await bed.harness();
    const url = await pg!.createDatabase(`agent_${++dbs}`);
    const a = await replica(h, url);
    const b = await replica(h, url);
    try {
      bed.server.enqueue(responsesTurn({ text: 'first answer' }), responsesTurn({ text: 'second answer' }));
      const thread = await a.manager.start({ approvalPolicy: 'never' });
      expect(thread.rolloutPath).toBe(`postgres:threads/${thread.id}`);
      const e1 = new EventReader(thread);
      await e1.turnEnd(await thread.submit(text('first question')));
      await thread.shutdown();

      const resumed = await b.manager.resume(thread.id);
      expect(resumed.settings.approvalPolicy).toBe('never');
      const e2 = new EventReader(resumed);
      expect((await e2.next()).msg).toMatchObject({ type: 'session_configured', session_id: thread.id, history_entry_count: 2, rollout_path: thread.rolloutPath });
      expect((await e2.turnEnd(await resumed.submit(text('second question')))).type).toBe('task_complete');
      const input = bed.server.requests[1]!.body.input as Item[];
      const convo = input.filter((i) => i.role !== 'developer').map((i) => JSON.stringify(i.content));
      expect(convo).toEqual([expect.stringContaining('first question'), expect.stringContaining('first answer'), expect.stringContaining('second question')]);
      await resumed.shutdown();

      const stored = await a.store.threads.load(thread.id);
      const lines = stored!.text.trim().split('\n').map((l) => JSON.parse(l) as Item);
      expect(lines.filter((l) => l.type === 'session_meta')).toHaveLength(1);
      expect(lines.filter((l) => l.type === 'event_msg' && (l.payload as Item).type === 'task_complete')).toHaveLength(2);
      expect(existsSync(path.join(h.home, 'sessions'))).toBe(false);
      await expect(b.manager.resume('0190abcd-0000-7000-8000-000000000000')).rejects.toThrow(/no saved thread 0190abcd-0000-7000-8000-000000000000 in the PostgreSQL store \(\$SB_DB\)/);
    } finally {
      await a.manager.shutdown();
      await b.manager.shutdown();
      await a.store.close();
      await b.store.close();
    }
  });
});

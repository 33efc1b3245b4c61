// Store benchmarks (issue 15): how many store operations one agent turn costs (as `codex-reply`
// runs it on a replica: lease, load, appends, release) and the p50 of each operation, PostgreSQL (a
// throwaway server on loopback, fsync off as in the cluster) against the file store as baseline.
import { buildConfig } from '../src/config/index.js';
import { OpenAIModelClient, ThreadManager } from '../src/core/index.js';
import { fileStore, openStore, type Store, type ThreadLease, type ThreadStore } from '../src/store/index.js';
import { responsesTurn, startFakeModelServer } from '../test/fixtures/fake-model-server.js';
import { startPostgres } from '../test/support/postgres.js';
import { removeTree, tempDir } from '../test/support/temp.js';
import { median, row, type BenchContext, type BenchRow } from './bench-types.js';

const ROUNDS = 200;

/** A ThreadStore and leases that count every call that reaches the backend. */
function counting(store: Store): { store: Store; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const hit = (op: string) => counts.set(op, (counts.get(op) ?? 0) + 1);
  const threads: ThreadStore = {
    describe: () => store.threads.describe(),
    list: (o) => (hit('list'), store.threads.list(o)),
    create: async (id, at, first) => {
      hit('create');
      const log = await store.threads.create(id, at, first);
      return { location: log.location, append: (r) => (hit('append'), log.append(r)), close: () => log.close() };
    },
    load: async (id) => {
      hit('load');
      const t = await store.threads.load(id);
      if (!t) return t;
      return {
        ...t,
        reopen: async (v) => {
          const log = await t.reopen(v);
          return { location: log.location, append: (r) => (hit('append'), log.append(r)), close: () => log.close() };
        },
      };
    },
  };
  const leases = {
    shared: store.leases.shared,
    isBusy: (id: string) => store.leases.isBusy(id),
    tryAcquire: async (id: string): Promise<ThreadLease | null> => {
      hit('lease');
      const lease = await store.leases.tryAcquire(id);
      return lease && { lost: lease.lost, release: () => (hit('release'), lease.release()) };
    },
  };
  return { store: { ...store, threads, leases }, counts };
}

async function timeIt(rounds: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  return median(ms);
}

const records = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'agent_message', message: `line ${i} `.repeat(20) } }));

async function operations(store: Store): Promise<Record<string, number>> {
  const id = (i: number) => `0190abcd-0000-7000-8000-${String(i).padStart(12, '0')}`;
  const create = await timeIt(ROUNDS, (i) => store.threads.create(id(i), new Date(), records(1)[0]!).then((l) => l.close()));
  const log = await store.threads.create(id(ROUNDS + 1), new Date(), records(1)[0]!);
  const append = await timeIt(ROUNDS, () => log.append(records(8)));
  const load = await timeIt(50, () => store.threads.load(id(ROUNDS + 1)));
  await log.close();
  const lease = await timeIt(ROUNDS, async (i) => (await store.leases.tryAcquire(id(i)))!.release());
  return { create, append, load, lease };
}

/** One `codex-reply` as a replica with a shared store runs it: lease, resume from the store, the turn, close, release. */
async function storeOpsPerTurn(store: Store, home: string): Promise<{ counts: Map<string, number>; turns: number }> {
  const model = await startFakeModelServer();
  try {
    const { config } = buildConfig(
      { model: 'm', model_provider: 'mock', model_providers: { mock: { name: 'Mock', base_url: model.url, env_key: 'K', request_max_retries: 0, stream_max_retries: 0 } } },
      { home, file: `${home}/config.toml` },
    );
    const wrapped = counting(store);
    const manager = new ThreadManager({ home, config, threads: wrapped.store.threads, createModelClient: (p) => new OpenAIModelClient(p, { env: { K: 'k' } }) });
    const turns = 10;
    model.enqueue(...Array.from({ length: turns + 1 }, () => responsesTurn({ text: 'an answer of some length' })));
    const first = await manager.start();
    const threadId = first.id;
    await runTurn(first);
    await first.shutdown();
    wrapped.counts.clear();
    for (let i = 0; i < turns; i += 1) {
      const lease = await wrapped.store.leases.tryAcquire(threadId);
      const thread = await manager.resume(threadId);
      await runTurn(thread);
      await thread.shutdown();
      await lease!.release();
    }
    await manager.shutdown();
    return { counts: wrapped.counts, turns };
  } finally {
    await model.close();
  }
}

async function runTurn(thread: Awaited<ReturnType<ThreadManager['start']>>): Promise<void> {
  const events = thread.events()[Symbol.asyncIterator]();
  const turnId = await thread.submit({ type: 'user_input', items: [{ type: 'text', text: 'go' }] });
  for (;;) {
    const { value, done } = await events.next();
    if (done) throw new Error('thread ended mid-turn');
    if ((value.msg.type === 'task_complete' || value.msg.type === 'turn_aborted') && value.msg.turn_id === turnId) break;
  }
  await events.return?.();
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const home = await tempDir('sb-bench-store-');
  const pg = await startPostgres();
  const files = fileStore(home);
  const shared = await openStore({ home, settings: { postgres_url_env_var: 'DB' }, env: { DB: pg.url } });
  try {
    ctx.log('store operations: files');
    const f = await operations(files);
    ctx.log('store operations: postgres');
    const p = await operations(shared);
    ctx.log('store operations per turn');
    const perTurnFiles = await storeOpsPerTurn(files, home);
    const perTurnPg = await storeOpsPerTurn(shared, home);
    const total = (c: Map<string, number>) => [...c.values()].reduce((a, b) => a + b, 0);
    const describe = (c: Map<string, number>, turns: number) => [...c].map(([k, v]) => `${k} ${v / turns}`).join(', ');
    return [
      row('store operations per turn (postgres)', total(perTurnPg.counts) / perTurnPg.turns, 'ops', {
        baseline: total(perTurnFiles.counts) / perTurnFiles.turns,
        notes: `${describe(perTurnPg.counts, perTurnPg.turns)}; files: ${describe(perTurnFiles.counts, perTurnFiles.turns)}`,
      }),
      row('create thread p50', p.create!, 'ms', { baseline: f.create!, notes: 'postgres vs files (fsync on for files, off for the throwaway postgres)' }),
      row('append 8 records p50', p.append!, 'ms', { baseline: f.append! }),
      row('load a thread p50', p.load!, 'ms', { baseline: f.load!, notes: `${ROUNDS * 8 + 1} records` }),
      row('lease + release p50', p.lease!, 'ms', { baseline: f.lease!, notes: 'files: in-process only' }),
    ];
  } finally {
    await shared.close();
    await pg.stop();
    await removeTree(home);
  }
}

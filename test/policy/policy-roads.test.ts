// Every road the products register has its row in the policy table, and every row names a road that
// exists: the handler tables are read from the products themselves (built, never started), with the
// task methods the host adds for a product with tasks, and the notifications they take. A handler
// added later without a row fails here. Then the whole matrix is printed: checked cells, and why the
// others do not apply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexProduct } from '../../src/agent-server/index.js';
import { GatewayPool, gatewayProduct } from '../../src/gateway/index.js';
import { Downstream } from '../../src/gateway/downstream.js';
import { toolSearch } from '../../src/gateway/tool-search-handlers.js';
import type { Product } from '../../src/mcp-host/index.js';
import { TaskIds } from '../../src/mcp-host/flows/task-ids.js';
import { handlerTables } from '../../src/mcp-host/serve/build-server.js';
import { HostTasks } from '../../src/mcp-host/serve/host-tasks.js';
import { nullLogger } from '../../src/util/index.js';
import { startFakeModelServer, type FakeModelServer } from '../fixtures/fake-model-server.js';
import { inProcessAgent, SERVER_OPTIONS, type InProcess } from '../support/in-process-server.js';
import { roads, SLICES, summary, SURFACE_ROWS } from './policy-matrix.js';
import type { Era, Row } from './policy-table.js';

const ERAS: readonly Era[] = ['legacy', 'modern'];

/** `method era` for each road a product registers: its handlers (with the host's task methods), its notifications, and a task-augmented tools/call when it has tasks. */
function registered(product: Product): string[] {
  const tables = handlerTables(product, new HostTasks(new TaskIds(undefined), nullLogger));
  const out: string[] = [];
  for (const era of ERAS) {
    for (const [method] of tables[era]) out.push(`request ${method} ${era}`);
    for (const method of Object.keys(product.notifications ?? {})) out.push(`notification ${method} ${era}`);
    if (product.tasks) out.push(`task-call tools/call ${era}`);
  }
  return out.sort();
}

/** The same, as the table's rows say (host roads aside: no product registers them). */
function tabled(rows: readonly Row[]): string[] {
  const out = new Set<string>();
  for (const row of rows) if (row.kind !== 'host' && row.method) for (const era of row.eras) out.add(`${row.kind} ${row.method} ${era}`);
  return [...out].sort();
}

function gatewayPool(toolSearch: boolean): GatewayPool {
  const createManager = () => {
    throw new Error('reading the handler table starts no upstream');
  };
  return new GatewayPool({ name: 'roads', title: 'roads', version: '0', mode: { kind: 'aggregate' }, ...(toolSearch ? { toolSearch: { alwaysLoaded: [] } } : {}) }, { logger: nullLogger, createManager });
}

describe('the policy table names every road the products register', () => {
  let model: FakeModelServer;
  let agent: InProcess;
  beforeAll(async () => {
    model = await startFakeModelServer();
    agent = await inProcessAgent(model);
  });
  afterAll(async () => {
    await agent?.cleanup();
    await model?.close();
  });

  it('the gateway (serve, serve --transparent)', () => {
    const product = gatewayProduct(gatewayPool(false));
    const gatewayRows = SURFACE_ROWS.serve;
    expect(tabled(gatewayRows)).toEqual(registered(product));
    expect(tabled(SURFACE_ROWS.transparent)).toEqual(registered(product));
  });

  it('serve --tool-search: its own handlers have rows of their own', () => {
    const pool = gatewayPool(true);
    const own = toolSearch(pool, new Downstream(pool), { alwaysLoaded: [] }).handlers;
    const expected = ERAS.flatMap((era) => Object.entries(own).filter(([, h]) => h.era === undefined || h.era === era).map(([m]) => `request ${m} ${era}`));
    // Tasks are the gateway's: a task-augmented call goes through the same table.
    expected.push(...ERAS.map((era) => `task-call tools/call ${era}`));
    expect(tabled(SURFACE_ROWS['tool-search'])).toEqual(expected.sort());
    // The rest of its table is the gateway's own, whose rows are serve's.
    const rest = registered(gatewayProduct(pool)).filter((r) => !expected.includes(r));
    expect(rest.every((r) => tabled(SURFACE_ROWS.serve).includes(r))).toBe(true);
  });

  it('the agent server (mcp-server)', () => {
    const product = codexProduct(agent.agent, SERVER_OPTIONS, nullLogger);
    expect(tabled(SURFACE_ROWS['mcp-server'])).toEqual(registered(product));
  });

  it('the test files run every road, each once', () => {
    const run = Object.values(SLICES).flatMap((slice) => roads(slice).map((r) => r.id));
    expect(run.sort()).toEqual(roads().map((r) => r.id).sort());
  });

  it('prints the matrix', () => {
    const all = roads();
    const text = summary(all);
    console.log(text);
    expect(all.length).toBeGreaterThan(0);
    // Every cell either says what holds or why it does not apply.
    for (const road of all) for (const cell of Object.values(road.cells)) expect('holds' in cell ? cell.holds : cell.na).not.toBe('');
  });
});

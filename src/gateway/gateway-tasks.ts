// The gateway's tasks, kept in the host's table: a tools/call whose client asks for a task goes to
// its upstream task-augmented when that upstream offers tasks (for a 2026-07-28 client: when the tool
// supports them), and the upstream's task becomes the task's work. What the upstream says about its
// task (status notifications, questions naming it) reaches that task's client, whoever else calls.
import { type CallToolRequestParams, type CallToolResult, type InputRequest } from '@modelcontextprotocol/server';
import type { TaskStatusParams } from '../mcp-client/index.js';
import type { ProductTasks, Req, TaskContext, TaskState, TaskWork } from '../mcp-host/index.js';
import type { Downstream } from './downstream.js';
import type { GatewayPool } from './gateway-pool.js';
import { reach, resolveCall } from './gateway-handlers.js';
import type { TaskCall, ToolSearch } from './tool-search-handlers.js';
import { upstreamCaller } from './upstream-identity.js';
import type { RelayClient, TaskAsker } from './relay.js';
import { UpstreamTaskWork } from './upstream-task-work.js';
import { relayTaskCall, upstreamTaskParams, withoutRelatedTask } from './upstream-tasks.js';

/** How long a task is kept when its upstream gave it no ttl. */
const DEFAULT_KEEP_MS = 24 * 60 * 60 * 1000;

interface Held {
  context: TaskContext;
  /** The 2025 client that created it (its log messages go there); none for a 2026-07-28 client's. */
  client: RelayClient | undefined;
}

export class GatewayTasks implements ProductTasks {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly pool: GatewayPool,
    private readonly downstream: Downstream,
    /** --tool-search: call_tool runs its target as the task. */
    private readonly search?: ToolSearch,
  ) {}

  /** A tool whose upstream offers tasks and that supports nothing else (an unknown name is for the call to answer). */
  async runsOnlyAsTask(asked: CallToolRequestParams, req: Req): Promise<boolean> {
    const call = await this.taskCall(asked, req).catch(() => undefined);
    if (!call || !('params' in call)) return false;
    const route = await resolveCall(this.pool, req, call.params.name).catch(() => undefined);
    if (!route) return false;
    const tasks = await this.pool.upstreams().manager.toolTasks(route.server, route.name, { signal: req.signal, ...reach(req) });
    return tasks.offered && tasks.support === 'required';
  }

  async start(asked: CallToolRequestParams, req: Req, context: TaskContext): Promise<TaskWork | CallToolResult | undefined> {
    const call = await this.taskCall(asked, req);
    if ('atOnce' in call) return undefined;
    if ('result' in call) return call.result;
    const { params } = call;
    const route = await resolveCall(this.pool, req, params.name);
    const { manager } = this.pool.upstreams();
    // Connected first: its live tool list (not a startup snapshot) then says what the tool supports.
    const tasks = await manager.toolTasks(route.server, route.name, { signal: req.signal, ...reach(req) });
    if (!tasks.offered) return undefined;
    if (req.era === 'modern' && tasks.support !== 'optional' && tasks.support !== 'required') return undefined;
    const client = this.downstream.of(req);
    const task = req.era === 'legacy' ? (params.task as Record<string, unknown>) : {};
    const answer = await relayTaskCall(this.pool, route, client, req, upstreamTaskParams(params, task));
    const upstream = answer.task as Record<string, unknown> | undefined;
    // The upstream ran it at once (or the call failed): that is the answer.
    if (typeof upstream !== 'object' || upstream === null || typeof upstream.taskId !== 'string') return answer as CallToolResult;
    // Keyed by caller only where each caller has its own connection: a shared one's notifications name none.
    const caller = manager.actsAsCaller(route.server) ? upstreamCaller(req.caller) : undefined;
    const key = keyOf(route.server, upstream.taskId, caller?.key);
    this.held.set(key, { context, client: req.era === 'legacy' ? client : undefined });
    const initial = withoutRelatedTask(upstream) as TaskState;
    return new UpstreamTaskWork(manager, { server: route.server, caller }, upstream.taskId, initial, keepMsOf(upstream.ttl), context, () => this.held.delete(key), this.pool.logger);
  }

  private taskCall(params: CallToolRequestParams, req: Req): Promise<TaskCall> {
    return this.search ? this.search.taskCall(params, req) : Promise.resolve({ params });
  }

  /** notifications/tasks/status from `server` (from `caller`'s own connection to it), for the task's own client. */
  status(server: string, params: TaskStatusParams, caller?: string): void {
    this.held.get(keyOf(server, params.taskId, caller))?.context.changed(withoutRelatedTask(params));
  }

  /** Who answers (and hears) what `server` (`caller`'s connection to it) says about its task `upstreamId`, when the gateway holds it. */
  asker(server: string, upstreamId: string, caller?: string): { asker: TaskAsker; client: RelayClient | undefined } | undefined {
    const held = this.held.get(keyOf(server, upstreamId, caller));
    if (!held) return undefined;
    return {
      client: held.client,
      asker: (request, options) => {
        const params = (request as { params?: Record<string, unknown> }).params;
        return held.context.ask({ ...request, ...(params ? { params: withoutRelatedTask(params) } : {}) } as InputRequest, options);
      },
    };
  }
}

/** A task of `server`, as its connection named it: on a caller's own connection, only that caller's (task ids are per connection). */
function keyOf(server: string, upstreamId: string, caller: string | undefined): string {
  return `${server}\u0000${upstreamId}\u0000${caller ?? ''}`;
}

/** The upstream's ttl bounds how long the gateway keeps its task (the gateway forgets every task, so never null). */
function keepMsOf(ttl: unknown): number {
  return typeof ttl === 'number' && ttl > 0 ? Math.max(1, Math.round(ttl)) : DEFAULT_KEEP_MS;
}

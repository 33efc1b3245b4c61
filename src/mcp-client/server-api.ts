// Resources, prompts, completion and logging: the McpClient operations beyond tools. Each one checks
// the server advertised the feature (some servers never answer what they do not offer) and runs
// through the one operation wrapper. On 2026-07-28 the lists come through the SDK's response cache
// (their `ttlMs` / `cacheScope`; list_changed evicts) and subscriptions ride the listen stream.
import type {
  CacheMode,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
} from '@modelcontextprotocol/client';
import type { Connection } from './connection.js';
import { McpClientError } from './errors.js';
import type { AttemptOptions, OperationSpec } from './operation.js';
import { checkItemLimit, collectPages } from './pagination.js';
import { PassThroughResult, type TaskMethod } from './task-requests.js';
import { runInputRounds, type InputLeg } from './input-rounds.js';
import type { InputRequestOptions, RequestOptions } from './types.js';
import type { TraceContext } from '../util/telemetry/index.js';

/** One attempt of an operation on a connection; `trace`: the request span's context, for a `_meta` that carries it on. */
export type OperationFn<T> = (c: Connection, a: AttemptOptions, trace: TraceContext | undefined) => Promise<T>;

export abstract class McpServerApi {
  /** Run one operation through the wrapper (McpClient owns connections and recovery). */
  protected abstract run<T>(label: string, options: RequestOptions & Pick<OperationSpec, 'onProgress' | 'progress'>, fn: OperationFn<T>): Promise<T>;
  abstract get capabilities(): ServerCapabilities | undefined;
  /** Resources subscribed to (either era); a 2026-07-28 server's listen stream asks for their updates. */
  protected readonly subscribedUris = new Set<string>();
  /** Lists whose changes may have been missed (the listen stream was down): read past the cache once. */
  protected readonly staleLists = new Set<string>();

  /** Every resource; [] without asking when the server does not offer resources. */
  async listResources(options: RequestOptions = {}): Promise<Resource[]> {
    if (!this.capabilities?.resources) return [];
    return this.run('resources/list', options, async (c, a) =>
      isModern(c)
        ? checkItemLimit('resources/list', (await c.client.listResources(undefined, { ...a, cacheMode: this.cacheMode('resources/list') })).resources)
        : collectPages('resources/list', async (cursor) => {
        const page = await c.client.request({ method: 'resources/list', params: cursor === undefined ? {} : { cursor } }, a);
        return { items: page.resources, nextCursor: page.nextCursor };
      }),
    );
  }

  async listResourceTemplates(options: RequestOptions = {}): Promise<ResourceTemplateType[]> {
    if (!this.capabilities?.resources) return [];
    return this.run('resources/templates/list', options, async (c, a) =>
      isModern(c)
        ? checkItemLimit('resources/templates/list', (await c.client.listResourceTemplates(undefined, { ...a, cacheMode: this.cacheMode('resources/templates/list') })).resourceTemplates)
        : collectPages('resources/templates/list', async (cursor) => {
        const page = await c.client.request({ method: 'resources/templates/list', params: cursor === undefined ? {} : { cursor } }, a);
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      }),
    );
  }

  async readResource(uri: string, options: InputRequestOptions = {}): Promise<ReadResourceResult> {
    this.require('resources', 'resources/read');
    return this.run('resources/read', options, (c, a) =>
      withInputs(c, 'resources/read', { uri }, a, options, (params, o) => c.client.request({ method: 'resources/read', params: params as { uri: string } }, o)),
    );
  }

  async subscribe(uri: string, options: RequestOptions = {}): Promise<void> {
    this.require('resources', 'resources/subscribe');
    if (!this.capabilities?.resources?.subscribe) throw unsupported('resource subscriptions', 'resources/subscribe');
    await this.run('resources/subscribe', options, async (c, a) => {
      // 2026-07-28 has no resources/subscribe: the listen stream names the resources instead.
      if (!c.listen) await c.client.request({ method: 'resources/subscribe', params: { uri } }, a);
      this.subscribedUris.add(uri);
      await c.listen?.reopen();
    });
  }

  /** Resources subscribed to now: a client holding any is not idle (ManagedServer's stop_after_idle_sec). */
  get subscriptions(): number {
    return this.subscribedUris.size;
  }

  async unsubscribe(uri: string, options: RequestOptions = {}): Promise<void> {
    this.require('resources', 'resources/unsubscribe');
    await this.run('resources/unsubscribe', options, async (c, a) => {
      if (!c.listen) {
        await c.client.request({ method: 'resources/unsubscribe', params: { uri } }, a);
        this.subscribedUris.delete(uri);
        return;
      }
      if (this.subscribedUris.delete(uri)) await c.listen.reopen();
    });
  }

  /** Every prompt; [] without asking when the server does not offer prompts. */
  async listPrompts(options: RequestOptions = {}): Promise<Prompt[]> {
    if (!this.capabilities?.prompts) return [];
    return this.run('prompts/list', options, async (c, a) =>
      isModern(c)
        ? checkItemLimit('prompts/list', (await c.client.listPrompts(undefined, { ...a, cacheMode: this.cacheMode('prompts/list') })).prompts)
        : collectPages('prompts/list', async (cursor) => {
        const page = await c.client.request({ method: 'prompts/list', params: cursor === undefined ? {} : { cursor } }, a);
        return { items: page.prompts, nextCursor: page.nextCursor };
      }),
    );
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: InputRequestOptions = {}): Promise<GetPromptResult> {
    this.require('prompts', 'prompts/get');
    return this.run('prompts/get', options, (c, a) =>
      withInputs(c, 'prompts/get', { name, arguments: args }, a, options, (params, o) => c.client.request({ method: 'prompts/get', params: params as { name: string } }, o)),
    );
  }

  async complete(params: CompleteRequest['params'], options: RequestOptions = {}): Promise<CompleteResult> {
    this.require('completions', 'completion/complete');
    return this.run('completion/complete', options, (c, a) => c.client.request({ method: 'completion/complete', params }, a));
  }

  async setLoggingLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    this.require('logging', 'logging/setLevel');
    await this.run('logging/setLevel', options, (c, a) => c.client.request({ method: 'logging/setLevel', params: { level } }, a));
  }

  /** notifications/roots/list_changed: the host's roots changed (only with a `listRoots` handler). */
  async sendRootsListChanged(options: RequestOptions = {}): Promise<void> {
    await this.run('notifications/roots/list_changed', options, (c) => c.client.sendRootsListChanged());
  }

  /**
   * A 2025-11-25 task-augmented tools/call (`params.task`), answered as the server answers it: a
   * CreateTaskResult (`{task}`) or, when it ran the call at once, its result. Never polled here.
   */
  async callToolAsTask(
    params: { name: string; arguments?: Record<string, unknown>; task: Record<string, unknown>; _meta?: Record<string, unknown> },
    options: RequestOptions & Pick<OperationSpec, 'onProgress'> = {},
  ): Promise<PassThroughResult> {
    return this.run('tools/call', { ...options, progress: true }, (c, a) => c.client.request({ method: 'tools/call', params }, PassThroughResult, a));
  }

  /** tasks/get, tasks/result, tasks/list or tasks/cancel, the server's answer unchanged. */
  async taskRequest(method: TaskMethod, params: Record<string, unknown>, options: RequestOptions = {}): Promise<PassThroughResult> {
    return this.run(method, options, (c, a) => c.client.request({ method, params } as Parameters<typeof c.client.request>[0], PassThroughResult, a));
  }

  async ping(options: RequestOptions = {}): Promise<void> {
    await this.run('ping', options, (c, a) => c.client.request({ method: 'ping' }, a));
  }

  /** The SDK cache serves a list still fresh by its `ttlMs`, unless changes may have been missed. */
  private cacheMode(method: string): CacheMode {
    return this.staleLists.delete(method) ? 'refresh' : 'use';
  }

  private require(capability: 'resources' | 'prompts' | 'completions' | 'logging', method: string): void {
    const caps = this.capabilities;
    // Before connect the operation itself reports "not initialized"; only a known absence is refused here.
    if (caps && !caps[capability]) throw unsupported(capability, method);
  }
}

/** The request, its input-required rounds answered by the caller's own answerers when it brought them (2026-07-28). */
function withInputs<R>(c: Connection, method: string, params: Record<string, unknown>, a: AttemptOptions, options: InputRequestOptions, leg: InputLeg<R>): Promise<R> {
  const { inputs } = options;
  if (inputs && isModern(c)) return runInputRounds(c.client, method, params, a, inputs, leg);
  return leg(params, a) as Promise<R>;
}

function isModern(c: Connection): boolean {
  return c.client.getProtocolEra() === 'modern';
}

function unsupported(what: string, method: string): McpClientError {
  return new McpClientError('protocol', `MCP server does not support ${what} (required for ${method})`);
}

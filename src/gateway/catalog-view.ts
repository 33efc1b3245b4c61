// The names the gateway's client sees, and the way back to (server, raw name). Aggregating: tools under
// the manager's model-visible names, prompts under `<server>__<prompt>`. Transparent (one upstream):
// raw names both ways, so the gateway is a pure proxy.
import type { Prompt, Tool } from '@modelcontextprotocol/server';
import { sanitizeNamePart, type McpConnectionManager } from '../mcp/index.js';
import type { UpstreamCaller } from '../mcp-client/index.js';

export type GatewayMode = { kind: 'aggregate' } | { kind: 'transparent'; server: string };

export interface Route {
  server: string;
  /** The raw name on that server. */
  name: string;
}

export class CatalogView {
  private prompts: Map<string, Route> | undefined;
  private initialStartupDone = false;

  constructor(
    private readonly manager: McpConnectionManager,
    readonly mode: GatewayMode,
  ) {}

  /**
   * Tools now: live lists, and startup snapshots of servers still starting. During the first
   * startup it waits only for servers that have no snapshot yet, so a first list is not empty by
   * accident; after that it never waits (a server retrying after a failure is simply absent).
   */
  async listTools(signal: AbortSignal, caller?: UpstreamCaller): Promise<Tool[]> {
    const entries = await this.manager.listAllTools({ wait: this.initialStartupDone ? 'none' : 'unsnapshotted', signal, ...(caller ? { caller } : {}) });
    const transparent = this.mode.kind === 'transparent';
    return entries.map((e) => (transparent ? (e.definition as Tool) : ({ ...e.definition, name: e.name } as Tool)));
  }

  /** Where a tools/call goes (in `caller`'s own catalog, for servers that act as each caller); undefined for a name no server offers. */
  async resolveTool(name: string, signal: AbortSignal, caller?: UpstreamCaller): Promise<Route | undefined> {
    // A pure proxy lets the upstream judge the name (and waits for it if it is still starting).
    if (this.mode.kind === 'transparent') return { server: this.mode.server, name };
    const entry = this.manager.lookup(name, caller) ?? (await this.manager.listAllTools({ wait: 'unsnapshotted', signal, ...(caller ? { caller } : {}) }), this.manager.lookup(name, caller));
    if (entry) return { server: entry.server, name: entry.tool };
    // A server this caller could not reach yet (a login to make): the call says why, or asks for the login.
    const unreached = caller ? this.manager.unreachedCallerTool(name, caller) : undefined;
    return unreached ? { server: unreached.server, name: unreached.tool } : undefined;
  }

  /** Every server's first startup has settled (ready, failed or cancelled). */
  startupComplete(): void {
    this.initialStartupDone = true;
  }

  closestTools(name: string): string[] {
    return this.manager.closestToolNames(name);
  }

  /** A failed server whose tools `name` would be among (by its `mcp__<server>__` prefix), with why. */
  unavailableServer(name: string): { server: string; error: string } | undefined {
    const down = this.manager.status().find((s) => s.state === 'failed' && name.startsWith(`mcp__${sanitizeNamePart(s.name)}__`));
    return down ? { server: down.name, error: down.error ?? 'failed' } : undefined;
  }

  async listPrompts(signal: AbortSignal, caller?: UpstreamCaller): Promise<Prompt[]> {
    const reach = { signal, ...(caller ? { caller } : {}) };
    if (this.mode.kind === 'transparent') return (await this.manager.listPrompts(this.mode.server, reach)) as Prompt[];
    const all = await this.manager.listAllPrompts(reach);
    this.prompts = new Map(all.map((q) => [q.name, { server: q.server, name: q.prompt.name }]));
    return all.map((q) => ({ ...q.prompt, name: q.name }) as Prompt);
  }


  async resolvePrompt(name: string, signal: AbortSignal, caller?: UpstreamCaller): Promise<Route | undefined> {
    if (this.mode.kind === 'transparent') return { server: this.mode.server, name };
    const known = this.prompts?.get(name);
    if (known) return known;
    await this.listPrompts(signal, caller);
    return this.prompts?.get(name);
  }

  /** Where a listed prompt goes, without listing again (undefined before the first list). */
  promptRoute(name: string): Route | undefined {
    if (this.mode.kind === 'transparent') return { server: this.mode.server, name };
    return this.prompts?.get(name);
  }

  /** Prompts changed somewhere (a list_changed, a server that started or failed). */
  invalidatePrompts(): void {
    this.prompts = undefined;
  }
}

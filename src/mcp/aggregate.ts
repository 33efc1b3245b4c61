// Resources, resource templates and prompts across servers, each item attributed to its server.
// Servers that failed, or do not offer the feature, are left out; one server's error never fails the rest.
import type { Prompt, Resource, ResourceTemplateType } from '@modelcontextprotocol/client';
import type { McpClient } from '../mcp-client/index.js';
import { errorMessage, type Logger } from '../util/index.js';
import { assignToolNames } from './tool-naming.js';

export interface AggregateDeps {
  /** Ready servers, in config order, with their clients (failed servers excluded). */
  readyClients(signal?: AbortSignal): Promise<{ server: string; client: McpClient }[]>;
  logger: Logger;
}

async function collect<T>(
  deps: AggregateDeps,
  what: string,
  fetch: (client: McpClient, signal?: AbortSignal) => Promise<T[]>,
  signal?: AbortSignal,
): Promise<Map<string, T[]>> {
  const clients = await deps.readyClients(signal);
  const results = await Promise.all(
    clients.map(async ({ server, client }) => {
      try {
        return [server, await fetch(client, signal)] as const;
      } catch (err) {
        deps.logger.warn(`Failed to list ${what} for MCP server '${server}': ${errorMessage(err)}`);
        return undefined;
      }
    }),
  );
  const out = new Map<string, T[]>();
  for (const r of results) if (r) out.set(r[0], r[1]);
  return out;
}

export function listAllResources(deps: AggregateDeps, signal?: AbortSignal): Promise<Map<string, Resource[]>> {
  return collect(deps, 'resources', (c, s) => c.listResources({ signal: s }), signal);
}

export function listAllResourceTemplates(deps: AggregateDeps, signal?: AbortSignal): Promise<Map<string, ResourceTemplateType[]>> {
  return collect(deps, 'resource templates', (c, s) => c.listResourceTemplates({ signal: s }), signal);
}

export interface QualifiedPrompt {
  /** `<server>__<prompt>`, sanitised and collision-free like tool names (no `mcp__` prefix). */
  name: string;
  server: string;
  prompt: Prompt;
}

/** Every server's prompts under qualified names. */
export async function listAllPrompts(deps: AggregateDeps, maxNameBytes: number, signal?: AbortSignal): Promise<QualifiedPrompt[]> {
  const byServer = await collect(deps, 'prompts', (c, s) => c.listPrompts({ signal: s }), signal);
  const prompts = new Map<string, Prompt>();
  for (const [server, list] of byServer) for (const p of list) prompts.set(`${server}\u0000${p.name}`, p);
  const named = assignToolNames(
    [...prompts.keys()].map((k) => {
      const [server, tool] = k.split('\u0000') as [string, string];
      return { server, tool };
    }),
    maxNameBytes + 'mcp__'.length,
  );
  return named.tools.map((t) => ({ name: t.name.slice('mcp__'.length), server: t.server, prompt: prompts.get(`${t.server}\u0000${t.tool}`)! }));
}

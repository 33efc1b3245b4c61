// The gateway's 2026-07-28 serving: the per-request server factory the HTTP host's modern leg calls
// (handlers on the shared pool, nothing started per request), and list changes of the pool published
// to open `subscriptions/listen` streams.
import type { McpRequestContext, McpServerFactory, Server } from '@modelcontextprotocol/server';
import { auditedServer, createModernLeg, InputFlows, type ModernLeg, type RequestStateKey } from '../mcp-host/index.js';
import { auditDescriber } from './caller-view.js';
import type { GatewayPool } from './gateway-pool.js';
import { ModernGatewayClient } from './modern-client.js';

export interface GatewayModern {
  leg: ModernLeg;
  close(): Promise<void>;
}

/** Only discovery carries instructions: other requests need not wait for them. */
function isDiscovery(ctx: McpRequestContext | undefined): boolean {
  return ctx?.requestInfo?.headers.get('mcp-method') === 'server/discover';
}

export function gatewayServerFactory(pool: GatewayPool, flows: InputFlows): McpServerFactory {
  return async (ctx): Promise<Server> => {
    const instructions = isDiscovery(ctx) ? await pool.instructions() : undefined;
    const server = new ModernGatewayClient(pool, flows, instructions).server;
    return pool.audit ? auditedServer(server, pool.audit, auditDescriber(pool)) : server;
  };
}

export function gatewayModernLeg(pool: GatewayPool, options: { maxBodyBytes: number; requestStateKey?: RequestStateKey }): GatewayModern {
  const flows = new InputFlows({ logger: pool.logger, ...(options.requestStateKey ? { key: options.requestStateKey } : {}) });
  const leg = createModernLeg(gatewayServerFactory(pool, flows), { logger: pool.logger, maxBodyBytes: options.maxBodyBytes, retries: flows });
  const unwatch = pool.watch({
    listChanged(kind) {
      if (kind === 'tools') leg.notify.toolsChanged();
      else if (kind === 'prompts') leg.notify.promptsChanged();
      else leg.notify.resourcesChanged();
    },
    resourceUpdated: (uri) => leg.notify.resourceUpdated(uri),
  });
  return {
    leg,
    async close() {
      unwatch();
      flows.close();
    },
  };
}

// The shared HTTP host on loopback with an MCP server that offers nothing in each session: for what
// only the host's front door does (tokens, auth refusals), with the product out of the way.
import { Server } from '@modelcontextprotocol/server';
import type { HttpHost } from '../../src/mcp-host/index.js';
import { startHttpHost, type ResourceAuth } from '../../src/mcp-host/http/index.js';
import { nullLogger } from '../../src/util/index.js';

export function startEmptyHost(options: { name: string; token: string | null; auth: ResourceAuth }): Promise<HttpHost> {
  return startHttpHost({
    listen: { host: '127.0.0.1', port: 0 },
    token: options.token,
    auth: options.auth,
    logger: nullLogger,
    async openSession(transport) {
      const server = new Server({ name: options.name, version: '0' }, { capabilities: {} });
      await server.connect(transport);
      return { close: () => server.close() };
    },
  });
}

// A progress notification that reaches the client in the same read as its request's result (a
// server that writes both at once, or a client busy elsewhere) is still handed to the caller.
import { InMemoryTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpClient, type McpClient, type StdioLauncher } from '../../src/mcp-client/index.js';
import { nullLogger } from '../../src/util/index.js';
import { serverConfig } from './helpers.js';

/** The server end of the pair, holding notifications back and delivering them with the next response in one go. */
function coalescingServerSide(inner: Transport): Transport {
  const held: JSONRPCMessage[] = [];
  const wrapper: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    async send(message, options) {
      if (!('id' in message)) {
        held.push(message);
        return;
      }
      const batch = [...held.splice(0), message];
      // All of them inside one synchronous stretch, as when they arrive in one chunk from a pipe.
      for (const m of batch) void inner.send(m, options);
    },
  };
  inner.onmessage = (message, extra) => wrapper.onmessage?.(message, extra);
  inner.onclose = () => wrapper.onclose?.();
  inner.onerror = (error) => wrapper.onerror?.(error);
  return wrapper;
}

function stepsServer(): McpServer {
  const server = new McpServer({ name: 'steps', version: '1.0.0' });
  server.registerTool('steps', { description: 'Reports progress, then answers', inputSchema: z.object({ n: z.number() }) }, async ({ n }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= n; i++) {
      if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } });
    }
    return { content: [{ type: 'text', text: `did ${n}` }] };
  });
  return server;
}

const launcher: StdioLauncher = {
  kind: 'local',
  async launch() {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await stepsServer().connect(coalescingServerSide(serverSide));
    return { transport: clientSide, stderrTail: () => [], describe: () => 'in-process server' };
  },
};

describe('progress arriving together with the result', () => {
  let client: McpClient | undefined;
  afterEach(async () => {
    await client?.close();
  });

  it('hands every progress notification to the caller before the call resolves', async () => {
    client = createMcpClient(serverConfig('steps', { command: 'in-process' }), { logger: nullLogger, launcher });
    await client.connect();
    const seen: number[] = [];
    const result = await client.callTool('steps', { n: 3 }, { onProgress: (p) => seen.push(p.progress) });
    expect(result.content).toEqual([{ type: 'text', text: 'did 3' }]);
    expect(seen).toEqual([1, 2, 3]);
  });
});

// The agent server for 2026-07-28 clients: a fresh SDK server per request (no session) answering
// server/discover, tools/list and tools/call (and empty prompt and resource lists; other methods
// get the SDK's own -32601, HTTP 404). A call runs over rounds: an approval the turn needs ends
// the round with an input-required result carrying Codex's elicitation, and the client's retry with
// the answer resumes the turn; codex/event and progress go out on the current round's response stream.
import { CLIENT_CAPABILITIES_META_KEY, Server, type McpServerFactory } from '@modelcontextprotocol/server';
import { errorMessage, type Logger } from '../util/index.js';
import { auditedServer, type InputFlows } from '../mcp-host/index.js';
import type { CodexServerOptions } from './codex-server.js';
import { codexTools } from './tool-definitions.js';
import type { CodexAgent } from './tool-call.js';
import { accessOf, dispatchToolCall, refuseCall } from './tool-dispatch.js';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

export function codexServerFactory(agent: CodexAgent, options: CodexServerOptions, logger: Logger, flows: InputFlows): McpServerFactory {
  const dispatch = { agent, options, logger };
  return () => {
    const server = new Server(
      { name: options.name, title: options.title, version: options.version },
      // Empty prompts and resources: a 2026-07-28 client may ask for every list (with its cache hints).
      { capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} }, supportedProtocolVersions: [MODERN_PROTOCOL_VERSION] },
    );
    server.setRequestHandler('tools/list', (_request, ctx) => {
      const { view } = accessOf(agent, ctx);
      return { tools: codexTools().filter((t) => view.allows(t.name)) };
    });
    server.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    server.setRequestHandler('resources/list', () => ({ resources: [] }));
    server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
    server.setRequestHandler('tools/call', (request, ctx) => {
      const refusal = refuseCall(request.params, accessOf(agent, ctx));
      if (refusal) return refusal;
      return flows.round(ctx, (flowCtx, channel) =>
        dispatchToolCall(dispatch, request.params, flowCtx, flowCtx.mcpReq.signal, {
          // The approval's codex_* fields ride the embedded request as they do a 2025 elicitation.
          elicit: (params, signal) => channel.ask({ method: 'elicitation/create', params } as Parameters<typeof channel.ask>[0], { signal }),
          // This request's own capabilities (its `_meta` envelope): one server may serve several requests (stdio).
          capabilities: () => (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY],
        }),
      );
    });
    server.onerror = (err) => logger.debug('mcp 2026-07-28 request error', { error: errorMessage(err) });
    return agent.audit ? auditedServer(server, agent.audit) : server;
  };
}

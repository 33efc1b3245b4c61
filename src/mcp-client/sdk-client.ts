// Creates the SDK Client for one connection: the capabilities we advertise and the handlers for
// everything the server may send us (elicitation, sampling, roots, logging, change notifications).
// A 2026-07-28 server's input-required results reach the same handlers: the SDK fulfils each
// embedded request through them and re-issues the call, up to MAX_INPUT_ROUNDS rounds; a call that
// brings its own answerers (input-rounds.ts) has its embedded requests answered by those instead.
import type { ClientCapabilities, ElicitResult, Implementation, LoggingMessageNotification, Root } from '@modelcontextprotocol/client';
import type { Logger } from '../util/index.js';
import { MAX_INPUT_ROUNDS, MAX_TOOL_LIST_PAGES } from './defaults.js';
import { SdkClient } from './input-rounds.js';
import { reuseResultValidators } from './result-validators.js';
import { TaskStatusParams } from './task-requests.js';
import { TASKS_EXTENSION } from '../protocol/values.js';
import type { InputHandlers, McpClientHandlers } from './types.js';

export interface SdkClientSetup {
  serverName: string;
  clientInfo: Implementation;
  handlers: McpClientHandlers;
  roots: Root[] | undefined;
  urlElicitation: boolean;
  /** Replaces the default elicitation capability; null advertises none. */
  elicitationCapability?: ClientCapabilities['elicitation'] | null;
  samplingCapability?: ClientCapabilities['sampling'];
  versionNegotiation: 'legacy' | 'auto';
  /** How long the era probe waits for an answer; default: the whole connect timeout. */
  probeTimeoutMs?: number;
  logger: Logger;
}

export function clientCapabilities(
  setup: Pick<SdkClientSetup, 'handlers' | 'roots' | 'urlElicitation' | 'elicitationCapability' | 'samplingCapability'>,
): ClientCapabilities {
  // Form elicitation with schema defaults filled in by the SDK when the user accepts.
  const elicitation = setup.elicitationCapability === undefined ? { form: { applyDefaults: true }, ...(setup.urlElicitation ? { url: {} } : {}) } : setup.elicitationCapability;
  return {
    ...(elicitation ? { elicitation } : {}),
    ...(setup.handlers.listRoots ? { roots: { listChanged: true } } : setup.roots ? { roots: { listChanged: false } } : {}),
    ...(setup.handlers.sampling ? { sampling: setup.samplingCapability ?? {} } : {}),
    // A server may then answer a long tools/call with a task (it decides; a call never asks for one).
    extensions: { [TASKS_EXTENSION]: {} },
  };
}

export function createSdkClient(setup: SdkClientSetup): SdkClient {
  const { handlers, serverName, logger } = setup;
  const capabilities = clientCapabilities(setup);
  const client = new SdkClient(setup.clientInfo, {
    capabilities,
    versionNegotiation: { mode: setup.versionNegotiation, ...(setup.probeTimeoutMs !== undefined ? { probe: { timeoutMs: setup.probeTimeoutMs } } : {}) },
    inputRequired: { autoFulfill: true, maxRounds: MAX_INPUT_ROUNDS },
    listMaxPages: MAX_TOOL_LIST_PAGES,
  });
  reuseResultValidators(client);

  // On 2026-07-28 every request reaching a handler is embedded in an input-required result, and its
  // id is the server's key for it, which repeats from call to call; hosts match answers by id.
  let embedded = 0;
  const requestId = (id: string | number) => (client.getProtocolEra() === 'modern' ? `input-${++embedded}-${String(id)}` : id);
  const context = (ctx: { mcpReq: { id: string | number; signal: AbortSignal } }) => ({
    serverName,
    signal: ctx.mcpReq.signal,
    requestId: requestId(ctx.mcpReq.id),
    ...(client.getProtocolEra() === 'modern' ? { inputKey: String(ctx.mcpReq.id) } : {}),
  });
  // Who answers: the calling request's own answerer when it brought one, else the connection's.
  const answerer = <K extends keyof InputHandlers>(ctx: { mcpReq: { signal: AbortSignal } }, kind: K): InputHandlers[K] => client.inputsOf(ctx.mcpReq.signal)?.[kind] ?? handlers[kind];

  // The SDK refuses a handler for a capability not advertised.
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request, ctx): Promise<ElicitResult> => {
      const elicitation = answerer(ctx, 'elicitation');
      if (!elicitation) return { action: 'decline' };
      return elicitation(request.params, context(ctx));
    });
  }
  if (capabilities.elicitation?.url) {
    client.setNotificationHandler('notifications/elicitation/complete', (n) => {
      if (handlers.onElicitationComplete) handlers.onElicitationComplete(n.params);
      else logger.debug(`MCP server '${serverName}' completed URL elicitation ${n.params.elicitationId}`);
    });
  }
  const sampling = handlers.sampling;
  if (sampling) {
    client.setRequestHandler('sampling/createMessage', (request, ctx) => (answerer(ctx, 'sampling') ?? sampling)(request.params, context(ctx)));
  }
  const { listRoots } = handlers;
  const roots = setup.roots;
  if (listRoots) {
    client.setRequestHandler('roots/list', async (_request, ctx) => ({ roots: await (answerer(ctx, 'listRoots') ?? listRoots)(context(ctx)) }));
  } else if (roots) {
    client.setRequestHandler('roots/list', async (_request, ctx) => {
      const own = answerer(ctx, 'listRoots');
      return { roots: own ? await own(context(ctx)) : roots };
    });
  }

  client.setNotificationHandler('notifications/message', (n) => {
    if (handlers.onLog) handlers.onLog(n.params);
    else logServerMessage(logger, serverName, n.params);
  });
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    logger.info(`MCP server '${serverName}' tool list changed`);
    handlers.onToolsListChanged?.();
  });
  client.setNotificationHandler('notifications/resources/list_changed', () => handlers.onResourcesListChanged?.());
  client.setNotificationHandler('notifications/prompts/list_changed', () => handlers.onPromptsListChanged?.());
  client.setNotificationHandler('notifications/resources/updated', (n) => handlers.onResourceUpdated?.(n.params.uri));
  client.setNotificationHandler('notifications/tasks/status', { params: TaskStatusParams }, (params) => handlers.onTaskStatus?.(params));
  return client;
}

/** Codex's mapping of MCP log levels onto ours. */
function logServerMessage(logger: Logger, serverName: string, params: LoggingMessageNotification['params']): void {
  const text = `MCP server '${serverName}' log${params.logger ? ` (${params.logger})` : ''}: ${typeof params.data === 'string' ? params.data : JSON.stringify(params.data)}`;
  switch (params.level) {
    case 'emergency':
    case 'alert':
    case 'critical':
    case 'error':
      logger.error(text);
      break;
    case 'warning':
      logger.warn(text);
      break;
    case 'debug':
      logger.debug(text);
      break;
    default:
      logger.info(text);
  }
}

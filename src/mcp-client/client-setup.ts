// How an McpClient's connections are made: the setup every connection of one server shares, the
// keeper over its transport recipe, whether newer credentials were saved after a 401, and the
// full tools list in either era.
import type { Client, RequestOptions as SdkRequestOptions, Tool } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/index.js';
import { startupTimeoutMs as configStartupMs } from '../config/index.js';
import type { Connection, ConnectionSetup } from './connection.js';
import { ConnectionKeeper } from './connection-keeper.js';
import { DEFAULT_CLIENT_INFO } from './defaults.js';
import type { McpClientError } from './errors.js';
import { createLocalLauncher } from './launchers/index.js';
import { announceAfterDrop } from './listen-stream.js';
import { collectPages, listModernTools, type ListCacheHint } from './pagination.js';
import { currentAccessToken, recipeFromConfig, type TransportRecipe } from './recipe.js';
import type { McpClientDeps, McpClientOptions } from './types.js';

/** What the client itself contributes to its connections' setup. */
export interface ClientHooks {
  resourceSubscriptions: Set<string>;
  staleLists: Set<string>;
  fetch: ConnectionSetup['fetch'];
  onEnded: ConnectionSetup['onEnded'];
}

/** The setup every connection of one server shares (handlers, capabilities, era, listening). */
export function connectionSetup(config: McpServerConfig, deps: McpClientDeps, options: McpClientOptions, hooks: ClientHooks): ConnectionSetup {
  const handlers = deps.handlers ?? {};
  return {
    serverName: config.name,
    clientInfo: options.clientInfo ?? { ...DEFAULT_CLIENT_INFO },
    handlers,
    roots: options.roots,
    urlElicitation: options.urlElicitation ?? true,
    elicitationCapability: options.elicitationCapability,
    samplingCapability: options.samplingCapability,
    versionNegotiation: config.transport.type === 'sse' ? 'legacy' : (options.versionNegotiation ?? 'auto'),
    logger: deps.logger,
    fetch: hooks.fetch,
    listen: {
      resourceSubscriptions: hooks.resourceSubscriptions,
      onReopened: (honored) => announceAfterDrop(honored, handlers, hooks.staleLists),
      retryDelaysMs: options.listenRetryDelaysMs,
      timeoutMs: options.startupTimeoutMs ?? configStartupMs(config),
    },
    onEnded: hooks.onEnded,
  };
}

/** The keeper of one server's connections (generations, session recovery) over its transport recipe. */
export function createKeeper(
  config: McpServerConfig,
  deps: McpClientDeps,
  options: McpClientOptions,
  setup: ConnectionSetup,
  closeSignal: AbortSignal,
  onRecovered: (connection: Connection) => void,
): ConnectionKeeper {
  const recipe = recipeFromConfig(config, {
    launcher: deps.launcher ?? createLocalLauncher(),
    env: deps.env ?? process.env,
    authProviderFor: deps.authProviderFor,
    logger: deps.logger,
  });
  return new ConnectionKeeper({
    recipe,
    setup,
    startupTimeoutMs: options.startupTimeoutMs ?? configStartupMs(config),
    closeSignal,
    logger: deps.logger,
    // An SSE server has one era; a recorded verdict from another transport must not apply.
    prior: config.transport.type === 'sse' ? undefined : options.prior,
    onRecovered,
  });
}

/** After a 401 that survived the transport's refresh: were newer tokens saved meanwhile? */
export async function newerCredentials(recipe: TransportRecipe | undefined, used: Connection | undefined, err: McpClientError): Promise<boolean> {
  const provider = recipe?.kind !== 'stdio' ? recipe?.authProvider : undefined;
  if (!provider || !used) return false;
  // Only a login (another process) gives wider scopes: read the store again.
  // A SwitchboardOAuthProvider was made by the OAuth layer, so it is loaded already when one is here.
  if (err.code === 'insufficient_scope' && provider instanceof (await import('./oauth/index.js')).SwitchboardOAuthProvider) await provider.session.reload();
  const token = await currentAccessToken(provider);
  // `Bearer <token>` or `DPoP <token>`: the token decides, not the scheme it was presented with.
  return token !== undefined && token !== used.rejectedAuthorization?.slice(used.rejectedAuthorization.indexOf(' ') + 1);
}

/** Every tool of the server, following nextCursor; a 2026-07-28 server's list comes with its cache hint. */
export async function listAllTools(client: Client, options: SdkRequestOptions): Promise<{ tools: Tool[]; cache: ListCacheHint | undefined }> {
  if (client.getProtocolEra() === 'modern') return listModernTools(client, options);
  const tools = await collectPages('tools/list', async (cursor) => {
    const page = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, options);
    return { items: page.tools, nextCursor: page.nextCursor };
  });
  return { tools, cache: undefined };
}

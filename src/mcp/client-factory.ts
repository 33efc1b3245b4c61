// The default way the manager makes a client for a server: the launcher its `environment` names,
// the host's environment for bearer/header variables, and the OAuth provider where configured.
// The MCP SDK is loaded on the first client, so commands that only read snapshots never pay for it;
// a local stdio server's process is started before that load, and handed to its client after it.
import type { OAuthClientProvider, Root } from '@modelcontextprotocol/client';
import type { EnvironmentConfig, McpServerConfig } from '../config/index.js';
import type { CallerAuth, McpClient, McpClientHandlers, McpClientOptions, PriorDiscovery, StdioLauncher } from '../mcp-client/index.js';
import type { Logger } from '../util/index.js';
import type { Telemetry } from '../util/telemetry/index.js';

/**
 * Makes the McpClient for one server, given the handlers the manager wants on it; `prior` is the era
 * verdict recorded for this server, adopted by the client instead of probing; `auth`, the credential
 * of the caller a connection acts for (identity = "caller") instead of the server's own.
 */
export type ClientFactory = (config: McpServerConfig, handlers: McpClientHandlers, options?: { prior?: PriorDiscovery; auth?: CallerAuth['provider'] }) => McpClient | Promise<McpClient>;

/** What the default client factory builds clients with. */
export interface DefaultClientFactoryOptions {
  logger: Logger;
  environments: Readonly<Record<string, EnvironmentConfig>>;
  env?: NodeJS.ProcessEnv;
  /** OAuth for HTTP servers; may be created lazily on the first HTTP client. */
  authProviderFor?: (config: McpServerConfig) => OAuthClientProvider | undefined | Promise<OAuthClientProvider | undefined>;
  roots?: Root[];
  clientOptions?: McpClientOptions;
  /** Spans for every request to a server, and trace context passed on. */
  telemetry?: Telemetry;
  /** NODE_COMPILE_CACHE for local stdio servers (docs/performance.md); none when unset. */
  nodeCompileCacheDir?: string;
}

/**
 * The ClientFactory `createConnectionManager` uses: the launcher each server's `environment`
 * names (local, exec-server or SSH), the environment's variables for bearer and header values, and an
 * OAuth provider for HTTP servers. Use it when constructing an {@link McpConnectionManager} yourself.
 */
export function createDefaultClientFactory(options: DefaultClientFactoryOptions): ClientFactory {
  const layer = () => import('../mcp-client/index.js');
  // Small and free of the SDK: loaded with the first client, not with every manager (a command that
  // only reads snapshots makes no client).
  const early = () => import('../mcp-client/prelaunch/index.js');
  let sdk: ReturnType<typeof layer> | undefined;
  let starter: ReturnType<typeof early> | undefined;
  let local: StdioLauncher | undefined;
  const localOptions = options.nodeCompileCacheDir === undefined ? {} : { compileCacheDir: options.nodeCompileCacheDir };
  return async (config, handlers, perClient) => {
    // A local stdio server's process starts before the layer below loads, so that it boots meanwhile.
    const { prelaunchLocal } = await (starter ??= early());
    const prelaunch = prelaunchLocal(config, options.environments, localOptions, options.logger);
    try {
      sdk ??= layer();
      const { adoptingLauncher, createLocalLauncher, createMcpClient, selectLauncher } = await sdk;
      local ??= createLocalLauncher(localOptions);
      // A caller's connection presents that caller's credential, never the server's own.
      const provider = config.transport.type === 'stdio' ? undefined : (perClient?.auth ?? (await options.authProviderFor?.(config)));
      const launcher = prelaunch ? adoptingLauncher(localOptions, prelaunch) : config.transport.type === 'stdio' ? selectLauncher(config, { local, environments: options.environments, env: options.env }) : undefined;
      return createMcpClient(
        config,
        {
          logger: options.logger,
          launcher,
          env: options.env,
          authProviderFor: provider ? () => provider : undefined,
          handlers,
          ...(options.telemetry ? { telemetry: options.telemetry } : {}),
        },
        { ...options.clientOptions, roots: options.roots ?? options.clientOptions?.roots, ...(perClient?.prior ? { prior: perClient.prior } : {}) },
      );
    } catch (err) {
      prelaunch?.abandon();
      throw err;
    }
  };
}

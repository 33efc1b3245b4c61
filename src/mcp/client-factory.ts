// The default way the manager makes a client for a server: the launcher its `environment` names,
// the host's environment for bearer/header variables, and the OAuth provider where configured.
import type { OAuthClientProvider, Root } from '@modelcontextprotocol/client';
import type { EnvironmentConfig, McpServerConfig } from '../config/index.js';
import { createLocalLauncher, createMcpClient, selectLauncher, type McpClientOptions } from '../mcp-client/index.js';
import type { Logger } from '../util/index.js';
import type { ClientFactory } from './managed-server.js';

export interface DefaultClientFactoryOptions {
  logger: Logger;
  environments: Readonly<Record<string, EnvironmentConfig>>;
  env?: NodeJS.ProcessEnv;
  authProviderFor?: (config: McpServerConfig) => OAuthClientProvider | undefined;
  roots?: Root[];
  clientOptions?: McpClientOptions;
}

export function createDefaultClientFactory(options: DefaultClientFactoryOptions): ClientFactory {
  const local = createLocalLauncher();
  return (config, handlers) =>
    createMcpClient(
      config,
      {
        logger: options.logger,
        launcher: config.transport.type === 'stdio' ? selectLauncher(config, { local, environments: options.environments, env: options.env }) : undefined,
        env: options.env,
        authProviderFor: options.authProviderFor,
        handlers,
      },
      { ...options.clientOptions, roots: options.roots ?? options.clientOptions?.roots },
    );
}

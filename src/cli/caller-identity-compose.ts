// Acting as each caller upstream (identity = "caller"), put together for `serve --http`: the
// callers' credentials (token exchange, identity assertion, or their own sign-in kept in the store)
// and the sign-in pages served beside the endpoint. Their links live beneath the endpoint's public
// URL: `[server_auth] audience` when it is one, else where the listener is.
import { ConfigError, type Config } from '../config/index.js';
import type { UpstreamIdentities } from '../mcp-client/index.js';
import type { HttpServeOptions } from '../mcp-host/index.js';
import type { Store } from '../store/index.js';
import type { Logger } from '../util/index.js';

export interface ComposedIdentities {
  identities: UpstreamIdentities;
  /** The sign-in pages, for the HTTP host's `routes`. */
  routes: NonNullable<HttpServeOptions['routes']>;
  /** The listener's URL, once it listens (the links' base when the audience is not a URL). */
  listening(url: string): void;
}

/** Undefined when no enabled server acts as each caller. */
export async function composeCallerIdentities(config: Config, store: Store, env: NodeJS.ProcessEnv, logger: Logger): Promise<ComposedIdentities | undefined> {
  if (!Object.values(config.mcp_servers).some((s) => s.enabled && s.identity === 'caller')) return undefined;
  const { CallerIdentities } = await import('../mcp-client/oauth/index.js');
  const audience = URL.parse(config.server_auth?.audience ?? '');
  let listenUrl = '';
  const identities = new CallerIdentities({
    servers: config.mcp_servers,
    logger,
    env,
    store: store.callerCredentials,
    endpointUrl: () => (audience && (audience.protocol === 'https:' || audience.protocol === 'http:') ? audience.href : listenUrl),
    clientMetadataUrl: config.mcp_oauth_client_metadata_url,
  });
  return {
    identities,
    routes: async (req, res, url, endpointPath) => identities.logins?.serve(req, res, url, endpointPath) ?? false,
    listening: (url) => {
      listenUrl = url;
    },
  };
}

/**
 * `mcp-server --http` with OAuth callers: its agent reaches MCP servers as the operator (a thread does
 * not carry its caller upstream yet), so a server meant to act as each caller is refused at start
 * rather than quietly reached with the operator's credential on a caller's behalf.
 */
export function refuseCallerServersForAgent(config: Config): void {
  if (config.server_auth?.issuer === undefined) return;
  const server = Object.values(config.mcp_servers).find((s) => s.enabled && s.identity === 'caller');
  if (!server) return;
  throw new ConfigError(
    `mcp-server serves OAuth callers ([server_auth]), but its agent reaches MCP server '${server.name}' as the operator, not as each caller: serve that server to callers with \`switchboard serve --http\`, or set identity = "operator" (or enabled = false) for mcp-server`,
    { keyPath: ['mcp_servers', server.name, 'identity'] },
  );
}

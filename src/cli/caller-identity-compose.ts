// Acting as each caller upstream (identity = "caller"), put together for `serve --http` and
// `mcp-server --http` (its agent's turns act as the caller of each codex call): the
// callers' credentials (token exchange, identity assertion, or their own sign-in kept in the store)
// and the sign-in pages served beside the endpoint. Their links live beneath the endpoint's public
// URL: `[server_auth] audience` when it is one, else where the listener is.
import type { Config } from '../config/index.js';
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

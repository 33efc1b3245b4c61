// The client that `npm run conformance:client` puts under @modelcontextprotocol/conformance: connect
// through switchboard's McpClient, list tools, call every tool with arguments built from its input
// schema (or the calls the harness names), authenticating headlessly through switchboard's OAuth provider. It never looks at the
// scenario name; MCP_CONFORMANCE_CONTEXT only supplies credentials and, for some scenarios, the tool calls to make.
//   node conformance/client.ts [--client-metadata-url URL] <server-url>
// (the suite appends the URL). Test tooling, not product: it uses the package as a library, run by
// Node with type stripping (erasable syntax only); 'switchboard' resolves to dist/, so build first.
import { parseArgs } from 'node:util';
import {
  CrossAppAccessProvider,
  discoverOAuthServerInfo,
  extractWWWAuthenticateParams,
  requestJwtAuthorizationGrant,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type Tool,
} from '@modelcontextprotocol/client';
import { createMcpClient, isMcpClientError, nullLogger, parseMcpServerConfig } from 'switchboard';
import { MemoryTokenStore, OAuthRuntime, SwitchboardOAuthProvider, discoverAuthorizationState, type OAuthGrant } from 'switchboard/oauth';

interface ConformanceContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_issuer?: string;
  idp_token_endpoint?: string;
  /** The calls to make instead of one per listed tool (scenarios that test particular arguments). */
  toolCalls?: { name: string; arguments?: Record<string, unknown> }[];
}

interface ConformanceRunOptions {
  url: string;
  context: ConformanceContext;
  /** The Client ID Metadata Document URL offered to servers that support CIMD. */
  clientMetadataUrl?: string;
  log: (line: string) => void;
}

/** Where headless authorizations "return" to; nothing listens, the code is read from Location. */
const REDIRECT_URL = 'http://localhost:3000/callback';
/** Operations re-run after a completed headless authorization (401 → authorize → retry). */
const MAX_AUTH_RETRIES = 3;

function parseConformanceContext(raw: string | undefined): ConformanceContext {
  if (!raw) return {};
  const parsed: unknown = JSON.parse(raw);
  return typeof parsed === 'object' && parsed !== null ? (parsed as ConformanceContext) : {};
}

/**
 * Discover before connecting (an unauthenticated connection for the challenge's resource_metadata,
 * then PRM and authorization-server metadata): the grant types decide how a client secret is
 * used, and the result seeds the provider's discovery cache.
 */
async function discoverFirst(url: string): Promise<OAuthDiscoveryState | undefined> {
  const probe = createMcpClient(parseMcpServerConfig('conformance', { url }).config, { logger: nullLogger, env: {} }, { retryDelaysMs: [] });
  try {
    await probe.connect();
    return undefined;
  } catch (err) {
    const challenge = isMcpClientError(err, 'auth_required') ? err.details.challenge : undefined;
    if (challenge === undefined) return undefined;
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(new Response(null, { status: 401, headers: { 'www-authenticate': challenge } }));
    return await discoverAuthorizationState(url, { resourceMetadataUrl }).catch(() => undefined);
  } finally {
    await probe.close();
  }
}

/** Pick the credentials: private key or IdP token (extensions), a client secret, or none (DCR/CIMD). */
async function authProvider(options: ConformanceRunOptions): Promise<OAuthClientProvider> {
  const { url, context } = options;
  if (context.idp_id_token && context.idp_token_endpoint && context.client_id && context.client_secret) {
    const info = await discoverOAuthServerInfo(url);
    return new CrossAppAccessProvider({
      clientId: context.client_id,
      clientSecret: context.client_secret,
      clientName: 'switchboard',
      expectedIssuer: info.authorizationServerMetadata?.issuer ?? String(info.authorizationServerUrl),
      assertion: async (ctx) =>
        (
          await requestJwtAuthorizationGrant({
            tokenEndpoint: context.idp_token_endpoint!,
            audience: ctx.authorizationServerUrl,
            resource: ctx.resourceUrl,
            idToken: context.idp_id_token!,
            clientId: context.idp_client_id ?? context.client_id!,
            scope: ctx.scope,
            fetchFn: ctx.fetchFn,
          })
        ).jwtAuthGrant,
    });
  }
  const discovered = await discoverFirst(url);
  let grant: OAuthGrant = { kind: 'authorization_code' };
  if (context.private_key_pem && context.client_id) {
    grant = { kind: 'client_credentials', privateKey: { pem: context.private_key_pem, algorithm: context.signing_algorithm ?? 'ES256' } };
  } else if (context.client_secret && context.client_id) {
    const grants = discovered?.authorizationServerMetadata?.grant_types_supported;
    if (grants?.includes('client_credentials') && !grants.includes('authorization_code')) {
      grant = { kind: 'client_credentials', clientSecret: context.client_secret };
    }
  }
  const runtime = new OAuthRuntime({ home: null, store: new MemoryTokenStore(), logger: nullLogger, env: {} });
  const session = runtime.session('conformance', url);
  session.discoveryState = discovered;
  return new SwitchboardOAuthProvider({
    session,
    mode: { kind: 'headless', redirectUrl: REDIRECT_URL },
    grant,
    clientId: context.client_id ?? null,
    clientSecret: context.client_secret ?? null,
    clientMetadataUrl: options.clientMetadataUrl ?? null,
  });
}

/** A value for one JSON-schema property: its default, its first enum value, or a typed filler. */
function sampleValue(schema: Record<string, unknown> | undefined): unknown {
  if (!schema) return 'test';
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return sampleArguments(schema);
    case 'null':
      return null;
    default:
      return 'test';
  }
}

function sampleArguments(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(properties).map(([name, prop]) => [name, sampleValue(prop)]));
}

interface Connection {
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Connect through switchboard's own McpClient (the layer under test): its Streamable HTTP transport
 * with the headless OAuth provider, elicitation answered with the schema's defaults.
 */
async function connectMcp(url: string, provider: OAuthClientProvider): Promise<Connection> {
  const config = parseMcpServerConfig('conformance', { url }).config;
  const client = createMcpClient(config, {
    logger: nullLogger,
    env: {},
    authProviderFor: () => provider,
    handlers: { elicitation: async () => ({ action: 'accept', content: {} }) },
  });
  try {
    await client.connect();
  } catch (err) {
    await client.close();
    throw err;
  }
  return {
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool(name, args),
    close: () => client.close(),
  };
}

/** Run `op` again after a headless authorization completed inside it (the SDK throws after one). */
async function withReauthorization<T>(provider: OAuthClientProvider, op: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      const completed = provider instanceof SwitchboardOAuthProvider ? provider.takeCompletedAuthorizations() : 0;
      if (completed === 0 || attempt >= MAX_AUTH_RETRIES) throw err;
    }
  }
}

/** Resolves to the process exit code. */
async function runConformanceClient(options: ConformanceRunOptions): Promise<number> {
  const { log } = options;
  try {
    const provider = await authProvider(options);
    const connection = await withReauthorization(provider, () => connectMcp(options.url, provider));
    try {
      const tools = await withReauthorization(provider, () => connection.listTools());
      log(`listed ${tools.length} tool(s)`);
      const calls = options.context.toolCalls ?? tools.map((tool) => ({ name: tool.name, arguments: sampleArguments(tool.inputSchema as Record<string, unknown>) }));
      for (const call of calls) {
        await withReauthorization(provider, () => connection.callTool(call.name, call.arguments ?? {}));
        log(`called ${call.name}`);
      }
    } finally {
      await connection.close();
    }
    return 0;
  } catch (err) {
    log(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

const { values, positionals } = parseArgs({ options: { 'client-metadata-url': { type: 'string' } }, allowPositionals: true });
const url = positionals.at(-1);
if (!url) {
  process.stderr.write('usage: node conformance/client.ts [--client-metadata-url URL] <server-url>\n');
  process.exit(2);
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
process.exitCode = await runConformanceClient({
  url,
  context: parseConformanceContext(process.env.MCP_CONFORMANCE_CONTEXT),
  clientMetadataUrl: values['client-metadata-url'],
  log: (line) => process.stderr.write(`[conformance-client ${scenario}] ${line}\n`),
});

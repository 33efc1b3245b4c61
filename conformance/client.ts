// The client that `npm run conformance:client` puts under @modelcontextprotocol/conformance: it
// configures the server the way a user would (an [mcp_servers] table: `oauth` keys, secrets in
// environment variables and 0600 files), lets switchboard's McpClient and OAuth runtime pick the flow,
// lists tools and calls every tool with arguments built from its input schema (or the calls a
// scenario needs). It constructs no OAuth provider of its own: a browser login is completed by
// following the authorization redirect (the suite's authorization servers approve at once).
//   node conformance/client.ts [--client-metadata-url URL] <server-url>
// (the suite appends the URL). Test tooling, not product: it uses the package as a library, run by
// Node with type stripping (erasable syntax only); 'switchboard' resolves to dist/, so build first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Tool } from '@modelcontextprotocol/client';
import { createMcpClient, nullLogger, parseMcpServerConfig, type McpClient } from 'switchboard';
import { MemoryTokenStore, OAuthRuntime, type SwitchboardOAuthProvider } from 'switchboard/oauth';

/** What a scenario hands the client (credentials, and for some scenarios the calls to make). */
interface ConformanceContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
  /** auth/wif-jwt-bearer: the workload identity token the platform would have written to a file. */
  valid_jwt?: string;
  toolCalls?: { name: string; arguments?: Record<string, unknown> }[];
}

interface ConformanceRunOptions {
  url: string;
  scenario: string;
  context: ConformanceContext;
  /** The Client ID Metadata Document URL (config `mcp_oauth_client_metadata_url`). */
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

/** Secrets as a user keeps them: files readable by the owner only, and environment variables. */
class Secrets {
  readonly env: NodeJS.ProcessEnv = {};
  private dir: string | undefined;

  file(name: string, content: string): string {
    this.dir ??= mkdtempSync(path.join(os.tmpdir(), 'sb-conformance-'));
    const file = path.join(this.dir, name);
    writeFileSync(file, content, { mode: 0o600 });
    return file;
  }

  variable(name: string, value: string): string {
    this.env[name] = value;
    return name;
  }

  dispose(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The `[mcp_servers.conformance]` table a user of this server would write. The scenario's context
 * says which credentials exist; its name says what the context cannot (a client secret for the
 * client_credentials grant rather than a pre-registered browser client; DPoP).
 */
function serverTable(url: string, scenario: string, context: ConformanceContext, secrets: Secrets): Record<string, unknown> {
  const oauth: Record<string, unknown> = {};
  if (context.client_id) oauth.client_id = context.client_id;
  if (context.client_secret) oauth.client_secret_env_var = secrets.variable('CONFORMANCE_CLIENT_SECRET', context.client_secret);
  if (context.private_key_pem) {
    oauth.private_key_file = secrets.file('client-key.pem', context.private_key_pem);
    if (context.signing_algorithm) oauth.private_key_alg = context.signing_algorithm;
  }
  if (scenario.startsWith('auth/client-credentials-')) oauth.grant_type = 'client_credentials';
  if (context.valid_jwt) {
    oauth.grant_type = 'jwt_bearer';
    oauth.assertion_file = secrets.file('workload-token.jwt', context.valid_jwt);
  }
  if (context.idp_id_token && context.idp_token_endpoint) {
    oauth.grant_type = 'identity_assertion';
    oauth.idp = {
      token_endpoint: context.idp_token_endpoint,
      client_id: context.idp_client_id ?? context.client_id,
      subject_token_env_var: secrets.variable('CONFORMANCE_ID_TOKEN', context.idp_id_token),
    };
  }
  if (scenario.startsWith('auth/dpop')) oauth.dpop = true;
  return { url, ...(Object.keys(oauth).length > 0 ? { oauth } : {}) };
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

/**
 * The calls to make: what the context names; for json-schema-2020-12-preservation, the focal tool's
 * observed inputSchema passed back verbatim through the echo tool (the scenario's contract); else
 * every listed tool with sample arguments.
 */
function plannedCalls(scenario: string, context: ConformanceContext, tools: Tool[]): { name: string; arguments?: Record<string, unknown> }[] {
  if (context.toolCalls) return context.toolCalls;
  const focal = tools.find((t) => t.name === 'json_schema_2020_12_tool');
  if (scenario === 'json-schema-2020-12-preservation' && focal) return [{ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } }];
  return tools.map((tool) => ({ name: tool.name, arguments: sampleArguments(tool.inputSchema as Record<string, unknown>) }));
}

/** Run `op` again after a headless authorization completed inside it (the SDK throws after one). */
async function withReauthorization<T>(providers: SwitchboardOAuthProvider[], op: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      const completed = providers.reduce((n, p) => n + p.takeCompletedAuthorizations(), 0);
      if (completed === 0 || attempt >= MAX_AUTH_RETRIES) throw err;
    }
  }
}

/** Resolves to the process exit code. */
async function runConformanceClient(options: ConformanceRunOptions): Promise<number> {
  const { log, scenario, context } = options;
  const secrets = new Secrets();
  let client: McpClient | undefined;
  try {
    const config = parseMcpServerConfig('conformance', serverTable(options.url, scenario, context, secrets)).config;
    const runtime = new OAuthRuntime({ home: null, store: new MemoryTokenStore(), logger: nullLogger, env: secrets.env, clientMetadataUrl: options.clientMetadataUrl ?? null });
    const providers: SwitchboardOAuthProvider[] = [];
    const mcp = createMcpClient(config, {
      logger: nullLogger,
      env: secrets.env,
      authProviderFor: (server) => {
        const provider = runtime.providerFor(server, { kind: 'headless', redirectUrl: REDIRECT_URL });
        providers.push(provider);
        return provider;
      },
      handlers: { elicitation: async () => ({ action: 'accept', content: {} }) },
    });
    client = mcp;
    await withReauthorization(providers, () => mcp.connect());
    const tools = await withReauthorization(providers, () => mcp.listTools());
    log(`listed ${tools.length} tool(s)`);
    for (const call of plannedCalls(scenario, context, tools)) {
      await withReauthorization(providers, () => mcp.callTool(call.name, call.arguments ?? {}));
      log(`called ${call.name}`);
    }
    return 0;
  } catch (err) {
    log(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await client?.close();
    secrets.dispose();
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
  scenario,
  context: parseConformanceContext(process.env.MCP_CONFORMANCE_CONTEXT),
  clientMetadataUrl: values['client-metadata-url'],
  log: (line) => process.stderr.write(`[conformance-client ${scenario}] ${line}\n`),
});

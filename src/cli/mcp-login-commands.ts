// `switchboard mcp login <name> [--scopes a,b]` and `switchboard mcp logout <name>`, registered on
// the shared `mcp` command group (created here if no other group registered it first).
import type { Command } from 'commander';
import type { McpServerConfig } from '../config/index.js';
import type { OAuthRuntime } from '../mcp-client/oauth/index.js';
import { SwitchboardError, errorMessage, isSwitchboardError } from '../util/index.js';
import type { RegisterCommand } from './commands.js';
import type { CliContext } from './context.js';
import { CommandFailed } from './exit-codes.js';
import { mcpCommandGroup } from './mcp-command-group.js';
import { openBrowser } from './open-browser.js';
import { openConfiguredStore } from './store-compose.js';

/** The OAuth layer, loaded when a login command runs (it pulls in the MCP SDK). */
const oauthLayer = () => import('../mcp-client/oauth/index.js');

async function findServer(ctx: CliContext, name: string, notFound: string): Promise<{ server: McpServerConfig; runtime: OAuthRuntime; close(): Promise<void> }> {
  const { config } = await ctx.loadConfig();
  const server = config.mcp_servers[name];
  if (!server) throw new CommandFailed(notFound);
  const { createOAuthRuntime } = await oauthLayer();
  // With `[store] credentials_key_env_var` the login goes to the store every replica reads.
  const store = await openConfiguredStore(ctx, config);
  return { server, runtime: createOAuthRuntime(config, { logger: ctx.logger, env: ctx.env, credentials: store.credentials }), close: () => store.close() };
}

function failed(err: unknown): never {
  if (err instanceof CommandFailed) throw err;
  throw new CommandFailed(err instanceof SwitchboardError ? err.message : errorMessage(err), { cause: err });
}

/** The OAuth browser login for one configured server; prints Codex's texts. */
export async function loginToServer(ctx: CliContext, name: string, scopes: string | undefined): Promise<void> {
  const { server, runtime, close } = await findServer(ctx, name, `No MCP server named '${name}' found.`);
  const { config } = await ctx.loadConfig();
  const { LOGIN_TEXTS, parseScopesFlag, performOAuthLogin } = await oauthLayer();
  const abort = new AbortController();
  const onSigint = () => abort.abort(new SwitchboardError('aborted', 'login cancelled'));
  process.once('SIGINT', onSigint);
  let outcome: Awaited<ReturnType<typeof performOAuthLogin>>;
  try {
    outcome = await performOAuthLogin({
      runtime,
      server,
      scopes: parseScopesFlag(scopes),
      callbackPort: config.mcp_oauth_callback_port,
      callbackUrl: config.mcp_oauth_callback_url,
      print: (text) => ctx.stdout.write(`${text}\n`),
      openBrowser: (url) => openBrowser(url, ctx.env),
      signal: abort.signal,
    });
  } catch (err) {
    failed(err);
  } finally {
    process.off('SIGINT', onSigint);
    await close();
  }
  // A credential that needs no login has said what it obtained.
  if (outcome === 'browser') ctx.stdout.write(`${LOGIN_TEXTS.success(name)}\n`);
}

/**
 * After `mcp add --url` (as Codex does): discover whether the server uses OAuth. On a terminal the
 * login starts right away; otherwise the user is told to run `mcp login`. A server that cannot be
 * reached is said so (a login would not help yet).
 */
export async function offerLoginAfterAdd(ctx: CliContext, server: McpServerConfig): Promise<void> {
  const { discoverOAuth, hasStaticAuthorization } = await oauthLayer();
  if (server.transport.type === 'stdio' || hasStaticAuthorization(server)) return;
  const url = server.transport.url;
  let unreachable: string | undefined;
  const found = await discoverOAuth(url).catch((err: unknown) => {
    if (isSwitchboardError(err, 'network') || isSwitchboardError(err, 'timeout')) unreachable = err.message;
    return null;
  });
  if (unreachable !== undefined) {
    ctx.stdout.write(`Could not check whether MCP server '${server.name}' needs a login: ${unreachable}. Check the URL; \`switchboard mcp status\` connects and says what it needs.\n`);
    return;
  }
  if (found === null) {
    ctx.stdout.write(`MCP server may or may not require login. Run \`switchboard mcp login ${server.name}\` to login.\n`);
    return;
  }
  if (!found) return;
  if (!ctx.stdout.isTTY) {
    ctx.stdout.write(`Detected OAuth support. Run \`switchboard mcp login ${server.name}\` to log in.\n`);
    return;
  }
  ctx.stdout.write('Detected OAuth support. Starting OAuth flow…\n');
  await loginToServer(ctx, server.name, undefined);
}

/** Add `login` and `logout` to an existing `mcp` command. */
export function registerMcpLoginCommands(mcp: Command, context: () => CliContext): void {
  mcp
    .command('login')
    .description('Log in to an HTTP MCP server with OAuth (opens a browser; a credential kind that needs none just gets a token)')
    .argument('<name>', 'server name from [mcp_servers]')
    .option('--scopes <scopes>', 'comma-separated OAuth scopes to request (default: configured, then discovered)')
    .action(async (name: string, opts: { scopes?: string }) => {
      await loginToServer(context(), name, opts.scopes);
    });

  mcp
    .command('logout')
    .description('Remove the stored OAuth credentials of an MCP server')
    .argument('<name>', 'server name from [mcp_servers]')
    .action(async (name: string) => {
      const ctx = context();
      const { server, runtime, close } = await findServer(ctx, name, `No MCP server named '${name}' found in configuration.`);
      const { performOAuthLogout } = await oauthLayer();
      try {
        ctx.stdout.write(`${await performOAuthLogout(runtime, server)}\n`);
      } catch (err) {
        failed(err);
      } finally {
        await close();
      }
    });
}

export const registerMcpOAuthCommands: RegisterCommand = (program, context) => {
  registerMcpLoginCommands(mcpCommandGroup(program), context);
};

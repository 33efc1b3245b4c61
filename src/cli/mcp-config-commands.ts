// `switchboard mcp add/remove/list/get/import`: manage [mcp_servers.*] in config.toml (Codex's CLI).
import { mcpJsonEntry, parseMcpServerConfig, serverTable, updateConfigFile, type HttpServerSpec, type ServerSpec } from '../config/index.js';
import { errorMessage } from '../util/index.js';
import { authStatusResolver } from './auth-status.js';
import type { CliContext } from './context.js';
import { offerLoginAfterAdd } from './mcp-login-commands.js';
import type { RegisterCommand } from './commands.js';
import { CommandFailed, UsageError } from './exit-codes.js';
import { configFileOf, mcpCommandGroup, validateServerName } from './mcp-command-group.js';
import { registerImportCommand } from './mcp-import-command.js';
import { getJson, listEntryJson, renderServerDetails, renderServerTables } from './server-list-view.js';


interface AddOptions {
  env?: string[];
  url?: string;
  header?: string[];
  bearerTokenEnvVar?: string;
  oauthClientId?: string;
  oauthResource?: string;
}

function parseEnvPair(raw: string): [string, string] {
  const eq = raw.indexOf('=');
  const key = eq < 0 ? '' : raw.slice(0, eq).trim();
  if (key === '') throw new UsageError('environment entries must be in KEY=VALUE form');
  return [key, raw.slice(eq + 1)];
}

function parseHeader(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon < 0 ? '' : raw.slice(0, colon).trim();
  if (name === '') throw new UsageError(`--header must be in "Name: value" form, e.g. --header "X-Api-Key: \${API_KEY}"`);
  return [name, raw.slice(colon + 1).trim()];
}

/** A server entry in .mcp.json's form, turned into a spec as `mcp import` would; its notes go to `warnings`. */
function jsonEntrySpec(entry: unknown, warnings: string[]): ServerSpec {
  try {
    const converted = mcpJsonEntry(entry);
    warnings.push(...converted.warnings);
    return converted.spec;
  } catch (err) {
    throw new UsageError(`invalid server JSON: ${errorMessage(err)}`);
  }
}

function addSpec(command: string[], opts: AddOptions, warnings: string[]): ServerSpec {
  if ((command.length > 0) === (opts.url !== undefined)) throw new UsageError('exactly one of a command (after --) or --url must be provided');
  if (opts.url !== undefined) {
    if (opts.env !== undefined) throw new UsageError('--env is only valid for stdio servers (those added with -- <command>)');
    // Headers read as `mcp import` reads .mcp.json's: "${VAR}" stays a variable, "Bearer ${VAR}" is bearer_token_env_var.
    const headers = Object.fromEntries((opts.header ?? []).map(parseHeader));
    const spec = jsonEntrySpec({ type: 'http', url: opts.url, headers }, warnings) as HttpServerSpec;
    if (opts.bearerTokenEnvVar !== undefined && spec.bearer_token_env_var !== undefined) throw new UsageError('--bearer-token-env-var and an "Authorization: Bearer ${VAR}" header say the same thing; pass one');
    return { ...spec, bearer_token_env_var: opts.bearerTokenEnvVar ?? spec.bearer_token_env_var, oauth_client_id: opts.oauthClientId, oauth_resource: opts.oauthResource };
  }
  for (const [flag, value] of [
    ['--header', opts.header],
    ['--bearer-token-env-var', opts.bearerTokenEnvVar],
    ['--oauth-client-id', opts.oauthClientId],
    ['--oauth-resource', opts.oauthResource],
  ] as const) {
    if (value !== undefined) throw new UsageError(`${flag} is only valid with --url`);
  }
  const [bin, ...args] = command;
  return { transport: 'stdio', command: bin!, args, env: Object.fromEntries((opts.env ?? []).map(parseEnvPair)) };
}

/** Validate and write one server, say so (with any notes on stderr), and offer the OAuth login an HTTP server may need. */
async function addServer(ctx: CliContext, name: string, spec: ServerSpec, warnings: string[]): Promise<void> {
  const table = serverTable(spec);
  const parsed = parseMcpServerConfig(name, table).config;
  await updateConfigFile(configFileOf(ctx), (doc) => doc.setServer(name, table));
  for (const w of warnings) ctx.stderr.write(`warning: ${w}\n`);
  ctx.stdout.write(`Added global MCP server '${name}'.\n`);
  if (spec.transport !== 'stdio') await offerLoginAfterAdd(ctx, parsed);
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function mcpConfigCommands(): RegisterCommand {
  return (program, context, result) => {
    const mcp = mcpCommandGroup(program);

    mcp
      .command('list')
      .description('List configured MCP servers (from config.toml; does not connect to them).')
      .option('--json', 'print the servers as a JSON array')
      .addHelpText('after', '\nExamples:\n  switchboard mcp list\n  switchboard mcp list --json | jq \'.[].name\'\n')
      .action(async (opts: { json?: boolean }) => {
        const ctx = context();
        const { config } = await ctx.loadConfig();
        const servers = Object.values(config.mcp_servers).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const authStatus = authStatusResolver(ctx, config);
        const entries = await Promise.all(servers.map(async (server) => ({ server, auth: await authStatus(server) })));
        if (opts.json) {
          ctx.stdout.write(`${JSON.stringify(entries.map((e) => listEntryJson(e.server, e.auth)), null, 2)}\n`);
        } else if (entries.length === 0) {
          ctx.stdout.write('No MCP servers configured yet. Try `switchboard mcp add my-tool -- my-command`.\n');
        } else {
          ctx.stdout.write(renderServerTables(entries));
        }
      });

    mcp
      .command('get')
      .description('Show one configured MCP server.')
      .argument('<name>', 'name of the server')
      .option('--json', 'print the server as a JSON object')
      .addHelpText('after', '\nExamples:\n  switchboard mcp get docs\n  switchboard mcp get docs --json\n\nExit code 1 when there is no such server.\n')
      .action(async (name: string, opts: { json?: boolean }) => {
        const ctx = context();
        const { config } = await ctx.loadConfig();
        const server = Object.hasOwn(config.mcp_servers, name) ? config.mcp_servers[name] : undefined;
        if (!server) throw new CommandFailed(`No MCP server named '${name}' found.`);
        ctx.stdout.write(opts.json ? `${JSON.stringify(getJson(server), null, 2)}\n` : renderServerDetails(server));
      });

    mcp
      .command('add')
      .usage('[options] <name> (--url <URL> | -- <command> [args...])')
      .description('Add an MCP server to config.toml, or replace the one with the same name.')
      .argument('<name>', "name for the server (letters, numbers, '-', '_')")
      .argument('[command...]', 'for a stdio server: the command and its arguments, after --')
      .option('--env <KEY=VALUE>', 'environment variable for a stdio server (repeatable)', collect)
      .option('--url <URL>', 'URL of a Streamable HTTP server')
      .option('--header <"NAME: VALUE">', 'HTTP only, repeatable: a header sent with every request; "${VAR}" is read from the environment', collect)
      .option('--bearer-token-env-var <ENV_VAR>', 'HTTP only: send "Authorization: Bearer $ENV_VAR"')
      .option('--oauth-client-id <CLIENT_ID>', 'HTTP only: a pre-registered OAuth client id')
      .option('--oauth-resource <RESOURCE>', 'HTTP only: the RFC 8707 resource to request at login')
      .addHelpText(
        'after',
        [
          '',
          'Everything else in config.toml (comments, order, formatting) is kept as it is.',
          '',
          'Examples:',
          '  switchboard mcp add docs -- npx -y @acme/docs-mcp --port 4000',
          '  switchboard mcp add search --env API_KEY=abc123 -- search-mcp',
          '  switchboard mcp add github --url https://api.githubcopilot.com/mcp/ --bearer-token-env-var GITHUB_PAT',
          '  switchboard mcp add tracker --url https://mcp.example.com/mcp --header "X-Api-Key: ${TRACKER_KEY}"',
          '',
        ].join('\n'),
      )
      .action(async (name: string, command: string[], opts: AddOptions) => {
        const ctx = context();
        validateServerName(name);
        const warnings: string[] = [];
        await addServer(ctx, name, addSpec(command, opts, warnings), warnings);
      });

    mcp
      .command('add-json')
      .description('Add an MCP server from its JSON, as .mcp.json, Cursor or `claude mcp add-json` write it.')
      .argument('<name>', "name for the server (letters, numbers, '-', '_')")
      .argument('<json>', 'the server\'s entry: {"command", "args", "env"} or {"type": "http", "url", "headers"}')
      .addHelpText(
        'after',
        [
          '',
          'The entry is read as `switchboard mcp import` reads one: "${VAR}" values stay environment variables.',
          '',
          'Examples:',
          '  switchboard mcp add-json docs \'{"command": "npx", "args": ["-y", "@acme/docs-mcp"], "env": {"TOKEN": "${DOCS_TOKEN}"}}\'',
          '  switchboard mcp add-json tracker \'{"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${TRACKER_TOKEN}"}}\'',
          '',
        ].join('\n'),
      )
      .action(async (name: string, json: string) => {
        const ctx = context();
        validateServerName(name);
        let entry: unknown;
        try {
          entry = JSON.parse(json);
        } catch (err) {
          throw new UsageError(`the server's JSON does not parse: ${errorMessage(err)}`);
        }
        const warnings: string[] = [];
        await addServer(ctx, name, jsonEntrySpec(entry, warnings), warnings);
      });

    mcp
      .command('remove')
      .description('Remove an MCP server (and its sub-tables) from config.toml.')
      .argument('<name>', 'name of the server')
      .addHelpText('after', '\nExample:\n  switchboard mcp remove docs\n\nExit code 1 when there is no such server.\n')
      .action(async (name: string) => {
        const ctx = context();
        validateServerName(name);
        const { result: removed } = await updateConfigFile(configFileOf(ctx), (doc) => doc.removeServer(name));
        if (!removed) throw new CommandFailed(`No MCP server named '${name}' found.`);
        ctx.stdout.write(`Removed global MCP server '${name}'.\n`);
      });

    registerImportCommand(mcp, context, result);
  };
}

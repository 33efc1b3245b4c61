// `switchboard credentials list|revoke`: the upstream logins callers made through the gateway
// (identity = "caller"), kept sealed in the store. Listing shows whose and for which server, never a
// token; revoking removes them from the store, which every replica reads before each use.
import { Option, type Command } from 'commander';
import type { CallerCredentialFilter, CallerCredentialStore, Store } from '../store/index.js';
import type { RegisterCommand } from './commands.js';
import type { CliContext } from './context.js';
import { CommandFailed, UsageError } from './exit-codes.js';
import { openConfiguredStore } from './store-compose.js';

interface Flags {
  caller?: string;
  server?: string;
  all?: boolean;
  json?: boolean;
}

const HELP = `
Callers' upstream logins:
  An MCP server with identity = "caller" (and no token_exchange) has each caller of
  \`switchboard serve --http\` sign in to it; the credential is kept for that caller, sealed with the
  key in [store] credentials_key_env_var, in $SWITCHBOARD_HOME/caller-credentials or PostgreSQL.
  A caller is named <issuer>#<subject>, as --caller takes it. After a revocation the caller's next
  call, on any replica, asks it to sign in again.

Examples:
  switchboard credentials list
  switchboard credentials list --caller 'https://idp.example.com#alice' --json
  switchboard credentials revoke --caller 'https://idp.example.com#alice' --server github
  switchboard credentials revoke --server github
`;

const filterOf = (flags: Flags): CallerCredentialFilter => ({ ...(flags.caller !== undefined ? { caller: flags.caller } : {}), ...(flags.server !== undefined ? { server: flags.server } : {}) });

async function withCredentials<T>(ctx: CliContext, work: (creds: CallerCredentialStore) => Promise<T>): Promise<T> {
  const { config } = await ctx.loadConfig();
  if (config.store.credentials_key_env_var === null) {
    throw new CommandFailed("callers' credentials are kept only with a key: set [store] credentials_key_env_var in config.toml to a variable holding a random key (e.g. `openssl rand -base64 32`)");
  }
  const store: Store = await openConfiguredStore(ctx, config);
  try {
    return await work(store.callerCredentials!);
  } finally {
    await store.close();
  }
}

async function runList(ctx: CliContext, flags: Flags): Promise<number> {
  const listed = await withCredentials(ctx, (creds) => creds.list(filterOf(flags)));
  for (const c of listed) ctx.stdout.write(flags.json ? `${JSON.stringify(c)}\n` : `${c.caller}  ${c.server}  ${c.updatedAt}\n`);
  if (listed.length === 0 && !flags.json) ctx.stderr.write('no caller credentials stored\n');
  return 0;
}

async function runRevoke(ctx: CliContext, flags: Flags): Promise<number> {
  if (flags.caller === undefined && flags.server === undefined && !flags.all) throw new UsageError('say whose credentials to revoke: --caller, --server (or both), or --all');
  const removed = await withCredentials(ctx, (creds) => creds.revoke(filterOf(flags)));
  ctx.stdout.write(`revoked ${removed} caller credential${removed === 1 ? '' : 's'}\n`);
  return 0;
}

export const registerCredentialsCommand: RegisterCommand = (program: Command, context: () => CliContext, result) => {
  const group = program.command('credentials').description("list or revoke callers' own upstream logins (identity = \"caller\")");
  const filters = (c: Command) =>
    c.addOption(new Option('--caller <caller>', 'only this caller (<issuer>#<subject>)')).addOption(new Option('--server <name>', 'only this MCP server')).addHelpText('after', HELP);
  filters(group.command('list').description('list stored caller credentials (never their contents)'))
    .addOption(new Option('--json', 'one JSON record per line'))
    .action(async (flags: Flags) => {
      result.exitCode = await runList(context(), flags);
    });
  filters(group.command('revoke').description('remove caller credentials; the next call of those callers asks them to sign in again'))
    .addOption(new Option('--all', "every caller's credentials"))
    .action(async (flags: Flags) => {
      result.exitCode = await runRevoke(context(), flags);
    });
};

// `switchboard audit tail`: the newest records of the audit trail that `serve --http` and
// `mcp-server --http` write under [server_auth] (the file, or the store when config names PostgreSQL),
// as lines for people or JSONL for programs.
import { Option, type Command } from 'commander';
import type { AuditRecord } from '../mcp-host/access/index.js';
import type { RegisterCommand } from './commands.js';
import type { CliContext } from './context.js';
import { positiveInt } from './flag-values.js';
import { errorMessage } from '../util/index.js';
import { CommandFailed } from './exit-codes.js';
import { openConfiguredStore } from './store-compose.js';

interface TailFlags {
  caller?: string;
  json?: boolean;
  lines: number;
}

const HELP = `
The audit trail:
  With [server_auth] in config.toml (audit = true, the default), \`switchboard serve --http\` and
  \`switchboard mcp-server --http\` write one JSON line per request they served to
  $SWITCHBOARD_HOME/log/audit.jsonl (rotated at 10 MiB, five old files kept): time, subject,
  client_id, method, tool (or prompt, resource URI), upstream, identity (operator, or the caller's own:
  token_exchange, identity_assertion, caller_login), outcome (ok, tool_error, error with
  error_code, cancelled, abandoned, rate_limited, too_many_calls), duration_ms and session.
  Arguments and results are never written.
  With a PostgreSQL store ([store] postgres_url_env_var), every replica writes them to the store
  instead (table sb_audit, kept 30 days), and this command reads them from there.

Examples:
  switchboard audit tail
  switchboard audit tail --caller alice@example.com -n 100
  switchboard audit tail --json | jq 'select(.outcome != "ok")'
`;

function line(r: AuditRecord): string {
  const who = r.subject ?? (r.client_id ? `client ${r.client_id}` : 'static token');
  const what = [r.method, r.tool, r.upstream ? `@${r.upstream}` : undefined, r.identity && r.identity !== 'operator' ? `as caller (${r.identity})` : undefined].filter(Boolean).join(' ');
  const outcome = r.error_code !== undefined ? `${r.outcome} ${r.error_code}` : r.outcome;
  return `${r.time}  ${who}  ${what}  ${outcome}  ${r.duration_ms} ms`;
}

async function runTail(ctx: CliContext, flags: TailFlags): Promise<number> {
  const { config } = await ctx.loadConfig();
  const options = { limit: flags.lines, ...(flags.caller !== undefined ? { caller: flags.caller } : {}) };
  let records: AuditRecord[];
  let where: string;
  if (config.store.postgres_url_env_var !== null) {
    const store = await openConfiguredStore(ctx, config);
    try {
      records = (await store.audit?.tail(options)) ?? [];
    } catch (err) {
      throw new CommandFailed(errorMessage(err), { cause: err });
    } finally {
      await store.close();
    }
    where = `the PostgreSQL store ($${config.store.postgres_url_env_var})`;
  } else {
    const { auditFilePath, readAuditTail } = await import('../mcp-host/access/index.js');
    records = await readAuditTail(auditFilePath(ctx.home), options);
    where = auditFilePath(ctx.home);
  }
  for (const r of records) ctx.stdout.write(`${flags.json ? JSON.stringify(r) : line(r)}\n`);
  if (records.length === 0 && !flags.json) ctx.stderr.write(`no audit records${flags.caller !== undefined ? ` for ${flags.caller}` : ''} in ${where}\n`);
  return 0;
}

export const registerAuditCommand: RegisterCommand = (program: Command, context: () => CliContext, result) => {
  const audit = program.command('audit').description('read the audit trail of the HTTP servers ([server_auth])');
  audit
    .command('tail')
    .description('print the newest audit records, oldest first')
    .addOption(new Option('--caller <subject>', 'only records of this caller (token subject or client id)'))
    .addOption(new Option('--json', 'one JSON record per line'))
    .addOption(new Option('-n, --lines <n>', 'how many records').argParser(positiveInt('--lines')).default(20))
    .addHelpText('after', HELP)
    .action(async (flags: TailFlags) => {
      result.exitCode = await runTail(context(), flags);
    });
};

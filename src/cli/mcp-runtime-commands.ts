// `mcp status | tools | call | resources | prompts`: commands that connect to the configured servers
// through the connection manager (unlike list/get, which only read config.toml).
import type { Command } from 'commander';
import type { Config } from '../config/index.js';
import type { CatalogEntry, McpConnectionManager, McpManagerEvent } from '../mcp/index.js';
import { errorMessage, SwitchboardError } from '../util/index.js';
import type { CliContext } from './context.js';
import { CommandFailed, EXIT_FAILED, UsageError } from './exit-codes.js';
import type { RegisterCommand } from './commands.js';
import { callElicitationHandler } from './elicitation-prompt.js';
import { createMcpManager } from './mcp-compose.js';
import { mcpCommandGroup } from './mcp-command-group.js';
import { credentialSummaries } from './auth-status.js';
import { failedServerLines, renderStatusTable, StatusProgress, statusJson, statusRows, withAuth } from './mcp-status-view.js';
import { positiveInt } from './flag-values.js';
import { renderSearchRows, searchCatalog } from './tool-search-view.js';
import { findCallTarget, serverFailureText } from './mcp-call-target.js';
import { stopSignal } from './http-serving.js';

async function withManager<T>(ctx: CliContext, run: (manager: McpConnectionManager, config: Config) => Promise<T>, onEvent?: (event: McpManagerEvent) => void): Promise<T> {
  const { config } = await ctx.loadConfig();
  const manager = createMcpManager(ctx, config, { onEvent });
  try {
    return await run(manager, config);
  } finally {
    await manager.close();
  }
}

/** `mcp call` shows no progress; it listens so that the server sends it (docs/servers-and-catalog.md#timeouts). */
const keepAlive = (): void => {};

function json(ctx: CliContext, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function parseArgs(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--args is not valid JSON: ${errorMessage(err)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('--args must be a JSON object, e.g. --args \'{"path": "README.md"}\'');
  return value as Record<string, unknown>;
}

/** Servers that failed to start are named on stderr, and make the command exit 1: its list lacks them. */
function reportFailed(ctx: CliContext, manager: McpConnectionManager, what: string, result: { exitCode?: number }): void {
  const lines = failedServerLines(manager.status(), what);
  for (const line of lines) ctx.stderr.write(line);
  if (lines.length > 0) result.exitCode = EXIT_FAILED;
}

/** `mcp tools` without --search: JSON or one line per tool. */
function printTools(ctx: CliContext, entries: CatalogEntry[], asJson: boolean): void {
  if (asJson) {
    json(
      ctx,
      entries.map((e) => ({
        name: e.name,
        server: e.server,
        tool: e.tool,
        description: e.definition.description ?? '',
        inputSchema: e.definition.inputSchema,
        ...(e.definition._meta ? { _meta: e.definition._meta } : {}),
        source: e.source,
      })),
    );
    return;
  }
  if (entries.length === 0) {
    ctx.stdout.write('No MCP tools available.\n');
    return;
  }
  const width = Math.max(...entries.map((e) => e.name.length));
  for (const e of entries) {
    const desc = (e.definition.description ?? '').split('\n')[0]!;
    ctx.stdout.write(`${e.name.padEnd(width)}  ${desc}${e.source === 'snapshot' ? ' (snapshot)' : ''}\n`.replace(/\s+\n$/, '\n'));
  }
}

export const registerMcpRuntimeCommands: RegisterCommand = (program: Command, context, result) => {
  const mcp = mcpCommandGroup(program);

  mcp
    .command('status')
    .description('Connect to every enabled MCP server and report its state, tool count and startup time.')
    .option('--json', 'print {servers, ready, failed, cancelled} as JSON')
    .option('--watch', 'keep the servers running and redraw the table live (restarts, last errors) until Ctrl-C')
    .addHelpText(
      'after',
      '\nOn a terminal, progress is shown live on stderr while servers start.\nExit code 1 when a server marked `required = true` failed.\n\nExamples:\n  switchboard mcp status\n  switchboard mcp status --json\n  switchboard mcp status --watch\n',
    )
    .action(async (opts: { json?: boolean; watch?: boolean }) => {
      const ctx = context();
      if (opts.watch) {
        if (opts.json) throw new UsageError('--watch and --json cannot be combined');
        const { runStatusWatch } = await import('./mcp-status-watch.js');
        const stop = stopSignal();
        try {
          await runStatusWatch(ctx, stop.promise);
        } finally {
          stop.dispose();
        }
        return;
      }
      let progress: StatusProgress | undefined;
      const rows = await withManager(
        ctx,
        async (manager, config) => {
          progress = opts.json ? undefined : new StatusProgress(ctx.stderr, (s) => manager.status().find((x) => x.name === s)?.tools ?? 0);
          progress?.start(manager.serverNames());
          manager.start();
          // Lazy servers too: status means "connect to every enabled server".
          await Promise.allSettled(manager.serverNames().map((n) => manager.waitForServer(n)));
          await manager.waitForStartup();
          progress?.stop();
          const servers = Object.values(config.mcp_servers);
          const rows = withAuth(statusRows(servers, manager.status()), await credentialSummaries(ctx, config, servers));
          return { rows, requiredFailed: manager.status().some((s) => s.required && s.state !== 'ready') };
        },
        (e) => progress?.onEvent(e),
      );
      if (opts.json) json(ctx, statusJson(rows.rows));
      else ctx.stdout.write(renderStatusTable(rows.rows));
      if (rows.requiredFailed) result.exitCode = EXIT_FAILED;
    });

  mcp
    .command('tools')
    .description('List the aggregated tool catalog under model-visible names.')
    .option('--json', 'print [{name, server, tool, description, inputSchema, _meta?, source}]')
    .option('--no-wait', 'answer at once from startup snapshots, without starting any server')
    .option('--search <query>', 'rank the catalog as the agent\'s tool_search does, with scores')
    .option('--limit <n>', 'with --search: how many tools to show (default 8)', positiveInt('--limit'))
    .addHelpText(
      'after',
      '\nA server that failed to start is named on stderr (its tools are missing), and the exit code is 1.\n\nExamples:\n  switchboard mcp tools\n  switchboard mcp tools --json --no-wait\n  switchboard mcp tools --search "create a github issue" --limit 5\n',
    )
    .action(async (opts: { json?: boolean; wait: boolean; search?: string; limit?: number }) => {
      const ctx = context();
      if (opts.limit !== undefined && opts.search === undefined) throw new UsageError('--limit goes with --search');
      let config: Config | undefined;
      const entries = await withManager(ctx, async (manager, c) => {
        config = c;
        const listed = await (opts.wait ? manager.listAllTools({ wait: 'all' }) : manager.listAllTools({ start: false }));
        // Printed before the servers are stopped (the command still waits for that before it exits):
        // the listing is complete, and stopping ten servers is no reason to hold the answer back.
        if (opts.search === undefined) printTools(ctx, listed, opts.json === true);
        if (opts.wait) reportFailed(ctx, manager, 'tools', result);
        return listed;
      });
      if (opts.search !== undefined) {
        const rows = await searchCatalog(entries, config!, opts.search, opts.limit ?? 8);
        if (opts.json) json(ctx, rows);
        else ctx.stdout.write(renderSearchRows(rows, opts.search));
      }
    });

  mcp
    .command('call')
    .description('Call a tool by its model-visible name and print the result as JSON.')
    .argument('<name>', 'model-visible tool name, as `switchboard mcp tools` shows it')
    .option('--args <json>', 'the arguments, a JSON object')
    .addHelpText('after', '\nWhen the server asks for input during the call (elicitation), a terminal prompts for it on stderr;\nwithout a terminal the request is declined, with a line on stderr saying so.\n\nOnly the server the tool belongs to is started.\n\nExit code 0 on success, 1 if the tool returned isError, the call failed or the tool\'s server failed to start, 2 for usage errors.\n\nExample:\n  switchboard mcp call mcp__everything__echo --args \'{"message": "hi"}\'\n')
    .action(async (name: string, opts: { args?: string }) => {
      const args = parseArgs(opts.args);
      // The call's client span, when OTEL_* configure export.
      const { startObservability } = await import('./observability.js');
      const base = context();
      const observed = await startObservability(base, { title: 'switchboard mcp call', withOps: false });
      const ctx = { ...base, telemetry: observed.telemetry };
      const callResult = await withManager(ctx, async (manager, config) => {
        // Only the server that has the tool is started, so another one's slow start never holds the call up.
        const target = await findCallTarget(manager, name, config.mcp_tool_name_max_length);
        // A server asking for input during the call is answered on the terminal, or declined. The
        // progress listener keeps a long call alive: each notification extends its deadline.
        const called = await manager
          .callServerTool(target.server, target.tool, args, {
            onProgress: keepAlive,
            onElicitation: callElicitationHandler({ stdin: process.stdin, stderr: ctx.stderr, prompt: process.stderr }),
          })
          .catch((err: unknown) => {
            throw err instanceof SwitchboardError ? new CommandFailed(serverFailureText(manager, target.server, err), { cause: err }) : err;
          });
        // Printed before the server is stopped: the answer is complete.
        json(ctx, called);
        return called;
      }).finally(() => observed.close());
      if (callResult.isError === true) result.exitCode = EXIT_FAILED;
    });

  mcp
    .command('resources')
    .description('List the resources and resource templates of every ready server.')
    .option('--json', 'print {resources: [{server, ...}], resourceTemplates: [{server, ...}]}')
    .action(async (opts: { json?: boolean }) => {
      const ctx = context();
      const { resources, templates } = await withManager(ctx, async (manager) => {
        const listed = { resources: await manager.listAllResources(), templates: await manager.listAllResourceTemplates() };
        reportFailed(ctx, manager, 'resources', result);
        return listed;
      });
      const flat = [...resources].flatMap(([server, list]) => list.map((r) => ({ server, ...r })));
      const flatTemplates = [...templates].flatMap(([server, list]) => list.map((t) => ({ server, ...t })));
      if (opts.json) return json(ctx, { resources: flat, resourceTemplates: flatTemplates });
      if (flat.length + flatTemplates.length === 0) return void ctx.stdout.write('No MCP resources available.\n');
      for (const r of flat) ctx.stdout.write(`${r.server}  ${r.uri}  ${r.name}${r.mimeType ? ` (${r.mimeType})` : ''}\n`);
      for (const t of flatTemplates) ctx.stdout.write(`${t.server}  ${t.uriTemplate}  ${t.name} (template)\n`);
    });

  mcp
    .command('prompts')
    .description('List the prompts of every ready server under qualified names (<server>__<prompt>).')
    .option('--json', 'print [{name, server, prompt: {...}}]')
    .action(async (opts: { json?: boolean }) => {
      const ctx = context();
      const prompts = await withManager(ctx, async (manager) => {
        const listed = await manager.listAllPrompts();
        reportFailed(ctx, manager, 'prompts', result);
        return listed;
      });
      if (opts.json) return json(ctx, prompts);
      if (prompts.length === 0) return void ctx.stdout.write('No MCP prompts available.\n');
      for (const p of prompts) ctx.stdout.write(`${p.name}  ${p.prompt.description ?? ''}\n`.replace(/\s+\n$/, '\n'));
    });
};

// `switchboard exec` and `switchboard exec resume`: run one task non-interactively, printing the
// thread's events (human-readable, or one JSON Event per line with --json). Exit 0 on task_complete,
// 1 when the turn failed or was aborted. Approval requests are denied: nobody is there to answer.
import type { Command } from 'commander';
import type { Config } from '../config/index.js';
import type * as CoreModule from '../core/index.js';
import type { Thread, ThreadManager, ThreadOverrides } from '../core/index.js';
import type { McpConnectionManager } from '../mcp/index.js';
import type { Store } from '../store/index.js';
import type { Event } from '../protocol/index.js';
import { errorMessage, VERSION } from '../util/index.js';
import type { CliContext } from './context.js';
import { CommandFailed, EXIT_FAILED, EXIT_OK, UsageError } from './exit-codes.js';
import { agentCwd, sessionSettings, type CodexFlags } from './codex-options.js';
import { HumanRenderer } from './exec-render.js';
import { createMcpManager, type ComposeMcpOptions } from './mcp-compose.js';
import { openConfiguredStore } from './store-compose.js';
import type { RegisterCommand } from './commands.js';

interface ExecFlags extends CodexFlags {
  json?: boolean;
}

/**
 * The configured MCP servers behind one connection manager, started; null when none is enabled.
 * `onFailure` hears each server's failure text (exec warns on stderr, mcp-server logs it).
 * `always`: a manager even when config.toml names no server (a reload may add some); `identities`: serving
 * callers, whose own credentials reach the servers with identity = "caller".
 */
export function startMcpServers(
  ctx: CliContext,
  config: Config,
  onFailure: (error: string) => void,
  store: Store | null = null,
  options: { onEvent?: () => void; always?: boolean; identities?: ComposeMcpOptions['identities'] } = {},
): McpConnectionManager | null {
  const { onEvent, always, identities } = options;
  if (!always && !Object.values(config.mcp_servers).some((s) => s.enabled)) return null;
  const mcp = createMcpManager(ctx, config, {
    oauthCredentials: store?.credentials ?? null,
    ...(identities ? { identities } : {}),
    onEvent: (e) => {
      if (e.type === 'mcp_startup_update' && e.status.state === 'failed') onFailure(e.status.error);
      onEvent?.();
    },
  });
  mcp.start();
  return mcp;
}

/**
 * The agent as the CLI composes it: a ThreadManager whose threads get the built-in tools (shell,
 * apply_patch, update_plan), the MCP servers' tools when there are any, and the OpenAI model client.
 */
export function createAgent(core: Core, ctx: CliContext, config: Config, mcp: McpConnectionManager | null, store: Store): ThreadManager {
  return core.createAgent({ config, mcp, env: ctx.env, cwd: ctx.cwd, logger: ctx.logger, threads: store.threads, ...(ctx.telemetry ? { telemetry: ctx.telemetry } : {}) });
}

// -m, -s, -a, -C, --oss, -p, --full-auto and --yolo are the program's (codex-options.ts): before or after `exec`.
const addExecOptions = (cmd: Command): Command => cmd.option('--json', 'print one JSON event per line on stdout');

type Core = typeof CoreModule;

async function overridesFrom(flags: ExecFlags, ctx: CliContext, core: Core): Promise<ThreadOverrides> {
  // Non-interactive: nobody can answer an approval request, so nothing asks unless told to.
  const overrides: ThreadOverrides = { approvalPolicy: 'never', ...sessionSettings(flags, 'exec', core.DEFAULT_OSS_MODEL) };
  if (flags.cd !== undefined) overrides.cwd = await agentCwd(flags, ctx.cwd);
  return overrides;
}

/** Deny whatever the thread asks: exec runs unattended. */
async function answerUnattended(thread: Thread, event: Event, ctx: CliContext): Promise<void> {
  const msg = event.msg;
  if (msg.type === 'exec_approval_request') {
    ctx.stderr.write(`approval requested to run \`${msg.command.join(' ')}\`: denied (exec runs unattended; use -a never or -s to change what is allowed)\n`);
    await thread.submit({ type: 'exec_approval', id: msg.approval_id ?? msg.call_id, turn_id: msg.turn_id, decision: 'denied' });
  } else if (msg.type === 'apply_patch_approval_request') {
    ctx.stderr.write(`approval requested to change ${Object.keys(msg.changes).join(', ')}: denied (exec runs unattended)\n`);
    await thread.submit({ type: 'patch_approval', id: msg.call_id, decision: 'denied' });
  } else if (msg.type === 'elicitation_request') {
    ctx.stderr.write(`MCP server ${msg.server_name} asked for input: declined (exec runs unattended)\n`);
    await thread.submit({ type: 'resolve_elicitation', server_name: msg.server_name, request_id: msg.id, action: 'decline' });
  }
}

async function runExec(cliCtx: CliContext, flags: ExecFlags, prompt: string, resumeId: string | null): Promise<number> {
  // Spans of the turn, its model requests and tool calls, when OTEL_* configure export.
  const { startObservability } = await import('./observability.js');
  const observed = await startObservability(cliCtx, { title: 'switchboard exec', withOps: false });
  try {
    return await runExecTraced({ ...cliCtx, telemetry: observed.telemetry }, flags, prompt, resumeId);
  } finally {
    await observed.close();
  }
}

async function runExecTraced(ctx: CliContext, flags: ExecFlags, prompt: string, resumeId: string | null): Promise<number> {
  if (prompt.trim() === '') throw new UsageError('the prompt is empty');
  const { config } = await ctx.loadConfig();
  // Loaded on use: the model SDK is the slowest import of the CLI, and other commands never need it.
  const core: Core = await import('../core/index.js');
  const overrides = await overridesFrom(flags, ctx, core);
  if (resumeId === null) {
    // Fail before anything is written when the provider's API key is missing.
    const settings = core.resolveThreadSettings(config, overrides, ctx.cwd);
    try {
      core.resolveProvider(settings.provider, ctx.env);
    } catch (err) {
      throw new CommandFailed(errorMessage(err), { cause: err });
    }
  }
  const store = await openConfiguredStore(ctx, config);
  const mcp = startMcpServers(ctx, config, (error) => ctx.stderr.write(`warning: ${error}\n`), store);
  if (mcp) {
    // As Codex: `required = true` servers must start, or exec fails before the turn.
    try {
      await mcp.requireServers();
    } catch (err) {
      await mcp.close();
      await store.close();
      throw new CommandFailed(errorMessage(err), { cause: err });
    }
  }
  const manager = createAgent(core, ctx, config, mcp, store);
  const onSigint = () => void manager.list().forEach((t) => void t.submit({ type: 'interrupt' }).catch(() => {}));
  process.once('SIGINT', onSigint);
  try {
    const thread = resumeId === null ? await manager.start(overrides) : await manager.resume(resumeId, overrides);
    const events = thread.events();
    const turnId = await thread.submit({ type: 'user_input', items: [{ type: 'text', text: prompt }] });
    const human = flags.json ? null : new HumanRenderer(ctx.stdout, ctx.stderr, VERSION);
    let failure: string | null = null;
    for await (const event of events) {
      if (human) human.render(event);
      else ctx.stdout.write(`${JSON.stringify(event)}\n`);
      await answerUnattended(thread, event, ctx);
      const msg = event.msg;
      if (msg.type === 'error') failure = msg.message;
      if (msg.type === 'turn_aborted' && msg.turn_id === turnId) return EXIT_FAILED;
      if (msg.type === 'task_complete' && msg.turn_id === turnId) {
        if (msg.error) failure ??= msg.error.message;
        if (failure !== null && flags.json) ctx.stderr.write(`error: ${failure}\n`);
        return failure === null ? EXIT_OK : EXIT_FAILED;
      }
    }
    return EXIT_FAILED;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await manager.shutdown();
    await mcp?.close();
    await store.close();
  }
}

export const registerExec: RegisterCommand = (program, context, result) => {
  const exec = addExecOptions(
    program
      .command('exec')
      .description('Run one task non-interactively and print its events; `exec resume <threadId> <prompt>` continues a saved thread')
      .argument('<prompt>', 'what the agent should do'),
  ).action(async (prompt: string, _flags: ExecFlags, cmd: Command) => {
    result.exitCode = await runExec(context(), cmd.optsWithGlobals() as ExecFlags, prompt, null);
  });
  addExecOptions(
    exec
      .command('resume')
      .description('Continue a saved thread (see `session id` / session_configured.session_id) with a new prompt')
      .argument('<threadId>', 'the thread to continue')
      .argument('<prompt>', 'what the agent should do next'),
  ).action(async (threadId: string, prompt: string, _flags: ExecFlags, cmd: Command) => {
    result.exitCode = await runExec(context(), cmd.optsWithGlobals() as ExecFlags, prompt, threadId);
  });
};

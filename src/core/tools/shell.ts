// The `shell` tool: decides per the approval policy whether to ask, runs the argv inside the
// sandbox (or outside it once the user approved), streams its output as events and reports exit
// code, wall time and capped output to the model. `apply_patch` commands are routed to the patcher.
import { shellEnvironment } from '../exec/shell-env.js';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { durationFromMs, type ParsedCommand } from '../../protocol/index.js';
import { abortError, errorMessage } from '../../util/index.js';
import { askToRetryUnsandboxed, assessExec } from '../approvals/exec-policy.js';
import { EXEC_REJECTED_BY_USER, RETRY_WITHOUT_SANDBOX_REASON, isApproved, throwIfAbortDecision } from '../approvals/messages.js';
import { formatExecOutput } from '../exec/format-exec-output.js';
import { runCommand, type ExecResult } from '../exec/run-command.js';
import { SandboxUnavailableError, type Sandbox } from '../sandbox/sandbox.js';
import { sandboxOptionsFor } from '../sandbox/writable-roots.js';
import { IMPLICIT_PATCH_MESSAGE, patchInvocationOf } from './apply-patch/invocation.js';
import { runPatch } from './apply-patch/run-patch.js';
import { parseCommand } from './parsed-command.js';
import type { ApprovalRequest, Tool, ToolContext, ToolResult } from './tool.js';

export const DEFAULT_SHELL_TIMEOUT_MS = 10_000;
// Clients get at most this many output deltas per call; the final event still carries everything.
const MAX_OUTPUT_DELTAS = 10_000;

/** How the `shell` tool runs commands. */
export interface ShellToolOptions {
  sandbox: Sandbox;
  /** Environment for commands (default: this process's, minus secret-looking variables). */
  env?: NodeJS.ProcessEnv;
  /** Used when the model gives no `timeout_ms`. */
  defaultTimeoutMs?: number;
  killGraceMs?: number;
  platform?: NodeJS.Platform;
}

const ArgsSchema = z.object({
  command: z.array(z.string()).min(1),
  workdir: z.string().nullish(),
  timeout_ms: z.number().int().positive().nullish(),
  with_escalated_permissions: z.boolean().nullish(),
  justification: z.string().nullish(),
});
type ShellArgs = z.infer<typeof ArgsSchema>;

export const SHELL_TOOL_PARAMETERS = {
  type: 'object',
  properties: {
    command: { type: 'array', items: { type: 'string' }, description: 'The command to execute' },
    workdir: { type: 'string', description: 'The working directory to execute the command in' },
    timeout_ms: { type: 'number', description: 'The timeout for the command in milliseconds' },
    with_escalated_permissions: {
      type: 'boolean',
      description: 'Whether to request escalated permissions. Set to true if command needs to be run without sandbox restrictions',
    },
    justification: {
      type: 'string',
      description: 'Only set if with_escalated_permissions is true. 1-sentence explanation of why we want to run this command.',
    },
  },
  required: ['command'],
  additionalProperties: false,
};

/**
 * The `shell` tool: runs the model's argv in its own process group inside the sandbox, asks for
 * approval per the thread's policy, streams output as events, and returns Codex's capped output.
 */
export function createShellTool(options: ShellToolOptions): Tool {
  return {
    name: 'shell',
    description: 'Runs a shell command and returns its output.',
    parameters: SHELL_TOOL_PARAMETERS,
    async run(args: unknown, ctx: ToolContext): Promise<ToolResult> {
      const parsed = ArgsSchema.safeParse(args);
      if (!parsed.success) {
        return { output: `failed to parse function arguments: ${z.prettifyError(parsed.error)}`, success: false };
      }
      const invocation = patchInvocationOf(parsed.data.command);
      switch (invocation.kind) {
        case 'patch': {
          const base = parsed.data.workdir ?? null;
          const workdir = invocation.workdir === null ? base : path.resolve(ctx.cwd, base ?? '.', invocation.workdir);
          return runPatch(invocation.patch, ctx, { workdir });
        }
        case 'implicit':
          return { output: IMPLICIT_PATCH_MESSAGE, success: false };
        case 'none':
          return new ShellCall(options, ctx, parsed.data).run();
      }
    },
  };
}

/** One shell invocation: its events are one begin and one end, whatever happens in between. */
class ShellCall {
  readonly #command: string[];
  readonly #cwd: string;
  readonly #parsedCmd: ParsedCommand[];
  #deltas = 0;

  constructor(
    private readonly options: ShellToolOptions,
    private readonly ctx: ToolContext,
    private readonly args: ShellArgs,
  ) {
    this.#command = args.command;
    this.#cwd = path.resolve(ctx.cwd, args.workdir ?? '.');
    this.#parsedCmd = parseCommand(args.command);
  }

  async run(): Promise<ToolResult> {
    const { ctx } = this;
    try {
      const info = await stat(this.#cwd);
      if (!info.isDirectory()) throw new Error('not a directory');
    } catch {
      return { output: `workdir does not exist or is not a directory: ${this.#cwd}`, success: false };
    }
    ctx.emit({ type: 'exec_command_begin', ...this.#fields() });

    const request = (reason: string | null): ApprovalRequest => ({
      kind: 'exec',
      command: this.#command,
      cwd: this.#cwd,
      reason,
      parsedCmd: this.#parsedCmd,
    });
    const assessment = assessExec({
      approvalPolicy: ctx.approvalPolicy,
      sandboxPolicy: ctx.sandboxPolicy,
      command: this.#command,
      escalated: this.args.with_escalated_permissions === true,
      justification: this.args.justification ?? undefined,
      approvedForSession: ctx.isApprovedForSession(request(null)),
      platform: this.options.platform,
    });
    switch (assessment.kind) {
      case 'run':
        return this.#attempt(assessment.sandboxed, request);
      case 'run-approved':
        return this.#attempt(false, request);
      case 'ask': {
        const approved = await this.#ask(request(assessment.reason));
        if (!approved) return this.#declined(EXEC_REJECTED_BY_USER);
        return this.#attempt(false, request);
      }
    }
  }

  /** Ask the user; false when denied. Emits a declined end before an abort propagates. */
  async #ask(req: ApprovalRequest): Promise<boolean> {
    try {
      const decision = await this.ctx.requestApproval(req);
      throwIfAbortDecision(decision);
      return isApproved(decision);
    } catch (err) {
      this.#end({ text: 'turn aborted', exitCode: -1, durationMs: 0, status: 'declined' });
      throw err;
    }
  }

  async #attempt(sandboxed: boolean, request: (reason: string | null) => ApprovalRequest): Promise<ToolResult> {
    const { ctx, options } = this;
    const policy = ctx.sandboxPolicy;
    if (sandboxed) {
      try {
        await options.sandbox.ensureAvailable({ signal: ctx.signal });
      } catch (err) {
        if (!(err instanceof SandboxUnavailableError)) {
          this.#end({ text: errorMessage(err), exitCode: -1, durationMs: 0, status: 'failed' });
          throw err;
        }
        // Never fall back silently: either the user agrees to run it unconfined, or it fails.
        if (askToRetryUnsandboxed(ctx.approvalPolicy) && (await this.#ask(request(`${err.message}; run without sandbox?`)))) {
          return this.#attempt(false, request);
        }
        this.#end({ text: err.message, exitCode: -1, durationMs: 0, status: 'failed' });
        return { output: err.message, success: false };
      }
    }
    const env = options.env ?? shellEnvironment();
    const argv = sandboxed
      ? options.sandbox.wrap(this.#command, policy, sandboxOptionsFor(policy, { cwd: ctx.cwd, env }))
      : this.#command;
    const result = await runCommand({
      argv,
      cwd: this.#cwd,
      env,
      timeoutMs: this.args.timeout_ms ?? options.defaultTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS,
      signal: ctx.signal,
      killGraceMs: options.killGraceMs,
      onOutput: (stream, chunk) => {
        if (++this.#deltas > MAX_OUTPUT_DELTAS) return;
        ctx.emit({ type: 'exec_command_output_delta', call_id: ctx.callId, stream, chunk: chunk.toString('base64') });
      },
    });
    if (result.termination.kind === 'aborted') {
      this.#finish(result);
      throw abortError(ctx.signal);
    }
    if (sandboxed && failedInSandbox(result) && askToRetryUnsandboxed(ctx.approvalPolicy)) {
      if (await this.#ask(request(RETRY_WITHOUT_SANDBOX_REASON))) return this.#attempt(false, request);
    }
    return this.#finish(result);
  }

  #finish(result: ExecResult): ToolResult {
    const formatted = formatExecOutput(result);
    this.ctx.emit({
      type: 'exec_command_end',
      ...this.#fields(),
      stdout: result.stdout,
      stderr: result.stderr,
      aggregated_output: result.aggregated,
      exit_code: result.exitCode,
      duration: durationFromMs(result.durationMs),
      formatted_output: formatted.body,
      status: result.exitCode === 0 ? 'completed' : 'failed',
    });
    return { output: formatted.forModel, success: result.exitCode === 0 };
  }

  #declined(message: string): ToolResult {
    this.#end({ text: message, exitCode: -1, durationMs: 0, status: 'declined' });
    return { output: message, success: false };
  }

  #end(e: { text: string; exitCode: number; durationMs: number; status: 'failed' | 'declined' }): void {
    this.ctx.emit({
      type: 'exec_command_end',
      ...this.#fields(),
      stdout: '',
      stderr: e.text,
      aggregated_output: e.text,
      exit_code: e.exitCode,
      duration: durationFromMs(e.durationMs),
      formatted_output: e.text,
      status: e.status,
    });
  }

  #fields() {
    return {
      call_id: this.ctx.callId,
      turn_id: this.ctx.turnId,
      command: this.#command,
      cwd: this.#cwd,
      parsed_cmd: this.#parsedCmd,
      source: 'agent' as const,
    };
  }
}

/** A command that ran and failed, as opposed to one that was never found, timed out or was stopped. */
function failedInSandbox(result: ExecResult): boolean {
  const t = result.termination;
  return (t.kind === 'exited' && t.code !== 0 && t.code !== 127) || t.kind === 'signaled';
}

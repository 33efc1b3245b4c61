// Human-readable rendering of a thread's events for `switchboard exec`: progress (commands, tools,
// reasoning, warnings) goes to stderr; the agent's answer goes to stdout — streamed when stdout is a
// terminal, else only the final message, so `x=$(switchboard exec ...)` captures just the result.
import type { Event, EventMsg, FileChange } from '../protocol/index.js';
import { assertNever } from '../util/index.js';
import type { Output } from './context.js';

const MAX_OUTPUT_LINES = 20;

function style(enabled: boolean) {
  const wrap = (code: string) => (s: string) => (enabled ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { bold: wrap('1'), dim: wrap('2'), red: wrap('31'), green: wrap('32'), magenta: wrap('35'), cyan: wrap('36') };
}

function ms(d: { secs: number; nanos: number }): string {
  const total = d.secs * 1000 + Math.round(d.nanos / 1e6);
  return total >= 1000 ? `${(total / 1000).toFixed(1)}s` : `${total}ms`;
}

function quote(argv: string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function clip(text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length <= MAX_OUTPUT_LINES) return lines.join('\n');
  return [...lines.slice(0, MAX_OUTPUT_LINES), `... (${lines.length - MAX_OUTPUT_LINES} more lines)`].join('\n');
}

function changeMark(c: FileChange): string {
  return c.type === 'add' ? 'A' : c.type === 'delete' ? 'D' : 'M';
}

export class HumanRenderer {
  private readonly s: ReturnType<typeof style>;
  private streaming = false;
  private tokens: number | null = null;

  constructor(
    private readonly stdout: Output,
    private readonly stderr: Output,
    private readonly version: string,
  ) {
    this.s = style(stderr.isTTY);
  }

  private err(line: string): void {
    this.endStream();
    this.stderr.write(`${line}\n`);
  }

  private endStream(): void {
    if (this.streaming) {
      this.stdout.write('\n');
      this.streaming = false;
    }
  }

  render(event: Event): void {
    const msg: EventMsg = event.msg;
    const { s } = this;
    switch (msg.type) {
      case 'session_configured':
        this.err(
          [
            s.bold(`switchboard v${this.version}`),
            '--------',
            `workdir: ${msg.cwd}`,
            `model: ${msg.model}`,
            `provider: ${msg.model_provider_id}`,
            `approval: ${msg.approval_policy}`,
            `sandbox: ${msg.sandbox_policy.type}`,
            `session id: ${msg.session_id}`,
            '--------',
          ].join('\n'),
        );
        return;
      case 'user_message':
        this.err(`${s.cyan('user')}\n${msg.message}`);
        return;
      case 'agent_message_delta':
        if (!this.stdout.isTTY) return;
        if (!this.streaming) {
          this.stderr.write(`${s.magenta('agent')}\n`);
          this.streaming = true;
        }
        this.stdout.write(msg.delta);
        return;
      case 'agent_message':
        if (this.stdout.isTTY) {
          if (!this.streaming) this.stdout.write(`${msg.message}`);
          this.streaming = true;
          this.endStream();
        } else this.err(`${s.magenta('agent')}\n${msg.message}`);
        return;
      case 'agent_reasoning':
        this.err(`${s.dim('thinking')}\n${s.dim(msg.text)}`);
        return;
      case 'exec_command_begin':
        this.err(`${s.magenta('exec')} ${s.bold(quote(msg.command))} in ${msg.cwd}`);
        return;
      case 'exec_command_end': {
        const head = msg.exit_code === 0 ? s.green(`succeeded in ${ms(msg.duration)}:`) : s.red(`exited ${msg.exit_code} in ${ms(msg.duration)}:`);
        const out = clip(msg.aggregated_output || msg.formatted_output);
        this.err(`${quote(msg.command)} ${head}${out ? `\n${s.dim(out)}` : ''}`);
        return;
      }
      case 'patch_apply_begin':
        this.err(`${s.magenta('apply_patch')} auto_approved=${msg.auto_approved}:\n${Object.entries(msg.changes).map(([f, c]) => `${changeMark(c)} ${f}`).join('\n')}`);
        return;
      case 'patch_apply_end':
        this.err(msg.success ? s.green('apply_patch succeeded') : `${s.red('apply_patch failed:')}\n${msg.stderr || msg.stdout}`);
        return;
      case 'mcp_tool_call_begin':
        this.err(`${s.magenta('tool')} ${msg.invocation.server}.${msg.invocation.tool}(${JSON.stringify(msg.invocation.arguments ?? {})})`);
        return;
      case 'mcp_tool_call_progress':
        this.err(s.dim(`  ${msg.message}`));
        return;
      case 'mcp_tool_call_end': {
        const name = `${msg.invocation.server}.${msg.invocation.tool}`;
        const ok = 'Ok' in msg.result && (msg.result.Ok as { isError?: boolean } | null)?.isError !== true;
        this.err(ok ? `${name} ${s.green(`success in ${ms(msg.duration)}`)}` : `${name} ${s.red(`failed in ${ms(msg.duration)}`)}${'Err' in msg.result ? `: ${msg.result.Err}` : ''}`);
        return;
      }
      case 'plan_update':
        this.err(
          [s.bold('plan'), ...(msg.explanation ? [msg.explanation] : []), ...msg.plan.map((p) => `  [${p.status === 'completed' ? 'x' : p.status === 'in_progress' ? '~' : ' '}] ${p.step}`)].join('\n'),
        );
        return;
      case 'token_count':
        if (msg.info) this.tokens = msg.info.total_token_usage.total_tokens;
        return;
      case 'stream_error':
        this.err(s.dim(`stream error: ${msg.message}`));
        return;
      case 'warning':
        this.err(`${s.bold('warning:')} ${msg.message}`);
        return;
      case 'error':
        this.err(`${s.red('ERROR:')} ${msg.message}`);
        return;
      case 'turn_aborted':
        this.err(s.red('turn aborted'));
        return;
      case 'task_complete':
        this.endStream();
        if (this.tokens !== null) this.stderr.write(`tokens used: ${this.tokens}\n`);
        if (!this.stdout.isTTY && msg.last_agent_message) this.stdout.write(`${msg.last_agent_message}\n`);
        return;
      case 'exec_approval_request':
      case 'apply_patch_approval_request':
      case 'elicitation_request':
        // answered (denied) by the exec command, which says so
        return;
      case 'task_started':
      case 'agent_reasoning_delta':
      case 'exec_command_output_delta':
      case 'mcp_startup_update':
      case 'mcp_startup_complete':
      case 'mcp_tools_changed':
      case 'shutdown_complete':
        return;
      default:
        assertNever(msg, 'event');
    }
  }
}

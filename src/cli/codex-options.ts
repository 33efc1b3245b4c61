// Codex's global command-line options, so that a `codex ... mcp-server` or `codex ... exec` line works
// with `switchboard` in front: -m, -p, -s, -a, --full-auto, --dangerously-bypass-approvals-and-sandbox
// (--yolo), -C, --oss, --enable/--disable. Root options, so they stand before or after the subcommand;
// here is what they mean for the sessions `mcp-server` and `exec` start.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { SessionDefaults } from '../agent-server/index.js';
import type { ConfigOverride } from '../config/index.js';
import type { AskForApproval, SandboxMode } from '../protocol/index.js';
import { APPROVAL_POLICIES, SANDBOX_MODES } from '../protocol/values.js';
import { UsageError } from './exit-codes.js';

/** The options as commander hands them to a command (`optsWithGlobals()`). */
export interface CodexFlags {
  model?: string;
  profile?: string;
  sandbox?: SandboxMode;
  askForApproval?: AskForApproval;
  fullAuto?: boolean;
  dangerouslyBypassApprovalsAndSandbox?: boolean;
  yolo?: boolean;
  cd?: string;
  oss?: boolean;
  enable?: string[];
  disable?: string[];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function addCodexOptions(program: Command): Command {
  const bypass = 'no sandbox and no approvals (sandbox danger-full-access, approval never); only where the machine is sandboxed already';
  return program
    .addOption(new Option('-m, --model <model>', "model for every session (a tool call's `model` still wins)"))
    .addOption(new Option('-p, --profile <name>', 'the [profiles.<name>] of config.toml for every session'))
    .addOption(new Option('-s, --sandbox <mode>', 'sandbox for commands the model runs').choices(SANDBOX_MODES))
    .addOption(new Option('-a, --ask-for-approval <policy>', 'when to ask before running commands').choices(APPROVAL_POLICIES))
    .addOption(new Option('--full-auto', 'sandbox workspace-write and approval on-request (exec: workspace-write, approval stays never)'))
    .addOption(new Option('--dangerously-bypass-approvals-and-sandbox', bypass).conflicts(['askForApproval', 'fullAuto']))
    .addOption(new Option('--yolo', 'short for --dangerously-bypass-approvals-and-sandbox').conflicts(['askForApproval', 'fullAuto']))
    .addOption(new Option('-C, --cd <dir>', "the agent's working directory (mcp-server: where sessions start and relative `cwd` arguments resolve)"))
    .addOption(new Option('--oss', 'the local open-source model provider (model_provider = "oss"), with its default model unless -m'))
    .addOption(new Option('--enable <feature>', 'turn a Codex feature flag on, as -c features.<name>=true (repeatable)').argParser(collect))
    .addOption(new Option('--disable <feature>', 'turn a Codex feature flag off, as -c features.<name>=false (repeatable)').argParser(collect));
}

/**
 * The config overrides these options stand for, after the -c ones: the profile (as Codex's -p does)
 * and feature flags. switchboard has none of Codex's feature flags, so each is a warning, not an error.
 */
export function codexOverrides(flags: CodexFlags, warn: (text: string) => void): ConfigOverride[] {
  const out: ConfigOverride[] = [];
  if (flags.profile !== undefined) out.push({ path: ['profile'], value: flags.profile });
  for (const [names, on] of [[flags.enable ?? [], true], [flags.disable ?? [], false]] as const) {
    for (const name of names) {
      warn(`switchboard has no feature flag \`${name}\`; --${on ? 'enable' : 'disable'} ${name} is accepted for Codex command lines and changes nothing`);
      out.push({ path: ['features', name], value: on });
    }
  }
  return out;
}

/**
 * The session settings the options give, as Codex resolves them: --full-auto, then --dangerously-bypass-approvals-and-sandbox, decide the
 * sandbox and approval policy over -s and -a; --oss picks the local provider and, unless -m says
 * otherwise, `ossModel`.
 */
export function sessionSettings(flags: CodexFlags, command: 'exec' | 'mcp-server', ossModel: string): SessionDefaults {
  const out: SessionDefaults = {};
  const bypass = flags.dangerouslyBypassApprovalsAndSandbox === true || flags.yolo === true;
  if (flags.model !== undefined) out.model = flags.model;
  if (flags.oss) {
    out.modelProvider = 'oss';
    out.model ??= ossModel;
  }
  if (flags.fullAuto) {
    out.sandboxMode = 'workspace-write';
    // Codex's exec never asks (nobody is there to answer); its --full-auto only opens the workspace.
    const approval = command === 'exec' ? flags.askForApproval : 'on-request';
    if (approval !== undefined) out.approvalPolicy = approval;
  } else if (bypass) {
    out.sandboxMode = 'danger-full-access';
    out.approvalPolicy = 'never';
  } else {
    if (flags.sandbox !== undefined) out.sandboxMode = flags.sandbox;
    if (flags.askForApproval !== undefined) out.approvalPolicy = flags.askForApproval;
  }
  return out;
}

/** -C: the agent's working directory, resolved against the process's; a usage error when it is not a directory. */
export async function agentCwd(flags: CodexFlags, cwd: string): Promise<string> {
  if (flags.cd === undefined) return cwd;
  const dir = path.resolve(cwd, flags.cd);
  if (!(await stat(dir).catch(() => null))?.isDirectory()) throw new UsageError(`-C ${flags.cd}: not a directory`);
  return dir;
}

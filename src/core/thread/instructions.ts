// What the model is told besides the conversation: base instructions, and developer messages with
// the environment (cwd, sandbox, approval policy) and the configured developer instructions.
import type { AskForApproval, SandboxPolicy } from '../../protocol/index.js';
import type { ResponseItem } from '../model/model-types.js';
import type { ThreadSettings } from './thread-settings.js';

export const DEFAULT_BASE_INSTRUCTIONS = `You are a coding agent running in switchboard, working in the user's workspace.
Work on the task until it is done: read files and run commands with the tools you are given, make changes with apply_patch, and check your work.
Keep the user informed with short messages. When you are finished, reply with a concise summary of what you did and anything left open.`;

function approvalText(policy: AskForApproval): string {
  switch (policy) {
    case 'untrusted':
      return 'Only known-safe read-only commands run without asking; every other command needs the user\'s approval.';
    case 'on-failure':
      return 'Commands run in the sandbox; if one fails there, the user is asked whether to run it without the sandbox.';
    case 'on-request':
      return 'Commands run in the sandbox; when one needs more (writing outside it, network), request escalated permissions with a justification and the user is asked.';
    case 'never':
      return 'The user is never asked: work inside the sandbox, and treat a failure as yours to work around.';
  }
}

function sandboxText(policy: SandboxPolicy): { mode: string; network: string } {
  switch (policy.type) {
    case 'read-only':
      return { mode: 'read-only', network: 'restricted' };
    case 'workspace-write':
      return { mode: 'workspace-write', network: policy.network_access ? 'enabled' : 'restricted' };
    case 'danger-full-access':
      return { mode: 'danger-full-access', network: 'enabled' };
  }
}

/** The developer messages that precede the conversation in every request (rebuilt, never persisted). */
export function contextItems(settings: ThreadSettings): ResponseItem[] {
  const sandbox = sandboxText(settings.sandboxPolicy);
  const writable = settings.sandboxPolicy.type === 'workspace-write' ? ['cwd', '/tmp', ...settings.sandboxPolicy.writable_roots].join(', ') : null;
  const env = [
    '<environment_context>',
    `  <cwd>${settings.cwd}</cwd>`,
    `  <approval_policy>${settings.approvalPolicy}</approval_policy>`,
    `  <sandbox_mode>${sandbox.mode}</sandbox_mode>`,
    ...(writable ? [`  <writable_roots>${writable}</writable_roots>`] : []),
    `  <network_access>${sandbox.network}</network_access>`,
    '</environment_context>',
    approvalText(settings.approvalPolicy),
  ].join('\n');
  const items: ResponseItem[] = [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: env }] }];
  if (settings.developerInstructions) {
    items.push({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: settings.developerInstructions }] });
  }
  return items;
}

export function baseInstructions(settings: ThreadSettings): string {
  return settings.baseInstructions ?? DEFAULT_BASE_INSTRUCTIONS;
}

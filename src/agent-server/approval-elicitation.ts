// Approvals as MCP elicitations, the way Codex's server asked them (reference §8): the
// `elicitation/create` params with their extra top-level `codex_*` fields, the client's answer turned
// into a decision (spec and legacy shapes), and the clamp to the decisions that were offered.
import { pathToFileURL } from 'node:url';
import type { EventMsgOf, ReviewDecision } from '../protocol/index.js';

/** What an exec approval offers; `denied` and `abort` are always accepted as well. */
export const EXEC_OFFERED_DECISIONS: readonly ReviewDecision[] = ['approved', 'approved_for_session', 'abort'];
/** Patch answers are not clamped (as in Codex); every decision is accepted. */
export const PATCH_OFFERED_DECISIONS: readonly ReviewDecision[] = ['approved', 'approved_for_session', 'denied', 'abort'];

const EMPTY_SCHEMA = { type: 'object', properties: {} } as const;

/** Where the question comes from: ids the client can use to tie it to its tool call and the thread. */
export interface ElicitationOrigin {
  threadId: string;
  /** The `tools/call` request id, as a string. */
  toolCallId: string;
  /** The event's `id` (its turn). */
  eventId: string;
}

// Python/shlex-style quoting: words made only of safe characters stay bare, others are single-quoted.
const SAFE_WORD = /^[A-Za-z0-9@%+=:,./_-]+$/;

export function shellJoin(argv: readonly string[]): string {
  return argv.map((w) => (w === '' ? "''" : SAFE_WORD.test(w) ? w : `'${w.replaceAll("'", `'"'"'`)}'`)).join(' ');
}

export function execApprovalParams(origin: ElicitationOrigin, msg: EventMsgOf<'exec_approval_request'>): Record<string, unknown> {
  const lines = [`Allow Codex to run \`${shellJoin(msg.command)}\` in \`${msg.cwd}\`?`];
  if (msg.reason) lines.push(`Reason: ${msg.reason}`);
  lines.push(`Working directory URI: ${pathToFileURL(msg.cwd).href}`);
  lines.push(`Allowed decisions: ${JSON.stringify(EXEC_OFFERED_DECISIONS)}`);
  return {
    message: lines.join('\n'),
    requestedSchema: EMPTY_SCHEMA,
    threadId: origin.threadId,
    codex_elicitation: 'exec-approval',
    codex_mcp_tool_call_id: origin.toolCallId,
    codex_event_id: origin.eventId,
    codex_call_id: msg.call_id,
    codex_command: msg.command,
    codex_cwd: msg.cwd,
    codex_parsed_cmd: msg.parsed_cmd,
    ...(msg.reason ? { codex_reason: msg.reason } : {}),
  };
}

export function patchApprovalParams(origin: ElicitationOrigin, msg: EventMsgOf<'apply_patch_approval_request'>): Record<string, unknown> {
  const question = 'Allow Codex to apply proposed code changes?';
  return {
    message: msg.reason ? `${msg.reason}\n${question}` : question,
    requestedSchema: EMPTY_SCHEMA,
    threadId: origin.threadId,
    codex_elicitation: 'patch-approval',
    codex_mcp_tool_call_id: origin.toolCallId,
    codex_event_id: origin.eventId,
    codex_call_id: msg.call_id,
    ...(msg.reason ? { codex_reason: msg.reason } : {}),
    ...(msg.grant_root ? { codex_grant_root: msg.grant_root } : {}),
    codex_changes: msg.changes,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One decision value as Codex's clients send it. Codex-only variants map to their nearest meaning
 * here: an exec-policy amendment ("don't ask again for this prefix") is approval for the session;
 * `timed_out` and network-policy amendments are denials. `undefined` means not a decision at all.
 */
function wireDecision(value: unknown): ReviewDecision | undefined {
  switch (value) {
    case 'approved':
    case 'approved_for_session':
    case 'denied':
    case 'abort':
      return value;
    case 'timed_out':
      return 'denied';
  }
  if (isObject(value) && Object.keys(value).length === 1) {
    if ('approved_execpolicy_amendment' in value) return 'approved_for_session';
    if ('network_policy_amendment' in value) return 'denied';
  }
  return undefined;
}

/** The client's `elicitation/create` result → a decision (reference §8.3); anything unreadable is `denied`. */
export function decisionFromResponse(result: unknown): ReviewDecision {
  if (!isObject(result)) return 'denied';
  const topLevel = result.decision;
  if (!('action' in result)) return topLevel === undefined ? 'denied' : (wireDecision(topLevel) ?? 'denied');
  const action = result.action;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return 'denied';
  const content = result.content ?? undefined;
  if (content !== undefined && !isObject(content)) return 'denied';
  const inContent = content?.decision;
  if (inContent !== undefined && wireDecision(inContent) === undefined) return 'denied';
  if (topLevel !== undefined && wireDecision(topLevel) === undefined) return 'denied';
  if (action !== 'accept') return 'denied';
  return wireDecision(inContent) ?? wireDecision(topLevel) ?? 'approved';
}

/** A decision that was not offered becomes `denied` (reference §8.4); `denied` and `abort` always stand. */
export function clampDecision(decision: ReviewDecision, offered: readonly ReviewDecision[]): ReviewDecision {
  if (decision === 'denied' || decision === 'abort') return decision;
  return offered.includes(decision) ? decision : 'denied';
}

function elicitationCapability(capabilities: unknown): Record<string, unknown> | null {
  const e = isObject(capabilities) ? capabilities.elicitation : undefined;
  return isObject(e) ? e : null;
}

/** Form elicitation is supported when `elicitation` is declared with `form`, or without `url` (2025-06-18 `{}`). */
export function supportsFormElicitation(capabilities: unknown): boolean {
  const e = elicitationCapability(capabilities);
  return e !== null && ('form' in e || !('url' in e));
}

export function supportsUrlElicitation(capabilities: unknown): boolean {
  const e = elicitationCapability(capabilities);
  return e !== null && 'url' in e;
}

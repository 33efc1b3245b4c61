// Which events a rollout keeps: what a reader of the thread's history needs (messages, turn
// boundaries, command and patch results, errors, usage), not the streaming noise.
import type { EventMsg } from '../../protocol/index.js';
import { assertNever } from '../../util/index.js';

export function isPersistedEvent(msg: EventMsg): boolean {
  switch (msg.type) {
    case 'user_message':
    case 'agent_message':
    case 'agent_reasoning':
    case 'task_started':
    case 'task_complete':
    case 'turn_aborted':
    case 'token_count':
    case 'error':
    case 'warning':
    case 'exec_command_end':
    case 'patch_apply_end':
    case 'mcp_tool_call_end':
    case 'plan_update':
      return true;
    case 'session_configured': // the session_meta line carries it
    case 'agent_message_delta':
    case 'agent_reasoning_delta':
    case 'exec_command_begin':
    case 'exec_command_output_delta':
    case 'exec_approval_request':
    case 'apply_patch_approval_request':
    case 'patch_apply_begin':
    case 'mcp_tool_call_begin':
    case 'mcp_tool_call_progress':
    case 'mcp_startup_update':
    case 'mcp_startup_complete':
    case 'mcp_tools_changed':
    case 'elicitation_request':
    case 'stream_error':
    case 'shutdown_complete':
      return false;
    default:
      return assertNever(msg, 'event');
  }
}

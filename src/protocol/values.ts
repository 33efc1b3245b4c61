// Plain value lists of the wire enums, with no dependencies: a second public entry of this layer for
// hot paths (config loading, CLI start) that must not pay for loading zod 4 (~40 ms; config's own schemas
// use the zod/v3 API, ~6.5 ms). The protocol schemas are built on them.

export const APPROVAL_POLICIES = ['untrusted', 'on-failure', 'on-request', 'never'] as const;
export type AskForApprovalValue = (typeof APPROVAL_POLICIES)[number];

export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type SandboxModeValue = (typeof SANDBOX_MODES)[number];

export const REVIEW_DECISIONS = ['approved', 'approved_for_session', 'denied', 'abort'] as const;

/** `tool_search` in config.toml: defer MCP tools behind a search tool always, never, or when they are large. */
export const TOOL_SEARCH_MODES = ['auto', 'on', 'off'] as const;
export type ToolSearchModeValue = (typeof TOOL_SEARCH_MODES)[number];

/** The stateless MCP revision (per-request envelope, input-required rounds, `server/discover`). */
export const MODERN_REVISION = '2026-07-28';
/** The 2025-era revisions (`initialize` and sessions) switchboard's servers accept, newest first (Codex's server accepted these). */
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** The MCP tasks extension (SEP-2663): its name in `capabilities.extensions`, for clients and servers alike. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

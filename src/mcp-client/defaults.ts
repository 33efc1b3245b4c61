// Defaults and limits for one MCP server connection (Codex's current values). The startup and tool
// timeouts are config's (`startup_timeout_sec`, `tool_timeout_sec`: startupTimeoutMs, toolTimeoutMs).
import { VERSION } from '../util/index.js';

/** Progress notifications reset the deadline, but never past this total. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 3_600_000;
/** Transient HTTP failures of initialize and tools/list are retried after these delays, inside the deadline. */
export const HTTP_RETRY_DELAYS_MS: readonly number[] = [250, 1000];

/**
 * A stdio server silent on the 2026-07-28 `server/discover` probe for this long (at most half the
 * startup timeout) is a 2025 server that ignores unknown requests: it gets `initialize` instead.
 */
export const STDIO_PROBE_TIMEOUT_MS = 5_000;

/** A 2026-07-28 request still answered "input required" after this many rounds fails. */
export const MAX_INPUT_ROUNDS = 10;

export const MAX_TOOL_LIST_PAGES = 100;
export const MAX_TOOL_LIST_ITEMS = 10_000;

/**
 * How many times one HTTP request re-authorizes with a wider scope after a 403 insufficient_scope
 * before it fails: a server may ask for its scopes one at a time, but one that is never satisfied
 * must not loop.
 */
export const MAX_STEP_UP_RETRIES = 2;
/** Lines of server stderr kept for startup errors. */
export const STDERR_TAIL_LINES = 20;
/** Largest body excerpt put into an `HTTP <status>: <body>` message. */
export const HTTP_BODY_PREVIEW_BYTES = 8_192;

export const DEFAULT_CLIENT_INFO = { name: 'switchboard', title: 'Switchboard', version: VERSION } as const;

/**
 * The environment variables a stdio server inherits when present (Codex's Unix list), before
 * `env_vars` and `env` are applied; everything else stays out. The same list wherever the server
 * runs: taken from this process for a local launch, from the executor's (or the ssh session's)
 * environment for a remote one.
 */
export const DEFAULT_ENV_VARS: readonly string[] = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', '__CF_USER_TEXT_ENCODING', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'];

/** A dropped 2026-07-28 `subscriptions/listen` stream is re-opened after these delays, then given up. */
export const LISTEN_RETRY_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000];
/** A listen stream that stayed open this long starts its backoff afresh when it drops. */
export const LISTEN_STABLE_MS = 30_000;

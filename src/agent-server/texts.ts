// Texts clients of Codex's MCP server match on (reference §3 and §5.3), kept verbatim, plus the few
// switchboard adds for behaviour Codex did not have.

export const unknownTool = (name: string) => `Unknown tool '${name}'`;
export const MISSING_CODEX_ARGS = 'Missing arguments for codex tool-call; the `prompt` field is required.';
export const MISSING_REPLY_ARGS =
  'Missing arguments for codex-reply tool-call; the `threadId` (or `conversationId`) and `prompt` fields are required.';
export const badArguments = (message: string) => `Failed to parse configuration for Codex tool: ${message}`;
export const configLoadFailed = (message: string) => `Failed to load Codex configuration from overrides: ${message}`;
export const sessionStartFailed = (message: string) => `Failed to start Codex session: ${message}`;
export const CANCELLED_DURING_STARTUP = 'Codex request cancelled during startup.';
export const CANCELLED_BEFORE_TURN = 'Codex request cancelled before turn start.';
export const initialPromptFailed = (message: string) => `Failed to submit initial prompt: ${message}`;
export const userInputFailed = (message: string) => `Failed to submit user input: ${message}`;
export const TURN_ABORTED = 'Turn aborted.';
export const runtimeError = (message: string) => `Codex runtime error: ${message}`;
export const NO_THREAD_ID = 'Failed to parse thread_id: either threadId or conversationId must be provided';
export const badThreadId = (message: string) => `Failed to parse thread_id: ${message}`;
export const sessionNotFound = (threadId: string) => `Session not found for thread_id: ${threadId}`;
export const THREAD_BUSY = 'A Codex request is still running for this thread; wait for its response before replying.';

// JSON-RPC error messages (protocol level, not tool results).
export const REQUEST_ID_RUNNING = 'A request with this ID is still running.';
export const INITIALIZE_TWICE = 'initialize called more than once';
export const methodNotFound = (method: string) => `method not found: ${method}`;

// switchboard's own.
export const tooManyTurns = (limit: number) =>
  `This switchboard mcp-server already runs ${limit} turn${limit === 1 ? '' : 's'} at once (its --max-turns limit); wait for a running call to finish, then retry.`;
export const resumeFailed = (threadId: string, message: string) => `Failed to resume Codex session ${threadId}: ${message}`;

// Ceilings of callers over HTTP (call-ceilings.ts): each names the argument and what to do instead.
const RULE = 'your [server_auth] rule (docs/server-auth.md)';
export const configKeyRefused = (key: string) =>
  `The config key \`${key}\` is not open to callers of this server over HTTP; leave it out of \`config\`, or ask the operator to list it in config_keys of ${RULE}.`;
export const sandboxRefused = (mode: string, from: string, max: string) =>
  `The sandbox \`${mode}\` (from ${from}) is looser than this server allows your calls over HTTP (at most \`${max}\`); ask for \`${max}\` or stricter, or ask the operator to raise sandbox in ${RULE}.`;
export const approvalRefused = (policy: string, from: string, max: string) =>
  `The approval policy \`${policy}\` (from ${from}) is looser than this server allows your calls over HTTP (at most \`${max}\`, in the order untrusted, on-failure, on-request, never); ask for \`${max}\` or stricter, or ask the operator to raise approval_policy in ${RULE}.`;
export const cwdRefused = (dir: string, from: string, roots: readonly string[]) =>
  `The working directory ${dir} (from ${from}) is outside the directories this server allows your calls over HTTP (${roots.join(', ')}); pass a \`cwd\` inside one of them, or ask the operator to add it to cwd_roots of ${RULE}.`;
export const threadRefused = (what: string, max: string) =>
  `This thread runs with ${what}, beyond what this server allows your calls over HTTP (${max}); you cannot continue it. Start your own with \`codex\`.`;
export const approvalNotAskable = (what: string, sandbox: string) =>
  `${what} was denied without asking: approving it would take it outside the sandbox, and this server lets your calls over HTTP go no further than \`${sandbox}\` (${RULE}).`;

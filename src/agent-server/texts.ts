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

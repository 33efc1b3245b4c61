// The agent: threads, the turn loop, the model client, tools, approvals, sandbox, rollouts.
export type * from './tools/tool.js';

// ---- agent: model client, threads, turn loop, rollouts, MCP tool adapter (issue 6, agent half) ----
export * from './model/model-types.js';
export { ModelError, missingApiKeyError, type RetryBudget } from './model/model-error.js';
export { resolveProvider, type ResolvedProvider } from './model/provider.js';
export { OpenAIModelClient, createOpenAIModelClient, classifyModelError, type OpenAIModelClientOptions } from './model/openai-model-client.js';

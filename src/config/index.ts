// config.toml (Codex-compatible schema): loading, validation, overrides, environments, model providers,
// format-preserving edits of [mcp_servers.*], and import of other clients' MCP JSON.
export * from './config-error.js';
export * from './home.js';
export * from './overrides.js';
export * from './mcp-server-config.js';
export * from './model-config.js';
export * from './environment-config.js';
export * from './config.js';
export type { ConfigInput, ConfigSettingsInput, McpServerInput, StdioServerInput, HttpServerInput, EnvironmentInput, ModelProviderInput } from './config-input.js';
export { locateKey } from './locate.js';
export { ConfigDocument } from './edit.js';
export { updateConfigFile, readConfigDocument, type UpdateConfigOptions, type UpdateConfigResult } from './edit-file.js';
export { serverTable, type ServerSpec, type StdioServerSpec, type HttpServerSpec } from './mcp-server-toml.js';
export { parseMcpJson, mcpJsonEntry, type McpJsonImport, type ImportedServer, type SkippedServer } from './import-mcp-json.js';
export { parseServerAuth, type ServerAuthSettings } from './server-auth-config.js';
export { watchConfigFile, configRevision, CONFIG_WATCH_DEBOUNCE_MS, type ConfigWatch } from './config-watch.js';
export { requiredVariables, type VariableReference } from './env-references.js';

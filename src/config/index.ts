// config.toml (Codex-compatible schema): loading, validation, overrides, environments, model providers.
export * from './config-error.js';
export * from './home.js';
export * from './overrides.js';
export * from './mcp-server-config.js';
export * from './model-config.js';
export * from './environment-config.js';
export * from './config.js';
export { locateKey } from './locate.js';

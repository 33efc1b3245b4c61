// One MCP server connection: launchers, transports, OAuth, session recovery, retries, timeouts.
export * from './launcher.js';

// ---- OAuth (oauth/ — discovery, login/logout, token store, refresh, auth status) ----
export * from './oauth/index.js';

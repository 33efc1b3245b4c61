// The Streamable HTTP listener as the composition root sets it up: the OAuth protected resource,
// the safety checks of an address and a token, its defaults, sessions and request state shared by
// replicas, and (for tests of the bare host) the listener itself.
export { ResourceAuth, type ResourceAuthOptions } from './resource-auth.js';
export { checkAuthConfig, MIN_TOKEN_LENGTH, type AuthOptionNames } from './http-security.js';
export { HTTP_DEFAULTS, startHttpHost, type HttpHostOptions, type HttpSessionHandle } from './http-host.js';
export { IDLE_RELEASE_MS } from './idle-memory.js';
export type { SharedSessionRecord, SharedSessions } from './shared-sessions.js';
export type { RequestStateKey } from '../flows/request-state.js';

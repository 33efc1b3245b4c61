// listen/: the entry checks of every listener (exec-server, `mcp-server --http`, `serve --http`):
// the listen address, the bearer token, and the Host/Origin rules against browsers.
export { parseListenAddress, isLoopbackHost, isWildcardHost, listenUrl, type ListenAddress } from './address.js';
export { bearerMatches } from './bearer.js';
export { allowedHostnames, allowlistName, createHostOriginCheck, type HostOriginCheck } from './browser-checks.js';

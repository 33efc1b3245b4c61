// gateway: `switchboard serve`, the aggregated catalog of every upstream re-served as one MCP endpoint
// (stdio or Streamable HTTP), one pool of upstream connections for all clients: a product whose
// handlers the host (mcp-host) serves. Built on mcp (the connection manager) and mcp-host; never on core.
export { GatewayPool, type GatewayDeps, type GatewayOptions } from './gateway-pool.js';
export { gatewayProduct } from './gateway-product.js';
export type { GatewayMode } from './catalog-view.js';
export { gatewayModeFor } from './gateway-mode.js';
export type { GatewayUpstreamSetup } from './upstreams.js';
export { SERVER_META_KEY } from './resource-routes.js';
export { gatewayFor, type GatewayProduct, type GatewaySetup } from './gateway-setup.js';
export type { GatewayReloaded } from './gateway-reload.js';
export { SEARCH_TOOLS, CALL_TOOL, gatewayToolSearchFor, type GatewayToolSearch } from './tool-search-handlers.js';

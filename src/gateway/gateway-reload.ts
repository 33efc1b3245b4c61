// A running gateway given a reloaded configuration: its servers change server by server in the one
// pool every client shares, the always-loaded servers of tool search follow the file, and what the
// running gateway cannot become (a transparent proxy for another server) is refused, changing nothing.
import type { Config } from '../config/index.js';
import type { ServersReloaded } from '../mcp/index.js';
import { SwitchboardError } from '../util/index.js';
import { gatewayModeFor } from './gateway-mode.js';
import type { GatewayPool } from './gateway-pool.js';
import { gatewayToolSearchFor } from './tool-search-handlers.js';

/** What a reload did to the gateway's upstreams; `servers` is undefined while none was opened (they open with the new ones). */
export interface GatewayReloaded {
  servers: ServersReloaded | undefined;
}

/** `transparentOption` names the setting in the refusal (`--transparent`, `transparent: true`). */
export function reloadGateway(pool: GatewayPool, config: Config, options: { drainTimeoutMs?: number; transparentOption?: string } = {}): GatewayReloaded {
  const mode = pool.mode;
  if (mode.kind === 'transparent') {
    const next = gatewayModeFor(config, true, options.transparentOption);
    if (next.kind === 'transparent' && next.server !== mode.server) {
      throw new SwitchboardError(
        'gateway_transparent',
        `the running gateway is a transparent proxy for MCP server '${mode.server}'; the new config enables '${next.server}' instead: restart switchboard serve to proxy it`,
      );
    }
  }
  const search = pool.options.toolSearch;
  if (search) {
    const before = new Set(search.alwaysLoaded);
    search.alwaysLoaded = gatewayToolSearchFor(config, mode).alwaysLoaded;
    const after = new Set(search.alwaysLoaded);
    // A server listed directly now, or searched now: its clients' tools/list changed.
    for (const server of new Set([...before, ...after])) if (before.has(server) !== after.has(server)) pool.tellChanged(server, ['tools']);
  }
  return { servers: pool.reloadServers(config.mcp_servers, options.drainTimeoutMs) };
}

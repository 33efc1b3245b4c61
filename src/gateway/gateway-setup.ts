// A gateway put together from a config, the one home of that wiring for the CLI (`switchboard
// serve`) and the library (`switchboard/gateway`): its mode (aggregating, or transparent for the one
// enabled server), tool search, its one pool of upstream connections, and the product the host
// serves, with what operators see of it (its upstreams, ready when every required one is), and how a
// reloaded configuration reaches it.
import type { Config } from '../config/index.js';
import type { Product } from '../mcp-host/index.js';
import { VERSION } from '../util/index.js';
import { GatewayPool, type GatewayDeps } from './gateway-pool.js';
import { gatewayModeFor } from './gateway-mode.js';
import { gatewayProduct } from './gateway-product.js';
import { reloadGateway, type GatewayReloaded } from './gateway-reload.js';
import { gatewayToolSearchFor } from './tool-search-handlers.js';

export interface GatewaySetup extends GatewayDeps {
  config: Config;
  /** A pure proxy for the one enabled server. */
  transparent?: boolean;
  /** tools/list offers search_tools and call_tool (and the always_loaded servers' tools). */
  toolSearch?: boolean;
  /** The `serverInfo.name` clients see (default `switchboard-gateway`). */
  name?: string;
  /** How the transparent-mode setting is named in errors (`--transparent`, `transparent: true`). */
  transparentOption?: string;
}

/** A gateway as the host serves it, and as a reload changes it. */
export interface GatewayProduct extends Product {
  /**
   * Apply a reloaded configuration (gateway-reload.ts): servers server by server, tool search's
   * always-loaded servers. Throws `gateway_transparent`, changing nothing, for a config it cannot serve.
   */
  reload(config: Config, options?: { drainTimeoutMs?: number }): GatewayReloaded;
}

/** The gateway product over `setup.config`'s enabled servers; throws `gateway_transparent` / `gateway_tool_search` for a mode that cannot be. */
export function gatewayFor(setup: GatewaySetup): GatewayProduct {
  const mode = gatewayModeFor(setup.config, setup.transparent === true, setup.transparentOption);
  const pool = new GatewayPool(
    {
      name: setup.name ?? 'switchboard-gateway',
      title: 'Switchboard gateway',
      version: VERSION,
      mode,
      ...(setup.toolSearch ? { toolSearch: gatewayToolSearchFor(setup.config, mode) } : {}),
    },
    setup,
  );
  const transparentOption = setup.transparentOption;
  return {
    ...gatewayProduct(pool, setup.storeReachable),
    reload: (config, options = {}) => reloadGateway(pool, config, { ...options, ...(transparentOption ? { transparentOption } : {}) }),
  };
}

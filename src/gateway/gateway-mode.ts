// Which mode a gateway over a config serves: every enabled server aggregated, or a transparent proxy
// for the single enabled one (refused, with what to do, when there is not exactly one).
import type { Config } from '../config/index.js';
import { SwitchboardError } from '../util/index.js';
import type { GatewayMode } from './catalog-view.js';

/**
 * The mode for `config`. `option` names the setting that asked for transparency in the error (the
 * CLI's `--transparent`, the library's `transparent: true`).
 */
export function gatewayModeFor(config: Config, transparent: boolean, option = 'transparent: true'): GatewayMode {
  if (!transparent) return { kind: 'aggregate' };
  const enabled = Object.values(config.mcp_servers).filter((s) => s.enabled);
  if (enabled.length !== 1) {
    const names = enabled.length === 0 ? 'none' : enabled.map((s) => s.name).join(', ');
    throw new SwitchboardError(
      'gateway_transparent',
      `${option} needs exactly one enabled MCP server, but ${enabled.length} are enabled (${names}); disable the others (enabled = false) or drop ${option} to aggregate them`,
    );
  }
  return { kind: 'transparent', server: enabled[0]!.name };
}

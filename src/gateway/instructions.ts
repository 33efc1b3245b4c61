// The `instructions` a gateway gives a client. A transparent gateway passes its one server's as they
// are, waiting for that server as a pure proxy must. An aggregating one never holds a client up: it
// gives one text naming the part of each server ready by then or stopped for being idle (with the
// prefix its tools carry), after the gateway's own instructions if it has any. Either way only
// servers in the caller's view.
import { sanitizeNamePart, type McpConnectionManager } from '../mcp/index.js';
import type { CallerView } from '../mcp-host/index.js';
import type { GatewayMode } from './catalog-view.js';

export async function upstreamInstructions(manager: McpConnectionManager, mode: GatewayMode, own: string | undefined, view: CallerView): Promise<string | undefined> {
  if (mode.kind === 'transparent') {
    manager.start();
    if (!view.sees(mode.server)) return own;
    // An unavailable server has no instructions to pass on now.
    return (await manager.instructions(mode.server)) ?? own;
  }
  const parts: string[] = [];
  for (const name of manager.instructedServers()) {
    if (!view.sees(name)) continue;
    const text = (await manager.instructions(name))?.trim();
    if (text) parts.push(`## ${name} (tools named mcp__${sanitizeNamePart(name)}__*)\n\n${text}`);
  }
  if (parts.length === 0) return own;
  return [own?.trim(), 'This gateway serves several MCP servers. The instructions of each:', ...parts].filter((p) => p).join('\n\n');
}

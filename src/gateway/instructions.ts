// The `instructions` a gateway gives its clients: a transparent gateway passes its one server's as
// they are; an aggregating one gives one text naming each server's part (with the prefix its tools
// carry), after the gateway's own instructions if it has any.
import { sanitizeNamePart, type McpConnectionManager } from '../mcp/index.js';
import type { GatewayMode } from './catalog-view.js';

/** How long an aggregating gateway's first answer waits for servers still starting for their instructions. */
export const INSTRUCTIONS_WAIT_MS = 5_000;

export async function upstreamInstructions(manager: McpConnectionManager, mode: GatewayMode, own: string | undefined): Promise<string | undefined> {
  if (mode.kind === 'transparent') {
    try {
      return (await manager.clientFor(mode.server)).instructions ?? own;
    } catch {
      return own; // the server is unavailable: it has no instructions to pass on now
    }
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([manager.waitForStartup().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, INSTRUCTIONS_WAIT_MS)))]);
  clearTimeout(timer);
  const parts: string[] = [];
  for (const name of manager.readyServers()) {
    const text = (await manager.clientFor(name).catch(() => undefined))?.instructions?.trim();
    if (text) parts.push(`## ${name} (tools named mcp__${sanitizeNamePart(name)}__*)\n\n${text}`);
  }
  if (parts.length === 0) return own;
  const intro = 'This gateway serves several MCP servers. The instructions of each:';
  return [own?.trim(), intro, ...parts].filter((p) => p).join('\n\n');
}

// ToolFilter: enabled_tools (allow list; absent = all, empty = none) then disabled_tools (deny wins).
import type { McpServerConfig } from '../config/index.js';
import { McpClientError } from '../util/index.js';

export interface ToolFilter {
  allows(tool: string): boolean;
}

export function toolFilterFor(config: Pick<McpServerConfig, 'enabled_tools' | 'disabled_tools'>): ToolFilter {
  const allow = config.enabled_tools ? new Set(config.enabled_tools) : null;
  const deny = new Set(config.disabled_tools ?? []);
  return { allows: (tool) => (allow === null || allow.has(tool)) && !deny.has(tool) };
}

export function toolDisabledError(server: string, tool: string): McpClientError {
  return new McpClientError('tool_disabled', `tool '${tool}' is disabled for MCP server '${server}'`);
}

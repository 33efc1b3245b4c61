// Metadata policy: connector provenance keys survive only on servers the host trusts in code, and
// tools hidden from the model by the MCP Apps visibility rule are left out of the catalog.
import type { Tool } from '@modelcontextprotocol/client';

export const CONNECTOR_META_KEYS = [
  'connector_id',
  'connector_name',
  'connector_display_name',
  'connector_description',
  'connectorDescription',
] as const;

/**
 * Servers whose connector metadata is kept. Only host code can create one (the constructor is the
 * grant); a config switch or a server's name never confers trust.
 */
export class TrustedServers {
  private readonly names: ReadonlySet<string>;

  constructor(names: Iterable<string> = []) {
    this.names = new Set(names);
  }

  has(server: string): boolean {
    return this.names.has(server);
  }
}

export function stripConnectorMeta(tool: Tool): Tool {
  const meta = tool._meta;
  if (!meta || !CONNECTOR_META_KEYS.some((k) => k in meta)) return tool;
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) {
    if (!(CONNECTOR_META_KEYS as readonly string[]).includes(k)) kept[k] = v;
  }
  return { ...tool, _meta: kept };
}

/** A tool with `_meta.ui.visibility` is shown to the model only when that array contains "model". */
export function isModelVisible(tool: Tool): boolean {
  const ui = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui;
  if (!ui || !Array.isArray(ui.visibility)) return true;
  return ui.visibility.includes('model');
}

export function applyMetadataPolicy(server: string, tools: readonly Tool[], trusted: TrustedServers): Tool[] {
  const visible = tools.filter(isModelVisible);
  return trusted.has(server) ? visible : visible.map(stripConnectorMeta);
}

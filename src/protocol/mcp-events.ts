// MCP startup and catalog events (Codex's McpStartupUpdate / McpStartupComplete wire shapes).
import { z } from 'zod';

export const McpStartupStatusSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('starting') }),
  z.object({ state: z.literal('ready') }),
  z.object({ state: z.literal('failed'), error: z.string() }),
  z.object({ state: z.literal('cancelled') }),
]);
/** One MCP server's startup state in an `mcp_startup_update` event: starting, ready, failed (with the error text) or cancelled. */
export type McpStartupStatus = z.infer<typeof McpStartupStatusSchema>;

export const McpStartupUpdateEventSchema = z.object({
  server: z.string(),
  status: McpStartupStatusSchema,
});
export type McpStartupUpdateEvent = z.infer<typeof McpStartupUpdateEventSchema>;

export const McpStartupFailureSchema = z.object({ server: z.string(), error: z.string() });
/** A server that failed to start, with the text `switchboard mcp status` shows. */
export type McpStartupFailure = z.infer<typeof McpStartupFailureSchema>;

export const McpStartupCompleteEventSchema = z.object({
  ready: z.array(z.string()),
  failed: z.array(McpStartupFailureSchema),
  cancelled: z.array(z.string()),
});
export type McpStartupCompleteEvent = z.infer<typeof McpStartupCompleteEventSchema>;

/** Emitted when a server's live tool list replaces its snapshot or changes after list_changed. */
export const McpToolsChangedEventSchema = z.object({
  server: z.string(),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  changed: z.array(z.string()),
});
export type McpToolsChangedEvent = z.infer<typeof McpToolsChangedEventSchema>;

export const McpInvocationSchema = z.object({
  server: z.string(),
  tool: z.string(),
  arguments: z.unknown().optional(),
});
export type McpInvocation = z.infer<typeof McpInvocationSchema>;

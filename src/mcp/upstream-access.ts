// What one caller may reach upstream (a served endpoint's [server_auth] rules), checked by the
// manager on every operation, so that no road to an upstream can forget it. What a caller may not
// reach is answered exactly like what does not exist: a view leaks nothing.
import { McpClientError } from '../util/index.js';
import { canonicalUri, namedThroughTemplates } from './resource-uri.js';

/** The caller's rights over upstream items; absent from an operation's options: everything. */
export interface UpstreamAccess {
  /** No rule restricts it: nothing to check. */
  readonly unrestricted: boolean;
  /** An item of `server`: a tool or prompt by its raw name, a resource by its URI in canonical form. */
  allows(server: string, name: string): boolean;
}

export function unknownToolError(server: string, tool: string): McpClientError {
  return new McpClientError('unknown_tool', `MCP server '${server}' offers no tool '${tool}'`);
}

export function unknownPromptError(server: string, prompt: string): McpClientError {
  return new McpClientError('unknown_prompt', `MCP server '${server}' offers no prompt '${prompt}'`);
}

export function unknownResourceError(uri: string): McpClientError {
  return new McpClientError('unknown_resource', `Resource ${uri} not found`);
}

export function checkTool(access: UpstreamAccess | undefined, server: string, tool: string): void {
  if (access && !access.unrestricted && !access.allows(server, tool)) throw unknownToolError(server, tool);
}

export function checkPrompt(access: UpstreamAccess | undefined, server: string, prompt: string): void {
  if (access && !access.unrestricted && !access.allows(server, prompt)) throw unknownPromptError(server, prompt);
}

/**
 * The URI to ask `server` for: `uri` itself for an unrestricted caller; else its canonical form,
 * once it and every resource it names through `templates` are allowed.
 */
export async function checkedResourceUri(access: UpstreamAccess | undefined, server: string, uri: string, templates: () => Promise<readonly string[]>): Promise<string> {
  if (!access || access.unrestricted) return uri;
  const canonical = canonicalUri(uri);
  const named = [canonical, ...(await namedThroughTemplates(canonical, await templates()))];
  if (!named.every((name) => access.allows(server, name))) throw unknownResourceError(uri);
  return canonical;
}

// What the gateway declares to its upstream servers: everything it can relay (form and URL
// elicitation, sampling with tools and context, roots). A calling client that lacks what an
// upstream asks is refused as its own revision says (mcp-host's requests).
import type { McpClientOptions } from '../mcp-client/index.js';

/** The client options of every upstream connection of a gateway (one pool for all its clients). */
export const UPSTREAM_CLIENT_OPTIONS: Pick<McpClientOptions, 'elicitationCapability' | 'samplingCapability'> = {
  elicitationCapability: { form: {}, url: {} },
  samplingCapability: { context: {}, tools: {} },
};

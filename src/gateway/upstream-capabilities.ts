// What the gateway declares to its upstream servers, derived from what its own client declared: an
// upstream may elicit or sample only when the gateway can pass the request on to someone who answers,
// and asks the client for its roots when the client has them.
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { McpClientOptions } from '../mcp-client/index.js';

export interface UpstreamCapabilities {
  /** The client options every upstream connection of this gateway session gets. */
  clientOptions: Pick<McpClientOptions, 'elicitationCapability' | 'samplingCapability'>;
  /** Whether upstreams get a sampling handler (and so the sampling capability). */
  sampling: boolean;
  /** Whether upstreams' roots/list goes to the client (else they get the gateway's working directory). */
  roots: boolean;
}

export function upstreamCapabilities(downstream: ClientCapabilities | undefined): UpstreamCapabilities {
  const sampling = downstream?.sampling;
  return {
    clientOptions: {
      // Passed on as declared: `{}` (form only, the 2025-06-18 shape), form and/or url, applyDefaults.
      elicitationCapability: downstream?.elicitation ?? null,
      ...(sampling ? { samplingCapability: sampling } : {}),
    },
    sampling: sampling !== undefined,
    roots: downstream?.roots !== undefined,
  };
}

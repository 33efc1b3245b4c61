// Resource subscriptions made again on a connection that holds none of them yet: a new connection,
// or a new upstream session of one (an expired session takes its subscriptions with it). One loop
// for a server's shared connection and for each caller's own.
import type { McpClient } from '../mcp-client/index.js';
import { errorMessage, type Logger } from '../util/index.js';

export interface ResubscribeContext {
  server: string;
  logger: Logger;
  /** Which connection, in the warning: "shared", "a caller's own". */
  connection: string;
  timeoutMs?: number;
}

/** `uris` subscribed again on `client` (nothing to do when it offers no subscriptions); the URIs that failed, each logged. */
export async function resubscribe(client: McpClient, uris: Iterable<string>, context: ResubscribeContext): Promise<string[]> {
  const failed: string[] = [];
  if (client.capabilities?.resources?.subscribe !== true) return failed;
  const { server, logger, connection, timeoutMs } = context;
  await Promise.all(
    [...uris].map(async (uri) => {
      try {
        await client.subscribe(uri, timeoutMs === undefined ? {} : { timeoutMs });
      } catch (err) {
        failed.push(uri);
        logger.warn(`could not renew a resource subscription on MCP server '${server}' (${connection} connection): ${errorMessage(err)}`, { uri });
      }
    }),
  );
  return failed;
}

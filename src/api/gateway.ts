// The `switchboard/gateway` package entry: `switchboard serve` in-process, over Streamable HTTP or
// stdio, serving the configured MCP servers as one MCP server.
export {
  startHttpGateway,
  runStdioGateway,
  type GatewayServeOptions,
  type HttpGatewayOptions,
  type HttpGateway,
  type StdioGatewayOptions,
} from './embed-gateway.js';
export { SERVER_META_KEY } from '../gateway/index.js';

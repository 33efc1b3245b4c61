// `switchboard serve`, embedded: the gateway on Streamable HTTP inside this process, re-serving
// server-everything; then an MCP client (the official SDK) connects to it, lists the aggregated
// catalog and calls a tool through it.
//
//   npx node examples/embed-gateway.ts            (--serve: keep serving until Ctrl-C)
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildConfig, resolveHome } from 'switchboard';
import { startHttpGateway } from 'switchboard/gateway';

const everything = fileURLToPath(import.meta.resolve('@modelcontextprotocol/server-everything/dist/index.js'));
const { config } = buildConfig(
  { mcp_servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } },
  { home: resolveHome() },
);

// Every request must carry this token; port 0 picks a free port.
const token = randomBytes(24).toString('base64url');
const gateway = await startHttpGateway({ config, host: '127.0.0.1', port: 0, token });
console.log(`gateway listening on ${gateway.url}`);

const client = new Client({ name: 'embed-gateway-example', version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const { tools } = await client.listTools();
  console.log(`${tools.length} tools, e.g. ${tools.slice(0, 3).map((t) => t.name).join(', ')}`);
  const result = await client.callTool({ name: 'mcp__everything__get-sum', arguments: { a: 2, b: 3 } });
  for (const block of result.content) console.log(block.type === 'text' ? block.text : JSON.stringify(block));
  if (process.argv.includes('--serve')) {
    console.log(`serving until Ctrl-C; clients need "Authorization: Bearer ${token}"`);
    await new Promise((resolve) => process.once('SIGINT', resolve));
  }
} finally {
  await client.close();
  await gateway.close();
}

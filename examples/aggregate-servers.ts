// Many MCP servers as one catalog: server-everything and server-filesystem behind one connection
// manager; list the catalog and call a tool by its catalog name (mcp__<server>__<tool>).
//
//   npx node examples/aggregate-servers.ts [catalog-name] [json-arguments]
//
// The servers are the npm packages installed with this repository (elsewhere: npm i
// @modelcontextprotocol/server-everything @modelcontextprotocol/server-filesystem). Startup
// snapshots are kept under $SWITCHBOARD_HOME (default ~/.switchboard), as the CLI keeps them.
import { fileURLToPath } from 'node:url';
import { buildConfig, createConnectionManager, resolveHome } from 'switchboard';

const [toolName = 'mcp__everything__echo', json = '{"message":"hello from switchboard"}'] = process.argv.slice(2);
const script = (pkg: string) => fileURLToPath(import.meta.resolve(`${pkg}/dist/index.js`));

// The same tables a config.toml holds; loadConfig() reads them from the file instead.
const { config } = buildConfig(
  {
    mcp_servers: {
      everything: { command: process.execPath, args: [script('@modelcontextprotocol/server-everything'), 'stdio'] },
      // server-filesystem serves the client's workspace roots: the current directory.
      files: { command: process.execPath, args: [script('@modelcontextprotocol/server-filesystem'), process.cwd()] },
    },
  },
  { home: resolveHome() },
);

const manager = createConnectionManager(config, {
  onEvent: (event) => {
    if (event.type === 'mcp_startup_update') console.error(`${event.server}: ${event.status.state}`);
  },
});
try {
  manager.start();
  const summary = await manager.waitForStartup();
  for (const failed of summary.failed) console.error(`${failed.server} failed: ${failed.error}`);

  const catalog = await manager.listAllTools();
  console.log(`${catalog.length} tools from ${manager.readyServers().join(' and ')}:`);
  for (const entry of catalog) console.log(`  ${entry.name}  (${entry.server}: ${entry.tool})`);

  const result = await manager.callTool(toolName, JSON.parse(json) as Record<string, unknown>);
  console.log(`\n${toolName} ->`);
  for (const block of result.content) console.log(block.type === 'text' ? block.text : JSON.stringify(block));
  process.exitCode = result.isError ? 1 : 0;
} finally {
  await manager.close();
}

// `mcp-server --http` with OAuth callers and a server that acts as each caller: the agent would reach
// that server as the operator on a caller's behalf, so the command refuses to start and says what to
// do instead (the gateway, or identity = "operator").
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { removeTree, tempDir } from '../support/temp.js';

describe('mcp-server --http and identity = "caller"', () => {
  let home: string | undefined;
  afterEach(async () => {
    if (home) await removeTree(home);
  });

  it('refuses to start rather than act as the operator for its callers', async () => {
    home = await tempDir('sb-agent-caller-');
    await writeFile(
      path.join(home, 'config.toml'),
      `[mcp_servers.team]
url = "https://team-mcp.example.test/mcp"
identity = "caller"

[server_auth]
issuer = "https://login.example.test"
audience = "https://agent.example.test/mcp"
`,
    );
    const result = await runCli(['mcp-server', '--http', '127.0.0.1:0'], { home });
    expect(result.code).not.toBe(0);
    expect(result.stdout).not.toContain('listening on');
    expect(result.stderr).toContain("reaches MCP server 'team' as the operator, not as each caller");
    expect(result.stderr).toContain('switchboard serve --http');
    expect(result.stderr).toContain('mcp_servers.team.identity');
  }, 30_000);
});

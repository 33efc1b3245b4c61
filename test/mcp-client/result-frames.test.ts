// tools/call results through our stdio transport and result validation, next to a bare SDK client on
// the same server: what one accepts, rewrites or refuses, the other does alike (the frames the
// transport reads without the SDK's schema, and the validator built once per era).
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { clientPool, failure, FIXTURES, fixtureStdio, NODE } from './helpers.js';

const pool = clientPool();
const bare: Client[] = [];
afterEach(async () => {
  await pool.closeAll();
  await Promise.all(bare.splice(0).map((c) => c.close()));
});

async function sdkClient(): Promise<Client> {
  const client = new Client({ name: 'bare', version: '1' });
  bare.push(client);
  await client.connect(new StdioClientTransport({ command: NODE, args: [path.join(FIXTURES, 'raw-frames-server.mjs')], stderr: 'ignore' }));
  return client;
}

describe('tools/call results over stdio, as the bare SDK client reads them', () => {
  it.each(['plain', 'meta_result', 'string_id'])('%s: the same result', async (tool) => {
    const ours = pool.create(fixtureStdio('raw', 'raw-frames-server.mjs'));
    await ours.connect();
    const sdk = await sdkClient();
    const expected = await sdk.callTool({ name: tool, arguments: {} });
    expect(await ours.callTool(tool, {})).toEqual(expected);
  });

  it('a result that is not a CallToolResult is refused with the SDK client\'s message, every time', async () => {
    const ours = pool.create(fixtureStdio('raw', 'raw-frames-server.mjs'));
    await ours.connect();
    const sdk = await sdkClient();
    const sdkError = await sdk.callTool({ name: 'bad_result', arguments: {} }).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(sdkError?.message).toMatch(/^Invalid result for tools\/call: /);
    for (let i = 0; i < 2; i++) {
      const err = await failure(ours.callTool('bad_result', {}));
      expect(err.message).toContain(sdkError!.message);
    }
    expect(await ours.callTool('plain', {})).toEqual(await sdk.callTool({ name: 'plain', arguments: {} }));
  });
});

// Every failure of the connection manager is the one error type of the package, McpClientError,
// with a code of the one exported union, whatever failed: a name, a server, a filter, or an abort.
import { afterEach, describe, expect, it } from 'vitest';
import { isMcpClientError, McpClientError, type McpErrorCode } from '../../src/mcp-client/index.js';
import { fixtureServer, makeHarness, type Harness } from './manager-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function failure(run: () => Promise<unknown>): Promise<McpClientError> {
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpClientError);
  return err as McpClientError;
}

/** A code of the exported union: checked by the compiler where the list is written. */
const codes = (...list: McpErrorCode[]) => list;

describe('the manager\'s errors', () => {
  it('are McpClientError with a code of McpErrorCode: unknown tool and server, disabled tool, failed and required servers', async () => {
    h = await makeHarness([
      fixtureServer('fine', { MGR_TOOLS: 'echo,secret' }, { disabled_tools: ['secret'] }),
      fixtureServer('broken', { MGR_EXIT_AT_START: '2' }, { required: true }),
    ]);
    await h.manager.waitForStartup();
    const seen = [
      await failure(() => h!.manager.callTool('mcp__fine__ecko', {})),
      await failure(() => h!.manager.waitForServer('nope')),
      await failure(() => h!.manager.callServerTool('fine', 'secret', {})),
      await failure(() => h!.manager.callServerTool('broken', 'echo', {})),
      await failure(() => h!.manager.requireServers()),
    ];
    expect(seen.map((e) => e.code)).toEqual(codes('unknown_tool', 'unknown_server', 'tool_disabled', 'server_unavailable', 'required_failed'));
    // A caller's rights answer what it may not reach as unknown, with the same error type.
    const denied = { unrestricted: false, allows: () => false };
    const refusals = [
      await failure(() => h!.manager.callServerTool('fine', 'echo', {}, { access: denied })),
      await failure(() => h!.manager.getPrompt('fine', 'p', {}, { access: denied })),
      await failure(() => h!.manager.readResource('fine', 'x://y', { access: denied })),
    ];
    expect(refusals.map((e) => e.code)).toEqual(codes('unknown_tool', 'unknown_prompt', 'unknown_resource'));
    for (const err of refusals) expect(isMcpClientError(err, err.code)).toBe(true);
    for (const err of seen) expect(isMcpClientError(err, err.code)).toBe(true);
    // Why the server is unavailable stays reachable: the failure of its start.
    expect(seen[3]!.cause).toMatchObject({ code: 'process_exited' });
  });

  it('report an abort as cancelled, whether the manager was waiting for a server or the server was answering', async () => {
    h = await makeHarness([fixtureServer('hang', { MGR_HANG: '1' }, { startup_timeout_sec: 60 }), fixtureServer('fine')], { snapshots: false });
    const waiting = new AbortController();
    const listing = failure(() => h!.manager.listAllTools({ wait: 'all', signal: waiting.signal }));
    const calling = failure(() => h!.manager.callServerTool('hang', 'echo', {}, { signal: waiting.signal }));
    const refreshing = failure(() => h!.manager.refresh('hang', { signal: waiting.signal }));
    waiting.abort();
    const [listed, called, refreshed] = await Promise.all([listing, calling, refreshing]);
    expect([listed.code, called.code, refreshed.code]).toEqual(['cancelled', 'cancelled', 'cancelled']);
    // The abort's own reason is kept as the cause.
    expect(listed.cause).toBe(waiting.signal.reason);

    const answering = new AbortController();
    await h.manager.waitForServer('fine');
    const slowCall = failure(() => h!.manager.callTool('mcp__fine__echo', { text: 'x' }, { signal: answering.signal }));
    answering.abort();
    expect((await slowCall).code).toBe('cancelled');
  });
});

// 2026-07-28 retries on a real cluster: an input-required request's waiting work (a gateway upstream's
// elicitation, an agent turn's approval) stays in the replica that minted its requestState; a retry
// landing on another replica (directly, or through nginx's round robin) is forwarded to the holder
// and completes, a forwarded retry is never forwarded again, and a retry whose holder died gets the
// clear "no longer waiting" error.
import { describe, expect, it } from 'vitest';
import type { Replica } from '../../scripts/cluster/cluster.mjs';
import { sharedCluster } from '../support/shared-cluster.js';
import { post2026 } from '../support/raw-2026.js';

const shared = sharedCluster();

const TOOL = 'mcp__demo__ask';

interface Answer {
  upstream: string | null;
  result?: { resultType?: string; requestState?: string; inputRequests?: Record<string, unknown>; content?: { text: string }[] };
  error?: { code: number; message: string };
}

let id = 0;


/** One raw 2026-07-28 tools/call; the replica that answered (nginx's `x-upstream`) beside the answer. */
async function post(url: string, name: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  const { response, answer } = await post2026<Omit<Answer, 'upstream'>>(url, { id: ++id, method: 'tools/call', name, params: { name, ...params }, token: shared.cluster().token, headers });
  return { upstream: response.headers.get('x-upstream'), ...answer };
}

/** The demo upstream's `ask` (form elicitation), a retry when `retry` is given. */
async function ask(url: string, retry?: { state: string; key: string; answer: string }, extraHeaders: Record<string, string> = {}): Promise<Answer> {
  const params = {
    arguments: { message: 'which colour?' },
    ...(retry ? { requestState: retry.state, inputResponses: { [retry.key]: { action: 'accept', content: { answer: retry.answer } } } } : {}),
  };
  return post(url, TOOL, params, extraHeaders);
}

function pending(first: Answer): { state: string; key: string } {
  expect(first.error).toBeUndefined();
  expect(first.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
  return { state: first.result!.requestState!, key: Object.keys(first.result!.inputRequests!)[0]! };
}

describe('retries on a cluster', { tags: shared.tags }, () => {
  it('a retry sent to replica B continues the request replica A holds', async () => {
    const [a, b] = shared.cluster().gateways as [Replica, Replica];
    const first = pending(await ask(a.url));
    // A retry already forwarded once is served where it lands (no loops): B holds nothing for it.
    const looped = await ask(b.url, { ...first, answer: 'blue' }, { 'x-switchboard-forwarded-retry': '1' });
    expect(looped.error).toMatchObject({ code: -32602, message: expect.stringMatching(/no longer waiting here/) });
    const done = await ask(b.url, { ...first, answer: 'blue' });
    expect(done.error).toBeUndefined();
    expect(done.result!.content![0]!.text).toBe(JSON.stringify({ action: 'accept', content: { answer: 'blue' } }));
  }, 60_000);

  it('through nginx (round robin, no stickiness) the retry lands on the other replica and completes', async () => {
    const first = await ask(shared.cluster().gatewayUrl!);
    const retried = await ask(shared.cluster().gatewayUrl!, { ...pending(first), answer: 'green' });
    expect(retried.error).toBeUndefined();
    expect(retried.result!.content![0]!.text).toBe(JSON.stringify({ action: 'accept', content: { answer: 'green' } }));
    // Round robin over two replicas: the retry was answered by the other one.
    expect(first.upstream).not.toBeNull();
    expect(retried.upstream).not.toBe(first.upstream);
  }, 60_000);

  it('a retry whose holder died gets the clear "no longer waiting" error on the replica it lands on', async () => {
    const [a, b] = shared.cluster().gateways as [Replica, Replica];
    const first = pending(await ask(a.url));
    await a.kill('SIGKILL');
    try {
      const orphan = await ask(b.url, { ...first, answer: 'red' });
      expect(orphan.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid requestState: the request it belongs to is no longer waiting here/) });
    } finally {
      await a.start();
    }
  }, 60_000);

  it('an agent turn waiting for an approval on A continues when the approval reaches B', async () => {
    const [a, b] = shared.cluster().agents as [Replica, Replica];
    const args = { prompt: 'make a file [shell]', 'approval-policy': 'untrusted' };
    const first = pending(await post(a.url, 'codex', { arguments: args }));
    const done = await post(b.url, 'codex', {
      arguments: args,
      requestState: first.state,
      inputResponses: { [first.key]: { action: 'accept', content: { decision: 'denied' } } },
    });
    expect(done.error).toBeUndefined();
    expect(done.result).not.toMatchObject({ resultType: 'input_required' });
    expect(done.result!.content![0]!.text).toBe('echo: make a file [shell]');
  }, 60_000);
});

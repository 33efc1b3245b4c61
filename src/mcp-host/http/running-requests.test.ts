import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { RunningRequests } from './running-requests.js';

/** The SDK transport's side as the decorator sees it: messages in, messages out. */
function inner(): Transport & { sent: JSONRPCMessage[]; deliver(m: JSONRPCMessage): void } {
  const t = {
    sent: [] as JSONRPCMessage[],
    start: async () => {},
    close: async () => {},
    send: async (m: JSONRPCMessage) => void t.sent.push(m),
    deliver: (m: JSONRPCMessage) => t.onmessage?.(m),
    onmessage: undefined as Transport['onmessage'],
  };
  return t;
}

const req = (id: string | number, method = 'ping'): JSONRPCMessage => ({ jsonrpc: '2.0', id, method });

describe('RunningRequests', () => {
  it('refuses an id while it runs, frees it with the response, and tells 1 from "1"', async () => {
    const sdk = inner();
    const running = new RunningRequests(sdk);
    const seen: JSONRPCMessage[] = [];
    running.onmessage = (m) => void seen.push(m);
    await running.start();
    const post = {};
    expect(running.claim([req(1)], post)).toBeNull();
    sdk.deliver(req(1));
    expect(seen).toEqual([req(1)]);
    expect(running.claim([req('1')], {})).toBeNull();
    expect(running.claim([req(1)], {})).toMatchObject({ id: 1, error: { code: -32600 } });
    running.release(post); // the POST's stream closed, but the server still runs the request
    expect(running.claim([req(1)], {})).not.toBeNull();
    await running.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(sdk.sent).toHaveLength(1);
    expect(running.claim([req(1)], {})).toBeNull();
  });

  it('frees a claim the transport never delivered when its POST ends, and an id the client cancelled', async () => {
    const sdk = inner();
    const running = new RunningRequests(sdk);
    await running.start();
    const refusedPost = {};
    expect(running.claim([req('a'), req('b')], refusedPost)).toBeNull();
    running.release(refusedPost);
    expect(running.claim([req('a')], {})).toBeNull();
    sdk.deliver(req('a'));
    sdk.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } });
    expect(running.claim([req('a')], {})).toBeNull();
  });

  it('refuses a POST that repeats an id, claiming nothing of it', () => {
    const running = new RunningRequests(inner());
    expect(running.claim([req(5), req(6), req(5)], {})).toMatchObject({ id: 5, error: { code: -32600 } });
    expect(running.claim([req(6)], {})).toBeNull();
  });

  it('cancels a running request whose stream closed and was not resumed within the grace; a resumed or answered one is left alone', async () => {
    const sdk = inner();
    const running = new RunningRequests(sdk, 30);
    const seen: JSONRPCMessage[] = [];
    running.onmessage = (m) => void seen.push(m);
    await running.start();
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const gone = {};
    running.claim([req('gone')], gone);
    sdk.deliver(req('gone'));
    running.release(gone);
    await sleep(60);
    expect(seen.at(-1)).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 'gone', reason: expect.stringContaining('client went away') } });
    expect(running.claim([req('gone')], {})).toBeNull();

    const back = {};
    running.claim([req('back')], back);
    sdk.deliver(req('back'));
    running.release(back);
    running.resumed();
    const answered = {};
    running.claim([req('answered')], answered);
    sdk.deliver(req('answered'));
    running.release(answered);
    await running.send({ jsonrpc: '2.0', id: 'answered', result: {} });
    const before = seen.length;
    await sleep(60);
    expect(seen).toHaveLength(before);
  });
});

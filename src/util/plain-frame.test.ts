import { parseJSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { plainJsonRpcFrame } from './plain-frame.js';

const sdk = (value: unknown): unknown => {
  try {
    return parseJSONRPCMessage(value);
  } catch {
    return 'rejected';
  }
};

describe('plainJsonRpcFrame', () => {
  it.each([
    { method: 'tools/call', params: { name: 'x', arguments: { text: 'x' } }, jsonrpc: '2.0', id: 7 },
    { jsonrpc: '2.0', id: 'a', method: 'ping' },
    { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'x', task: { ttl: 5 }, arguments: { a: [1, { b: 2 }] } } },
    { result: { content: [{ type: 'text', text: 'x' }] }, jsonrpc: '2.0', id: 5 },
    { jsonrpc: '2.0', id: 'r', result: { content: [], isError: true, structuredContent: { a: 1 }, extra: null } },
    { jsonrpc: '2.0', id: 1, result: {} },
  ])('returns what the SDK schema returns, key order included: %j', (frame) => {
    const expected = sdk(frame);
    expect(expected).not.toBe('rejected');
    expect(JSON.stringify(plainJsonRpcFrame(frame))).toBe(JSON.stringify(expected));
  });

  it.each([
    // What only the SDK's schema can judge or rewrite: _meta, notifications, errors, odd ids and keys.
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 1 } } },
    { jsonrpc: '2.0', id: 1, result: { _meta: { 'io.modelcontextprotocol/serverInfo': 42 }, content: [] } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } },
    { jsonrpc: '2.0', id: 1.5, method: 'ping' },
    { jsonrpc: '2.0', id: 2 ** 60, result: {} },
    { jsonrpc: '2.0', id: null, result: {} },
    { jsonrpc: '1.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
    { jsonrpc: '2.0', id: 1, result: {}, extra: true },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: [1] },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: null },
    { jsonrpc: '2.0', id: 1, result: [] },
    { jsonrpc: '2.0', id: 1, method: 'x', result: {} },
    JSON.parse('{"jsonrpc":"2.0","id":1,"result":{},"__proto__":{}}') as unknown,
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
    'ping',
    null,
  ])('leaves the rest to the SDK: %j', (frame) => {
    expect(plainJsonRpcFrame(frame)).toBeUndefined();
  });
});

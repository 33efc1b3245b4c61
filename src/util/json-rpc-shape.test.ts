import { isDeepStrictEqual } from 'node:util';
import { parseJSONRPCMessage, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isPlainJsonRpcMessage } from './json-rpc-shape.js';

const sdkAccepts = (value: unknown): boolean => {
  try {
    parseJSONRPCMessage(value);
    return true;
  } catch {
    return false;
  }
};

const plain = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { text: 'x' } } },
  { jsonrpc: '2.0', id: 'a', method: 'ping' },
  { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
  { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'hi' }] } },
  { jsonrpc: '2.0', id: 'x', result: {} },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', _meta: { progressToken: 'p-1' } } },
  { jsonrpc: '2.0', id: 3, method: 'ping', params: { _meta: { progressToken: 4 } } },
  // A 2026-07-28 request: its envelope rides in `_meta`.
  {
    jsonrpc: '2.0',
    id: 4,
    method: 'tools/call',
    params: {
      name: 't',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      },
    },
  },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: {} } },
];

// Each is either refused by the SDK too, or left to the SDK's parse (error responses, `_meta`).
const notPlain = [
  null,
  [],
  'text',
  { jsonrpc: '1.0', id: 1, method: 'ping' },
  { id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  { jsonrpc: '2.0', id: Number.MAX_SAFE_INTEGER + 1, method: 'ping' },
  { jsonrpc: '2.0', id: null, method: 'ping' },
  { jsonrpc: '2.0', id: true, result: {} },
  { jsonrpc: '2.0', id: 1, method: 7 },
  { jsonrpc: '2.0', id: 1, method: 'ping', extra: 1 },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: [] },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: null },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: {} } } },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 1.5 } } },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: null } } },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: [] } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't', extra: 1 } } } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't' } } } },
  { jsonrpc: '2.0', method: 'notifications/x', params: { _meta: 'no' } },
  { jsonrpc: '2.0', id: 1, result: { _meta: { x: 1 } } },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', result: {} },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'bad' } },
  { jsonrpc: '2.0', id: 1, result: {}, method: 'ping' },
];

describe('isPlainJsonRpcMessage', () => {
  it('passes only messages the SDK schema accepts, and the SDK parses them to the same value', () => {
    for (const m of plain) {
      expect(isPlainJsonRpcMessage(m), JSON.stringify(m)).toBe(true);
      expect(parseJSONRPCMessage(m)).toEqual(m);
    }
  });

  it('names the related-task key as the SDK does', () => {
    expect(isPlainJsonRpcMessage({ jsonrpc: '2.0', method: 'x', params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't' } } } })).toBe(false);
  });

  it('leaves everything else to the SDK parse', () => {
    for (const m of notPlain) expect(isPlainJsonRpcMessage(m), JSON.stringify(m)).toBe(false);
    // Sanity: the cases the SDK accepts are among them (they must still reach it, not be refused here).
    expect(notPlain.filter(sdkAccepts).length).toBeGreaterThan(0);
  });

  it('agrees with the SDK on every combination of the keys it reads', () => {
    const ids = [undefined, 1, 'a', 1.5, null];
    const methods = [undefined, 'ping', 3];
    const metas = [{}, { progressToken: 1 }, { progressToken: 'p' }, { progressToken: 2.5 }, { progressToken: null }, { x: { y: 1 } }, { [RELATED_TASK_META_KEY]: { taskId: 't', z: 1 } }, [], null, 'm'];
    const params = [undefined, {}, { a: 1 }, [], null, ...metas.map((_meta) => ({ _meta })), ...metas.map((_meta) => ({ name: 'n', _meta }))];
    const results = [undefined, {}, { content: [] }, { _meta: {} }, []];
    for (const id of ids)
      for (const method of methods)
        for (const p of params)
          for (const result of results) {
            const m: Record<string, unknown> = { jsonrpc: '2.0' };
            if (id !== undefined) m.id = id;
            if (method !== undefined) m.method = method;
            if (p !== undefined) m.params = p;
            if (result !== undefined) m.result = result;
            // The same value (zod may put a loose object's known keys first; JSON's key order means nothing).
            if (isPlainJsonRpcMessage(m)) expect(sdkAccepts(m) && isDeepStrictEqual(parseJSONRPCMessage(m), m), JSON.stringify(m)).toBe(true);
          }
  });
});

import { describe, expect, it } from 'vitest';
import { jsonRpcError } from './json-rpc.js';

describe('jsonRpcError', () => {
  it('builds the envelope, with data only when given', () => {
    expect(JSON.stringify(jsonRpcError(7, -32601, 'nope'))).toBe('{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"nope"}}');
    expect(jsonRpcError('a', -32601, 'nope', { method: 'x' })).toEqual({ jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'nope', data: { method: 'x' } } });
    expect(jsonRpcError(null, -32700, 'Parse error')).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  });
});

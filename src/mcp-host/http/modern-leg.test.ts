import type http from 'node:http';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, isLegacyRequest, PROTOCOL_VERSION_META_KEY, Server } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { nullLogger } from '../../util/index.js';
import { createModernLeg } from './modern-leg.js';

const REVISION = '2026-07-28';
const envelope = { [PROTOCOL_VERSION_META_KEY]: REVISION, [CLIENT_INFO_META_KEY]: { name: 't', version: '1' }, [CLIENT_CAPABILITIES_META_KEY]: {} };
const modernHeaders = (method: string, name?: string) => ({ 'mcp-protocol-version': REVISION, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: envelope } };

/** Requests as the host hands them over (headers as Node parsed them, the body already parsed). */
const cases: [string, Record<string, string>, unknown][] = [
  ['a 2026-07-28 tools/call with its headers', { 'content-type': 'application/json', ...modernHeaders('tools/call', 'echo') }, call],
  ['server/discover', modernHeaders('server/discover'), { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } }],
  ['an envelope without the standard headers', {}, call],
  ['headers that disagree with the body', modernHeaders('tools/list'), call],
  ['a 2025 initialize', { 'content-type': 'application/json' }, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }],
  ['a 2025 tools/call', { 'mcp-protocol-version': '2025-11-25' }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo' } }],
  ['a 2025 notification', {}, { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['a 2026-07-28 notification', modernHeaders('notifications/cancelled'), { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: envelope } }],
  ['a batch', {}, [call, call]],
  ['a response', {}, { jsonrpc: '2.0', id: 3, result: {} }],
  ['no JSON body', {}, undefined],
];

describe('the modern leg claims exactly what the SDK routes to 2026-07-28', () => {
  const leg = createModernLeg(() => new Server({ name: 'unused', version: '1' }, { capabilities: {} }), { logger: nullLogger, maxBodyBytes: 1 << 20 });
  afterAll(() => leg.close());

  it.each(cases)('%s', async (_, headers, body) => {
    const req = { method: 'POST', headers } as unknown as http.IncomingMessage;
    const sdkSaysLegacy = await isLegacyRequest(new Request('http://localhost/', { method: 'POST', headers }), body);
    expect(await leg.claims(req, body)).toBe(!sdkSaysLegacy);
  });

  it('claims the modern tools/call and leaves the 2025 initialize (the matrix above is not one-sided)', async () => {
    const claim = (headers: Record<string, string>, body: unknown) => leg.claims({ method: 'POST', headers } as unknown as http.IncomingMessage, body);
    expect(await claim(cases[0]![1], cases[0]![2])).toBe(true);
    expect(await claim(cases[4]![1], cases[4]![2])).toBe(false);
  });
});

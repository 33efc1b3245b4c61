import type http from 'node:http';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, isLegacyRequest, PROTOCOL_VERSION_META_KEY, Server } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { nullLogger } from '../../util/index.js';
import { createModernLeg, namesTheRevision } from './modern-leg.js';

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
  ['an initialize naming 2026-07-28 in its header', modernHeaders('initialize'), { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }],
  ['a request naming 2026-07-28 in its header without the envelope', modernHeaders('tools/list'), { jsonrpc: '2.0', id: 4, method: 'tools/list' }],
  ['a response posted with the 2026-07-28 header', modernHeaders('tools/call'), { jsonrpc: '2.0', id: 3, result: {} }],
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

describe('namesTheRevision (the claim made without the classifier)', () => {
  // Every combination of header, id, method, params and stray keys: where the shortcut claims a
  // request, the SDK's classifier must route it to 2026-07-28 too.
  const headerValues = [undefined, '2025-11-25', REVISION];
  const ids = [undefined, 1, 'a', 1.5, null];
  const methods = ['tools/call', 'initialize', 'notifications/cancelled', 7];
  const params = [undefined, {}, { _meta: envelope }, { _meta: { ...envelope, [CLIENT_INFO_META_KEY]: 'bad' } }, { _meta: { progressToken: 1 } }, { _meta: { progressToken: {} } }, { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } }, 'text'];
  const extras = [{}, { result: {} }, { error: { code: 1, message: 'x' } }, { stray: true }];
  const bodies = ids.flatMap((id) => methods.flatMap((method) => params.flatMap((p) => extras.map((extra) => ({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, ...(p === undefined ? {} : { params: p }), ...extra })))));

  it('claims nothing the SDK would route to the 2025 side', async () => {
    let claimed = 0;
    for (const version of headerValues) {
      const headers: Record<string, string> = version === undefined ? {} : { 'mcp-protocol-version': version };
      for (const body of bodies) {
        if (!namesTheRevision(version, body)) continue;
        claimed++;
        const sdkSaysLegacy = await isLegacyRequest(new Request('http://localhost/', { method: 'POST', headers }), body);
        expect(sdkSaysLegacy, JSON.stringify({ version, body })).toBe(false);
      }
    }
    expect(claimed).toBeGreaterThan(10); // the shortcut is taken, not vacuous
  });

  it('is taken for a 2026-07-28 tools/call and not without the header, for a batch or a notification', () => {
    expect(namesTheRevision(REVISION, call)).toBe(true);
    expect(namesTheRevision(undefined, call)).toBe(false);
    expect(namesTheRevision(REVISION, [call])).toBe(false);
    expect(namesTheRevision(REVISION, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: envelope } })).toBe(false);
  });
});

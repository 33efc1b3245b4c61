import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/server';
import { createTelemetry, NOOP_TELEMETRY, type EndedSpan, type OpenSpan, type SpanSpec, type Tracer } from '../../util/telemetry/index.js';
import { listenTap } from './listen-tap.js';
import { observedTransport, requestSpanOf } from './observed-transport.js';

/** The far side of a transport: what the server sent, and a way to deliver messages to it. */
class Wire implements Transport {
  onclose?: () => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  sent: JSONRPCMessage[] = [];
  async start() {}
  async send(message: JSONRPCMessage) {
    this.sent.push(message);
  }
  async close() {
    this.onclose?.();
  }
}

function recording(): { tracer: Tracer; started: SpanSpec[] } {
  const started: SpanSpec[] = [];
  const span: OpenSpan = { set() {}, fail() {}, traceContext: () => undefined, within: (fn) => fn(), end() {} };
  return { started, tracer: { start: (spec) => (started.push(spec), span), traceContext: () => undefined, shutdown: async () => {} } };
}

const TP_META = '00-11111111111111111111111111111111-2222222222222222-01';
const TP_HEADER = '00-33333333333333333333333333333333-4444444444444444-01';

describe('observedTransport', () => {
  it('is the transport itself when telemetry is off', () => {
    const wire = new Wire();
    expect(observedTransport(wire, NOOP_TELEMETRY, { transport: 'pipe' })).toBe(wire);
  });

  it('continues the trace of _meta.traceparent, else of the HTTP header, and ends each span with its answer', async () => {
    const { tracer, started } = recording();
    const ended: EndedSpan[] = [];
    const wire = new Wire();
    const observed = observedTransport(wire, createTelemetry({ tracer, listeners: [{ ended: (s) => ended.push(s) }] }), { transport: 'tcp', protocolVersion: () => '2025-11-25' });
    const seen: JSONRPCMessage[] = [];
    observed.onmessage = (m) => void seen.push(m);
    await observed.start();
    const headers = { request: new Request('http://127.0.0.1/mcp', { headers: { traceparent: TP_HEADER } }) } as MessageExtraInfo;
    wire.onmessage!({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { secret: 'x' }, _meta: { traceparent: TP_META } } }, headers);
    wire.onmessage!({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fails' } }, headers);
    wire.onmessage!({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'p' } });
    wire.onmessage!({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(seen).toHaveLength(4);
    expect(started.map((s) => [s.name, s.kind, s.parent?.traceparent])).toEqual([
      ['tools/call echo', 'server', TP_META],
      ['tools/call fails', 'server', TP_HEADER],
      ['prompts/get p', 'server', undefined],
    ]);
    expect(started[0]!.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'jsonrpc.request.id': '1', 'mcp.protocol.version': '2025-11-25', 'network.transport': 'tcp' });
    expect(JSON.stringify(started)).not.toContain('secret');

    await observed.send({ jsonrpc: '2.0', id: 1, result: { content: [], isError: true } });
    await observed.send({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Unknown tool' } });
    expect(ended.map((e) => [e.spec.name, e.errorType, e.attributes['rpc.response.status_code']])).toEqual([
      ['tools/call echo', 'tool_error', undefined],
      ['tools/call fails', '-32602', '-32602'],
    ]);
    // A request still open when the connection closes ends as failed.
    await wire.close();
    expect(ended.map((e) => [e.spec.name, e.errorType]).at(-1)).toEqual(['prompts/get p', 'connection_closed']);
    expect(wire.sent).toHaveLength(2);
  });
});

describe('observedTransport with currentSpan: false', () => {
  it('leaves the span out of the async context and gives it by request id (through decorators too) until its answer', async () => {
    let entered = 0;
    const span: OpenSpan = { set() {}, fail() {}, traceContext: () => undefined, within: (fn) => (entered++, fn()), end() {} };
    const tracer: Tracer = { start: () => span, traceContext: () => undefined, shutdown: async () => {} };
    const wire = new Wire();
    const observed = observedTransport(wire, createTelemetry({ tracer }), { transport: 'pipe', currentSpan: false });
    const outer = listenTap(observed, () => {});
    outer.onmessage = () => {};
    await outer.start();
    wire.onmessage!({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'echo' } });
    expect(entered).toBe(0);
    expect(requestSpanOf(outer, 'a')).toBe(span);
    expect(requestSpanOf(outer, 'b')).toBeUndefined();
    expect(requestSpanOf(wire, 'a')).toBeUndefined();
    await outer.send({ jsonrpc: '2.0', id: 'a', result: { content: [] } });
    expect(requestSpanOf(outer, 'a')).toBeUndefined();
  });
});

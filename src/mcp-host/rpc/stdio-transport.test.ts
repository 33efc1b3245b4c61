import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createLogger, MAX_LINE_BYTES } from '../../util/index.js';
import { StdioFrameTransport } from './stdio-transport.js';

async function setup() {
  const input = new PassThrough();
  const output = new PassThrough();
  const logged: string[] = [];
  const transport = new StdioFrameTransport(input, output, createLogger((l) => logged.push(l)));
  const messages: JSONRPCMessage[] = [];
  let closes = 0;
  transport.onmessage = (m) => messages.push(m);
  transport.onclose = () => closes++;
  await transport.start();
  const frames = (): unknown[] =>
    String(output.read() ?? '')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);
  return { input, output, transport, messages, logged, frames, closes: () => closes };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('StdioFrameTransport (the stdio server side)', () => {
  it('frames lines across chunks (CRLF too) and answers bad frames (not notifications) without closing', async () => {
    const s = await setup();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    s.input.write(ping.slice(0, 10));
    s.input.write(`${ping.slice(10)}\r\nnot json\n{"jsonrpc":"2.0","id":7,"bogus":true}\n{"jsonrpc":"2.0","method":5}\n\n`);
    await tick();
    expect(s.messages).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(s.frames()).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } },
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid request' } },
      // The notification-shaped mistake has no id to answer.
    ]);
    expect(s.closes()).toBe(0);
  });

  it('closes with line_too_long when one line exceeds the bound', async () => {
    const s = await setup();
    s.input.write(Buffer.alloc(MAX_LINE_BYTES + 1, 'x'));
    await tick();
    expect(s.closes()).toBe(1);
    expect(s.transport.closeReason).toBe('line_too_long');
    expect(s.logged.some((l) => l.includes('ERROR input line exceeds the maximum size; closing'))).toBe(true);
  });

  it('closes with eof when the input ends, after the lines before it', async () => {
    const s = await setup();
    s.input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
    await tick();
    await tick();
    expect(s.messages).toHaveLength(1);
    expect(s.closes()).toBe(1);
    expect(s.transport.closeReason).toBe('eof');
  });

  it('sends one line per message and drains', async () => {
    const s = await setup();
    await s.transport.send({ jsonrpc: '2.0', id: 3, result: {} });
    expect(await s.transport.drain(1_000)).toBe(true);
    expect(s.frames()).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
  });
});

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../util/index.js';
import { RemoteStdioTransport } from './remote-stdio-transport.js';

function setup() {
  const logged: string[] = [];
  const stderrLines: string[] = [];
  const written: string[] = [];
  let terminations = 0;
  const transport = new RemoteStdioTransport({
    program: 'srv',
    logger: createLogger((l) => logged.push(l)),
    onStderrLine: (l) => stderrLines.push(l),
  });
  transport.attach({
    write: async (data) => void written.push(data.toString()),
    terminate: async () => void terminations++,
  });
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  let closes = 0;
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e);
  transport.onclose = () => closes++;
  return { transport, logged, stderrLines, written, messages, errors, closes: () => closes, terminations: () => terminations };
}

const line = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n`;

describe('RemoteStdioTransport', () => {
  it('frames messages split across chunks and several in one chunk', async () => {
    const t = setup();
    await t.transport.start();
    const bytes = Buffer.from(line(1) + line(2) + 'not json at all\n' + line(3));
    for (let i = 0; i < bytes.length; i += 7) t.transport.receiveStdout(bytes.subarray(i, i + 7));
    expect(t.messages.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3]);
    await t.transport.send({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(t.written).toEqual([`${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' })}\n`]);
  });

  it('reports JSON that is not JSON-RPC and keeps reading', async () => {
    const t = setup();
    await t.transport.start();
    t.transport.receiveStdout(Buffer.from(`{"hello":1}\n${line(4)}`));
    expect(t.errors).toHaveLength(1);
    expect(t.messages).toHaveLength(1);
  });

  it('holds messages and the end that arrive before start()', async () => {
    const t = setup();
    t.transport.receiveStdout(Buffer.from(line(1)));
    t.transport.ended('process exited with code 1');
    expect(t.messages).toHaveLength(0);
    await t.transport.start();
    expect(t.messages).toHaveLength(1);
    await Promise.resolve();
    expect(t.closes()).toBe(1);
    await expect(t.transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow('process exited with code 1');
  });

  it('splits stderr into lines, logs them, and keeps a tail', async () => {
    const t = setup();
    await t.transport.start();
    t.transport.receiveStderr(Buffer.from('first\r\nsec'));
    t.transport.receiveStderr(Buffer.from('ond\nunterminated'));
    t.transport.ended('gone');
    expect(t.stderrLines).toEqual(['first', 'second', 'unterminated']);
    expect(t.transport.stderrTail()).toEqual(['first', 'second', 'unterminated']);
    expect(t.logged.some((l) => l.includes('MCP server stderr (srv): second'))).toBe(true);
    expect(t.closes()).toBe(1);
  });

  it('close() terminates the remote side once and fires onclose once', async () => {
    const t = setup();
    await t.transport.start();
    await Promise.all([t.transport.close(), t.transport.close()]);
    t.transport.ended('exited after close');
    expect(t.terminations()).toBe(1);
    expect(t.closes()).toBe(1);
    await expect(t.transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow('cannot send');
  });

  it('closes when a single message exceeds the size limit', async () => {
    const logged: string[] = [];
    const transport = new RemoteStdioTransport({ program: 'srv', logger: createLogger((l) => logged.push(l)), maxMessageBytes: 1024 });
    transport.attach({ write: async () => {}, terminate: async () => {} });
    const errors: Error[] = [];
    let closed = false;
    transport.onerror = (e) => errors.push(e);
    transport.onclose = () => (closed = true);
    await transport.start();
    transport.receiveStdout(Buffer.alloc(2048, 'x'));
    await new Promise((r) => setImmediate(r));
    expect(errors[0]?.message).toContain('exceeded maximum size');
    expect(closed).toBe(true);
  });
});

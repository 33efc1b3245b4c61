import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../util/index.js';
import { McpClientError } from '../errors.js';
import { decodeMessage, StdioTransport, type ProcessChannel } from './stdio-transport.js';

function setup(options: { maxLineBytes?: number; write?: ProcessChannel['write'] } = {}) {
  const logged: string[] = [];
  const stderrLines: string[] = [];
  const written: string[] = [];
  let terminations = 0;
  const transport = new StdioTransport({
    program: 'srv',
    logger: createLogger((l) => logged.push(l)),
    onStderrLine: (l) => stderrLines.push(l),
    maxLineBytes: options.maxLineBytes,
  });
  transport.attach({
    write: options.write ?? (async (frame) => void written.push(frame)),
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
const ids = (messages: JSONRPCMessage[]) => messages.map((m) => (m as { id: number }).id);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StdioTransport', () => {
  it('frames messages split across chunks and several in one chunk; sends one frame per message', async () => {
    const t = setup();
    await t.transport.start();
    const bytes = Buffer.from(line(1) + line(2) + line(3).replace('\n', '\r\n') + '\n' + line(4));
    for (let i = 0; i < bytes.length; i += 7) t.transport.receiveStdout(bytes.subarray(i, i + 7));
    expect(ids(t.messages)).toEqual([1, 2, 3, 4]);
    await t.transport.send({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(t.written).toEqual([`${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' })}\n`]);
  });

  it('decodes a multi-byte character split between chunks', async () => {
    const t = setup();
    await t.transport.start();
    const bytes = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'note', params: { text: 'é€😀' } })}\n`);
    const cut = bytes.indexOf(Buffer.from('€')) + 1;
    t.transport.receiveStdout(bytes.subarray(0, cut));
    t.transport.receiveStdout(bytes.subarray(cut));
    expect(t.messages).toEqual([{ jsonrpc: '2.0', method: 'note', params: { text: 'é€😀' } }]);
  });

  it('skips a line that is not JSON, logging it at warn with an excerpt, and keeps the connection', async () => {
    const t = setup();
    await t.transport.start();
    const banner = `Server v1 ready ${'x'.repeat(300)}`;
    t.transport.receiveStdout(Buffer.from(`${line(1)}${banner}\n${line(2)}`));
    expect(ids(t.messages)).toEqual([1, 2]);
    expect(t.errors).toEqual([]);
    const warnings = t.logged.filter((l) => l.includes(' WARN '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`MCP server \`srv\` wrote a stdout line that is not JSON; skipped: ${banner.slice(0, 200)}…`);
    expect(warnings[0]).not.toContain(banner.slice(0, 201));
    expect(t.closes()).toBe(0);
  });

  it('skips JSON that is not a JSON-RPC message the same way', async () => {
    const t = setup();
    await t.transport.start();
    t.transport.receiveStdout(Buffer.from(`{"hello":1}\n\n${line(4)}`));
    expect(ids(t.messages)).toEqual([4]);
    expect(t.errors).toEqual([]);
    expect(t.logged.filter((l) => l.includes(' WARN '))).toEqual([expect.stringContaining('wrote a stdout line that is not a JSON-RPC message; skipped: {"hello":1}')]);
  });

  it('ends the connection when one line exceeds the size bound, complete or not', async () => {
    for (const ending of ['', '\n']) {
      const t = setup({ maxLineBytes: 1024 });
      await t.transport.start();
      t.transport.receiveStdout(Buffer.from(line(1)));
      t.transport.receiveStdout(Buffer.alloc(600, 'x'));
      t.transport.receiveStdout(Buffer.from(`${'x'.repeat(600)}${ending}`));
      await settle();
      expect(t.errors).toEqual([new McpClientError('decode', 'MCP server `srv` wrote more than 1024 bytes without a newline')]);
      expect(t.transport.closeReason?.code).toBe('decode');
      expect(t.terminations()).toBe(1);
      expect(t.closes()).toBe(1);
      expect(ids(t.messages)).toEqual([1]);
    }
  });

  it('holds messages and the end that arrive before start()', async () => {
    const t = setup();
    t.transport.receiveStdout(Buffer.from(line(1)));
    t.transport.ended(new McpClientError('process_exited', 'process exited with code 1'));
    expect(t.messages).toHaveLength(0);
    await t.transport.start();
    expect(t.messages).toHaveLength(1);
    await settle();
    expect(t.closes()).toBe(1);
    expect(t.errors.map((e) => e.message)).toEqual(['process exited with code 1']);
    await expect(t.transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow('process exited with code 1');
  });

  it('splits stderr into lines, logs them, and keeps a tail', async () => {
    const t = setup();
    await t.transport.start();
    t.transport.receiveStderr(Buffer.from('first\r\nsec'));
    t.transport.receiveStderr(Buffer.from('ond\nunterminated'));
    t.transport.ended(new McpClientError('process_exited', 'gone'));
    await settle();
    expect(t.stderrLines).toEqual(['first', 'second', 'unterminated']);
    expect(t.transport.stderrTail()).toEqual(['first', 'second', 'unterminated']);
    expect(t.logged.some((l) => l.includes('MCP server stderr (srv): second'))).toBe(true);
    expect(t.closes()).toBe(1);
  });

  it('close() terminates the process once and fires onclose once; later ends change nothing', async () => {
    const t = setup();
    await t.transport.start();
    await Promise.all([t.transport.close(), t.transport.close()]);
    t.transport.ended(new McpClientError('process_exited', 'exited after close'));
    expect(t.terminations()).toBe(1);
    expect(t.closes()).toBe(1);
    expect(t.errors).toEqual([]);
    await expect(t.transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow('MCP server `srv` is not connected');
  });

  it('a broken pipe waits briefly for the exit status, which wins when it comes', async () => {
    const t = setup();
    await t.transport.start();
    t.transport.broken(new McpClientError('connection_closed', 'MCP server `srv` closed its stdout'));
    await settle();
    expect(t.closes()).toBe(0);
    t.transport.ended(new McpClientError('process_exited', 'MCP server `srv` exited with code 3'));
    await settle();
    expect(t.errors.map((e) => e.message)).toEqual(['MCP server `srv` exited with code 3']);
    expect(t.closes()).toBe(1);
  });

  it('a failed write ends the connection with the write error when no exit status follows', async () => {
    const t = setup({ write: () => Promise.reject(new Error('EPIPE')) });
    await t.transport.start();
    await t.transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(t.errors.map((e) => e.message)).toEqual(['cannot write to MCP server `srv`: EPIPE']);
    expect(t.closes()).toBe(1);
  });
});

describe('decodeMessage', () => {
  const outcome = (decode: (line: string) => JSONRPCMessage, line: string) => {
    try {
      return { value: decode(line) };
    } catch (err) {
      return { error: err instanceof SyntaxError ? 'SyntaxError' : String(err) };
    }
  };
  const serverInfo = 'io.modelcontextprotocol/serverInfo';
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'roots/list', params: { _meta: { progressToken: 'p' }, extra: [1] } },
    { jsonrpc: '2.0', id: 'a', method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { x: 1 } } },
    { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 't', inputSchema: { type: 'object' } }], _meta: { k: 1 } } },
    { jsonrpc: '2.0', id: 3, result: { _meta: { [serverInfo]: { name: 'srv' } } } },
    { jsonrpc: '2.0', id: 4, result: { _meta: { [serverInfo]: 'not an implementation' } } },
    { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'Method not found', data: { why: 1 }, stray: true } },
    { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
    // Rejected: by every schema, or by the one their keys name.
    { jsonrpc: '2.0', id: 6, method: 'x', result: {} },
    { jsonrpc: '2.0', id: 7.5, method: 'x' },
    { jsonrpc: '1.0', id: 8, result: {} },
    { jsonrpc: '2.0', id: 9, result: 'text' },
    { jsonrpc: '2.0', id: 10, error: { code: 'E', message: 'm' } },
    { jsonrpc: '2.0', method: 7 },
    { jsonrpc: '2.0', id: 11 },
    { jsonrpc: '2.0', id: 12, method: 'x', params: { _meta: { progressToken: {} } } },
  ].map((m) => JSON.stringify(m));

  it("gives what the SDK's deserializeMessage gives, value or error, for every kind of line", () => {
    for (const line of [...lines, '[1,2]', 'null', '"text"', '{"jsonrpc":"2.0"', 'banner']) {
      expect(outcome(decodeMessage, line), line).toEqual(outcome(deserializeMessage, line));
    }
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonBody } from './http-io.js';

let server: http.Server;
let url: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    void readJsonBody(req, res, 1024).then((read) => {
      if (read) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read.messages));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = async (body: Uint8Array | string) => {
  const res = await fetch(url, { method: 'POST', body });
  return { status: res.status, body: (await res.json()) as unknown };
};
const ping = (inner: number[]) => new Uint8Array([...Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"'), ...inner, ...Buffer.from('"}}')]);

describe('readJsonBody', () => {
  it('reads UTF-8 JSON-RPC, multi-byte characters included', async () => {
    expect(await post(ping([...Buffer.from('é😀')]))).toEqual({ status: 200, body: [{ jsonrpc: '2.0', id: 1, method: 'ping', params: { s: 'é😀' } }] });
  });

  it('refuses bytes that are not UTF-8 with 400 -32700, even inside a JSON string', async () => {
    for (const bad of [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      expect(await post(ping(bad))).toEqual({ status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON' } } });
    }
  });

  it('refuses a body over the bound with 413 and a malformed message with 400 -32600', async () => {
    expect((await post('x'.repeat(2048))).status).toBe(413);
    expect(await post('{"jsonrpc":"2.0","id":3,"method":7}')).toMatchObject({ status: 400, body: { id: 3, error: { code: -32600 } } });
  });

  it('answers 413 once the whole body came in, so a client still sending it finishes its upload and reads the answer', async () => {
    const outcome = await new Promise<{ status?: number; error?: string; sent?: boolean }>((resolve) => {
      const out: { status?: number; error?: string; sent?: boolean } = {};
      const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(3 * 4096) } });
      req.on('response', (res) => {
        out.status = res.statusCode;
        res.on('error', (err) => (out.error = err.message));
        res.resume();
      });
      req.on('error', (err) => (out.error = err.message));
      req.on('finish', () => (out.sent = true));
      req.on('close', () => resolve(out));
      // Over the bound at once; the rest follows after the server has seen that.
      req.write('x'.repeat(4096));
      setTimeout(() => {
        req.write('x'.repeat(4096));
        setTimeout(() => req.end('x'.repeat(4096)), 50);
      }, 50);
    });
    expect(outcome).toEqual({ status: 413, sent: true });
  });
});

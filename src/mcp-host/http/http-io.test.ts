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
});

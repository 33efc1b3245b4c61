// A stand-in model for the cluster and the load test: the Responses API on loopback, answering every
// turn with "echo: <the last user text>". Markers in that text steer it: "[sleep N]" answers after N ms,
// "[hang]" never answers (the turn runs until its replica dies or it is interrupted), "[shell]" first
// calls the shell tool (`touch echo-model-shell`, which asks for approval under "untrusted") and
// echoes once its output is back. Counts requests.
import http from 'node:http';

const sse = (res, event) => res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);

function lastUserText(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  for (let i = input.length - 1; i >= 0; i -= 1) {
    const item = input[i];
    if (item?.role !== 'user') continue;
    const parts = Array.isArray(item.content) ? item.content : [{ text: String(item.content ?? '') }];
    return parts.map((p) => p.text ?? '').join('');
  }
  return '';
}

/** The turn's last input is a tool's output: the model has called a tool and now answers. */
function afterToolCall(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  return input.at(-1)?.type === 'function_call_output';
}

/** @returns {Promise<{ url: string; stats: { requests: number; hanging: number }; close(): Promise<void> }>} */
export async function startEchoModel() {
  const stats = { requests: 0, hanging: 0 };
  const open = new Set();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/stats') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
        return;
      }
      stats.requests += 1;
      let body = {};
      try {
        body = JSON.parse(raw);
      } catch {
        // an empty answer still completes the turn
      }
      const text = lastUserText(body);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      open.add(res);
      res.on('close', () => open.delete(res));
      const id = `resp_${stats.requests}`;
      sse(res, { type: 'response.created', response: { id } });
      if (text.includes('[hang]')) {
        stats.hanging += 1;
        res.on('close', () => (stats.hanging -= 1));
        return;
      }
      if (text.includes('[shell]') && !afterToolCall(body)) {
        const call = { type: 'function_call', id: `fc_${id}`, call_id: `call_${id}`, name: 'shell', arguments: JSON.stringify({ command: ['touch', 'echo-model-shell'] }) };
        sse(res, { type: 'response.output_item.done', item: call });
        sse(res, { type: 'response.completed', response: { id, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } } });
        res.end();
        return;
      }
      const delay = Number(/\[sleep (\d+)\]/.exec(text)?.[1] ?? 0);
      setTimeout(() => {
        const answer = `echo: ${text}`;
        sse(res, { type: 'response.output_text.delta', delta: answer, item_id: 'msg_1', output_index: 0, content_index: 0 });
        sse(res, {
          type: 'response.output_item.done',
          item: { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: answer, annotations: [] }] },
        });
        sse(res, { type: 'response.completed', response: { id, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } } });
        res.end();
      }, delay);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stats,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

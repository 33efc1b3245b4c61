// `--metrics-listen`: a listener of its own for scrapers and probes (/metrics, /healthz, /readyz),
// without the endpoint's token; bind it where only they reach it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessage, listenUrl, type ListenAddress, type Logger } from '../../util/index.js';
import type { Ops } from './ops.js';

export async function startOpsListener(ops: Ops, listen: ListenAddress, logger: Logger): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const routed = pathname === '/metrics' || pathname === '/healthz' || pathname === '/readyz';
    const answer = routed ? ops.serve(req, res, pathname, { refused: null, authorized: true }) : Promise.resolve(false);
    answer
      .then((done) => {
        if (!done) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('Not found: this listener serves /metrics, /healthz and /readyz\n');
        }
      })
      .catch((err: unknown) => {
        logger.error('metrics request failed', { error: errorMessage(err) });
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: listenUrl('http', listen.host, port, '/metrics'),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// The exec-server service: an HTTP(S) listener that upgrades authenticated requests to WebSocket
// connections and hands each to an ExecConnection; close() ends every connection and process.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { bearerMatches, createHostOriginCheck, errorMessage, isLoopbackHost, listenUrl, SwitchboardError, type ListenAddress, type Logger } from '../util/index.js';
import { ExecConnection } from './exec-connection.js';
import { DEFAULT_EXEC_LIMITS, HEARTBEAT_INTERVAL_MS, MIN_MESSAGE_BYTES, type ExecLimits } from './methods.js';

export interface ExecServerOptions {
  listen: ListenAddress;
  /** The bearer token every client must present; null only with `insecureNoAuth` on loopback. */
  token: string | null;
  insecureNoAuth?: boolean;
  tls?: { cert: string | Buffer; key: string | Buffer };
  limits?: Partial<ExecLimits>;
  /** The environment processes may inherit from (`inheritEnv`); default process.env. */
  env?: NodeJS.ProcessEnv;
  heartbeatMs?: number;
  logger: Logger;
  /**
   * Plain HTTP requests (not WebSocket upgrades) are offered here first, with the Host/Origin and
   * token verdicts (operations routes: /metrics, /healthz, ...); true when answered.
   */
  httpRoutes?: (req: IncomingMessage, res: ServerResponse, pathname: string, guard: { refused: string | null; authorized: boolean }) => Promise<boolean>;
}

export interface ExecServer {
  /** `ws://host:port` (or wss://) of the bound address. */
  readonly url: string;
  readonly address: ListenAddress;
  /** Stop accepting, close every connection, terminate every process; resolves when all are gone. */
  close(): Promise<void>;
}

/** Refuse configurations that would expose process execution without authentication. */
export function checkAuthConfig(options: Pick<ExecServerOptions, 'listen' | 'token' | 'insecureNoAuth'>): void {
  if (options.token !== null) {
    if (options.token.trim() === '') throw new SwitchboardError('exec_auth_config', 'the exec-server token is empty');
    return;
  }
  if (!options.insecureNoAuth) {
    throw new SwitchboardError(
      'exec_auth_config',
      'no token configured: pass --token-file FILE or set SWITCHBOARD_EXEC_TOKEN (or, on a loopback address only, --insecure-no-auth)',
    );
  }
  if (!isLoopbackHost(options.listen.host)) {
    throw new SwitchboardError('exec_auth_config', `--insecure-no-auth is only allowed on a loopback address, not ${options.listen.host}; configure a token`);
  }
}

export async function startExecServer(options: ExecServerOptions): Promise<ExecServer> {
  checkAuthConfig(options);
  const limits: ExecLimits = { ...DEFAULT_EXEC_LIMITS, ...options.limits };
  if (limits.maxMessageBytes < MIN_MESSAGE_BYTES) {
    throw new SwitchboardError('exec_config', `the message size limit must be at least ${MIN_MESSAGE_BYTES} bytes, got ${limits.maxMessageBytes}`);
  }
  const logger = options.logger;
  const env = options.env ?? process.env;
  const http: Server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }) : createHttpServer();
  // Frames up to twice the soft limit are read and answered with an error; beyond that ws closes with 1009.
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes * 2, perMessageDeflate: false });
  const connections = new Map<WebSocket, ExecConnection>();
  const endings = new Set<Promise<void>>();
  const browserCheck = createHostOriginCheck(options.listen.host);

  const notWebSocket = (res: ServerResponse) =>
    res.writeHead(426, { 'content-type': 'text/plain', connection: 'close' }).end('this is a switchboard exec-server; connect with a WebSocket client\n');
  http.on('request', (req, res) => {
    const routes = options.httpRoutes;
    if (!routes) return notWebSocket(res);
    const guard = { refused: browserCheck(req.headers.host, req.headers.origin), authorized: options.token === null || bearerMatches(req.headers.authorization, options.token) };
    routes(req, res, new URL(req.url ?? '/', 'http://localhost').pathname, guard).then(
      (answered) => void (answered || notWebSocket(res)),
      (err: unknown) => {
        logger.error('exec-server http request failed', { error: errorMessage(err) });
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      },
    );
  });
  http.on('clientError', (_err, socket) => socket.destroy());
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    // A browser can be made to open a WebSocket to any address; such requests are refused first.
    const refused = browserCheck(req.headers.host, req.headers.origin);
    if (refused !== null) {
      logger.warn('rejected connection: Host or Origin not allowed', { reason: refused, host: req.headers.host, origin: req.headers.origin, remote: req.socket.remoteAddress });
      refuse(socket, 403, 'Forbidden', '');
      return;
    }
    // Authentication comes before anything else: no frame is read from an unauthenticated client.
    if (options.token !== null && !bearerMatches(req.headers.authorization, options.token)) {
      logger.warn('rejected connection: missing or wrong token', { remote: req.socket.remoteAddress });
      refuse(socket, 401, 'Unauthorized', 'WWW-Authenticate: Bearer realm="switchboard-exec"\r\n');
      return;
    }
    if (connections.size >= limits.maxConnections) {
      logger.warn('rejected connection: too many connections', { limit: limits.maxConnections });
      refuse(socket, 503, 'Service Unavailable', '');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req));
  });

  function accept(ws: WebSocket, req: IncomingMessage): void {
    const connLogger = logger.child({ remote: `${req.socket.remoteAddress}:${req.socket.remotePort}` });
    const conn = new ExecConnection(ws, limits, env, connLogger);
    connections.set(ws, conn);
    connLogger.info('client connected');
    let alive = true;
    ws.on('pong', () => {
      alive = true;
    });
    const heartbeat = setInterval(() => {
      // A peer that vanished without closing TCP is noticed here, and its processes are ended.
      if (!alive) {
        connLogger.warn('client missed a heartbeat; dropping the connection');
        ws.terminate();
        return;
      }
      alive = false;
      ws.ping();
    }, options.heartbeatMs ?? HEARTBEAT_INTERVAL_MS);
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      try {
        conn.handleFrame(data, isBinary);
      } catch (err) {
        connLogger.error('frame handling failed', { error: errorMessage(err) });
      }
    });
    ws.on('error', (err) => connLogger.warn('connection error', { error: errorMessage(err) }));
    ws.on('close', (code) => {
      clearInterval(heartbeat);
      connections.delete(ws);
      connLogger.info('client disconnected', { code });
      const ending = conn.closed().finally(() => endings.delete(ending));
      endings.add(ending);
    });
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.listen.port, options.listen.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  http.on('error', (err) => logger.error('listener error', { error: errorMessage(err) }));
  const bound = http.address() as AddressInfo;
  const address = { host: bound.address, port: bound.port };
  const url = listenUrl(options.tls ? 'wss' : 'ws', options.listen.host === 'localhost' ? 'localhost' : bound.address, bound.port);
  logger.info('exec-server listening', { url, auth: options.token !== null ? 'token' : 'none' });

  let closing: Promise<void> | null = null;
  return {
    url,
    address,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        for (const [ws, conn] of connections) {
          ws.terminate();
          endings.add(conn.closed());
        }
        await Promise.all([...endings]);
        http.closeAllConnections();
        await stopped;
        wss.close();
      })();
      return closing;
    },
  };
}

function refuse(socket: Duplex, status: number, reason: string, extraHeaders: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${extraHeaders}Connection: close\r\nContent-Length: 0\r\n\r\n`);
}

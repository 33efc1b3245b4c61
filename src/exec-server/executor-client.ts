// The exec-server client: one authenticated WebSocket connection, request/response correlation,
// and ExecProcess handles whose output arrives in order (sequence numbers checked).
import { WebSocket } from 'ws';
import { abortError, errorMessage, nullLogger, SwitchboardError, type Logger } from '../util/index.js';
import { ExecProcessHandle, type ExecExit, type ExecProcess, type OutputChunk } from './exec-process.js';
import { ExecMethod, ExecNotification, ExitedParamsSchema, HEARTBEAT_INTERVAL_MS, OutputParamsSchema, StartResultSchema } from './methods.js';
import { rpcErrorCodeName, rpcRequest, ServerFrameSchema, type RpcErrorObject } from './wire.js';

export interface ExecutorConnectOptions {
  signal?: AbortSignal;
  logger?: Logger;
  /** Extra CA certificates for wss:// with a private certificate. */
  ca?: string | Buffer;
  heartbeatMs?: number;
}

export interface StartOptions {
  cwd: string;
  /** Literal variables sent to the executor. */
  env?: Record<string, string>;
  /** Names the executor takes from its own environment. */
  inheritEnv?: string[];
  /** Called for every output chunk, in order, from the moment the request is sent. */
  onOutput?: (chunk: OutputChunk) => void;
  /** Abandons the wait only: a process that did start lives until killed or until the connection closes. */
  signal?: AbortSignal;
}

/** Why a connection ended; every process still running on it ends with `connection_lost`. */
export interface ConnectionLost {
  reason: string;
}

/** A JSON-RPC error from the exec-server; `code` is `exec_<name>` (e.g. exec_unknownProcess). */
export class ExecRpcError extends SwitchboardError {
  constructor(readonly rpc: RpcErrorObject) {
    super(`exec_${rpcErrorCodeName(rpc.code) ?? 'error'}`, rpc.message);
    this.name = 'ExecRpcError';
  }
}

interface Pending {
  resolve(result: unknown): void;
  reject(err: unknown): void;
}

type ClientState = { type: 'open' } | { type: 'closed'; lost: ConnectionLost };

export class ExecutorClient {
  private nextId = 1;
  private nextProcess = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly processes = new Map<string, ExecProcessHandle>();
  private state: ClientState = { type: 'open' };
  private resolveClosed!: (lost: ConnectionLost) => void;
  /** Resolves when the connection ends, for whatever reason (also after close()). */
  readonly closed: Promise<ConnectionLost> = new Promise((resolve) => (this.resolveClosed = resolve));

  private constructor(
    readonly url: string,
    private readonly ws: WebSocket,
    private readonly logger: Logger,
    heartbeatMs: number,
  ) {
    ws.on('message', (data: Buffer) => this.onFrame(data));
    ws.on('error', (err) => this.logger.warn('exec-server connection error', { url, error: errorMessage(err) }));
    ws.on('close', (code, reason) => this.lost(`connection to exec-server ${url} closed (code ${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})`));
    let alive = true;
    ws.on('pong', () => (alive = true));
    const heartbeat = setInterval(() => {
      if (!alive) {
        this.logger.warn('exec-server missed a heartbeat; dropping the connection', { url });
        ws.terminate();
        return;
      }
      alive = false;
      ws.ping();
    }, heartbeatMs);
    void this.closed.finally(() => clearInterval(heartbeat));
  }

  /** Connect and authenticate; rejects with code `exec_auth_failed` when the token is refused. */
  static connect(url: string, token: string | null, options: ExecutorConnectOptions = {}): Promise<ExecutorClient> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const logger = options.logger ?? nullLogger;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, {
        headers: token !== null ? { authorization: `Bearer ${token}` } : {},
        perMessageDeflate: false,
        ca: options.ca,
        maxPayload: 256 * 1024 * 1024,
      });
      const fail = (err: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        ws.removeAllListeners();
        ws.on('error', () => {});
        ws.terminate();
        reject(err);
      };
      const onAbort = () => fail(abortError(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      ws.once('unexpected-response', (_req, res) => {
        const status = res.statusCode ?? 0;
        res.resume();
        if (status === 401 || status === 403) {
          fail(new SwitchboardError('exec_auth_failed', `exec-server ${url} rejected the token (HTTP ${status}); check the token configured for this environment`));
        } else {
          fail(new SwitchboardError('exec_connect_failed', `exec-server ${url} refused the connection (HTTP ${status} ${res.statusMessage ?? ''})`.trim()));
        }
      });
      ws.once('error', (err) => fail(new SwitchboardError('exec_connect_failed', `cannot connect to exec-server ${url}: ${errorMessage(err)}`, { cause: err })));
      ws.once('open', () => {
        signal?.removeEventListener('abort', onAbort);
        ws.removeAllListeners();
        resolve(new ExecutorClient(url, ws, logger, options.heartbeatMs ?? HEARTBEAT_INTERVAL_MS));
      });
    });
  }

  get isOpen(): boolean {
    return this.state.type === 'open';
  }

  /** Start a process on the executor; output handlers are live before the request is sent. */
  async start(argv: string[], options: StartOptions): Promise<ExecProcess> {
    const processId = `p${this.nextProcess++}`;
    const handle = new ExecProcessHandle(processId, this, options.onOutput);
    this.processes.set(processId, handle);
    try {
      const raw = await this.request(
        ExecMethod.start,
        { processId, argv, cwd: options.cwd, env: options.env ?? {}, inheritEnv: options.inheritEnv ?? [] },
        options.signal,
      );
      handle.started(StartResultSchema.parse(raw).pid);
      return handle;
    } catch (err) {
      this.processes.delete(processId);
      throw err;
    }
  }

  /** Close the connection; the exec-server then terminates every process started on it. */
  async close(): Promise<void> {
    if (this.state.type === 'open') this.ws.close(1000, 'client closed');
    const timer = setTimeout(() => this.ws.terminate(), 2000);
    try {
      await this.closed;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Send one request and wait for its response. Used by ExecProcess. */
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    if (this.state.type === 'closed') return Promise.reject(new SwitchboardError('exec_connection_lost', this.state.lost.reason));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        // The request may still run on the executor; only the wait is abandoned.
        this.pending.delete(id);
        reject(abortError(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      this.ws.send(rpcRequest(id, method, params), (err) => {
        if (err) this.pending.get(id)?.reject(new SwitchboardError('exec_connection_lost', `cannot send to exec-server ${this.url}: ${err.message}`));
      });
    });
  }

  /** Called by a handle once its exit has been delivered. */
  forget(processId: string): void {
    this.processes.delete(processId);
  }

  private onFrame(data: Buffer): void {
    let frame;
    try {
      frame = ServerFrameSchema.parse(JSON.parse(data.toString('utf8')));
    } catch (err) {
      this.protocolViolation(`malformed frame from exec-server: ${errorMessage(err)}`);
      return;
    }
    if ('method' in frame) {
      this.onNotification(frame.method, frame.params);
      return;
    }
    if (typeof frame.id !== 'number') {
      this.logger.warn('exec-server reported an error', { error: 'error' in frame ? frame.error.message : 'unknown' });
      return;
    }
    const pending = this.pending.get(frame.id);
    if (!pending) return;
    this.pending.delete(frame.id);
    if ('error' in frame) pending.reject(new ExecRpcError(frame.error));
    else pending.resolve(frame.result);
  }

  private onNotification(method: string, params: unknown): void {
    if (method === ExecNotification.output) {
      const p = OutputParamsSchema.safeParse(params);
      if (!p.success) return this.protocolViolation(`malformed ${method} notification`);
      this.processes.get(p.data.processId)?.output(p.data);
    } else if (method === ExecNotification.exited) {
      const p = ExitedParamsSchema.safeParse(params);
      if (!p.success) return this.protocolViolation(`malformed ${method} notification`);
      this.processes.get(p.data.processId)?.exit(p.data);
    } else {
      this.logger.debug('ignoring unknown exec-server notification', { method });
    }
  }

  private protocolViolation(reason: string): void {
    this.logger.error(reason, { url: this.url });
    this.ws.terminate();
    this.lost(reason);
  }

  private lost(reason: string): void {
    if (this.state.type === 'closed') return;
    const lost = { reason };
    this.state = { type: 'closed', lost };
    for (const p of this.pending.values()) p.reject(new SwitchboardError('exec_connection_lost', reason));
    this.pending.clear();
    for (const handle of this.processes.values()) handle.ended({ type: 'connection_lost', reason } satisfies ExecExit);
    this.processes.clear();
    this.resolveClosed(lost);
  }
}

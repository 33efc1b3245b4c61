// One authenticated client connection of the exec-server: parses frames, runs methods, owns the
// connection's processes (killed when it drops) and applies its limits and output backpressure.
import { stat } from 'node:fs/promises';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import { errorMessage, isSwitchboardError, type Logger } from '../util/index.js';
import { ManagedProcess, ProcessStateError } from './managed-process.js';
import {
  ExecMethod,
  ExecNotification,
  ProcessRefSchema,
  StartParamsSchema,
  WriteParamsSchema,
  type ExecLimits,
  type OutputStream,
} from './methods.js';
import { describeIssues, rpcError, rpcNotification, rpcResult, RpcErrorCode, RpcRequestSchema, type RpcId } from './wire.js';

/** A failure answered with a JSON-RPC error; never ends the connection. */
class RpcFailure extends Error {
  constructor(
    readonly rpcCode: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_EXITED_KEPT = 256;

type ConnectionState = { type: 'open' } | { type: 'closed'; ending: Promise<void> };

export class ExecConnection {
  private readonly processes = new Map<string, ManagedProcess>();
  /** Exited ids, oldest first; kept so a late write gets "has exited" rather than "unknown". */
  private readonly exitedIds: string[] = [];
  private state: ConnectionState = { type: 'open' };
  private queuedBytes = 0;
  private paused = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly limits: ExecLimits,
    private readonly executorEnv: NodeJS.ProcessEnv,
    private readonly logger: Logger,
  ) {}

  /** Handle one incoming frame; every failure becomes a JSON-RPC error frame. */
  handleFrame(data: Buffer, isBinary: boolean): void {
    if (data.length > this.limits.maxMessageBytes) {
      this.send(rpcError(null, RpcErrorCode.messageTooLarge, `message of ${data.length} bytes exceeds the limit of ${this.limits.maxMessageBytes} bytes`));
      return;
    }
    if (isBinary) {
      this.send(rpcError(null, RpcErrorCode.invalidRequest, 'binary frames are not accepted; send JSON-RPC as text frames'));
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(data.toString('utf8'));
    } catch (err) {
      this.send(rpcError(null, RpcErrorCode.parseError, `malformed JSON: ${errorMessage(err)}`));
      return;
    }
    const parsed = RpcRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const id = typeof raw === 'object' && raw !== null && 'id' in raw ? (raw as { id: unknown }).id : null;
      const echoId = typeof id === 'string' || typeof id === 'number' ? id : null;
      this.send(rpcError(echoId, RpcErrorCode.invalidRequest, `not a JSON-RPC 2.0 request: ${describeIssues(parsed.error)}`));
      return;
    }
    const { id, method, params } = parsed.data;
    this.dispatch(method, params).then(
      (result) => this.send(rpcResult(id, result)),
      (err: unknown) => this.sendFailure(id, method, err),
    );
  }

  /** The connection is gone: end every process it started. Resolves when their groups are gone. */
  closed(): Promise<void> {
    if (this.state.type === 'closed') return this.state.ending;
    const all = [...this.processes.values()].filter((p) => !p.exited);
    if (all.length > 0) this.logger.info('connection closed; terminating its processes', { count: all.length });
    const ending = Promise.all(all.map((p) => p.abandon())).then(() => undefined);
    this.state = { type: 'closed', ending };
    return ending;
  }

  private async dispatch(method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case ExecMethod.start:
        return this.start(parseParams(StartParamsSchema, params));
      case ExecMethod.write: {
        const p = parseParams(WriteParamsSchema, params);
        await this.process(p.processId).write(Buffer.from(p.data, 'base64'));
        return {};
      }
      case ExecMethod.closeStdin:
        this.process(parseParams(ProcessRefSchema, params).processId).closeStdin();
        return {};
      case ExecMethod.kill: {
        const proc = this.process(parseParams(ProcessRefSchema, params).processId);
        // The exit notification reports the outcome; the reply only confirms the signal was sent.
        if (!proc.exited) void proc.terminate();
        return {};
      }
      default:
        throw new RpcFailure(RpcErrorCode.methodNotFound, `unknown method ${JSON.stringify(method)}`);
    }
  }

  private async start(p: z.output<typeof StartParamsSchema>): Promise<{ processId: string; pid: number }> {
    if (this.processes.has(p.processId)) throw new RpcFailure(RpcErrorCode.duplicateProcess, `process id ${p.processId} is already in use on this connection`);
    const alive = [...this.processes.values()].filter((proc) => !proc.exited).length;
    if (alive >= this.limits.maxProcessesPerConnection) {
      throw new RpcFailure(
        RpcErrorCode.limitExceeded,
        `too many processes on this connection (limit ${this.limits.maxProcessesPerConnection}); stop one first or raise --max-processes`,
      );
    }
    const dir = await stat(p.cwd).catch(() => null);
    if (!dir?.isDirectory()) throw new RpcFailure(RpcErrorCode.spawnFailed, `working directory ${p.cwd} does not exist on the executor`);
    const env: Record<string, string> = {};
    for (const name of p.inheritEnv) {
      const value = this.executorEnv[name];
      if (value !== undefined) env[name] = value;
    }
    Object.assign(env, p.env);
    const id = p.processId;
    let proc: ManagedProcess;
    try {
      proc = await ManagedProcess.spawn(id, { argv: p.argv, cwd: p.cwd, env }, this.sinkFor(id), this.limits.maxStdinBufferBytes);
    } catch (err) {
      throw new RpcFailure(RpcErrorCode.spawnFailed, `cannot start ${p.argv[0]}: ${errorMessage(err)}`);
    }
    if (this.state.type === 'closed') {
      void proc.abandon();
      throw new RpcFailure(RpcErrorCode.internalError, 'connection closed');
    }
    this.processes.set(id, proc);
    if (this.paused) proc.setPaused(true);
    this.logger.info('process started', { processId: id, pid: proc.pid, command: p.argv[0] });
    return { processId: id, pid: proc.pid };
  }

  private sinkFor(processId: string) {
    return {
      output: (stream: OutputStream, seq: number, data: Buffer) => {
        this.send(rpcNotification(ExecNotification.output, { processId, stream, seq, data: data.toString('base64') }));
      },
      exited: (seq: number, code: number | null, signal: string | null) => {
        this.send(rpcNotification(ExecNotification.exited, { processId, seq, code, signal }));
        this.logger.info('process exited', { processId, code, signal });
        this.exitedIds.push(processId);
        if (this.exitedIds.length > MAX_EXITED_KEPT) this.processes.delete(this.exitedIds.shift()!);
      },
    };
  }

  private process(processId: string): ManagedProcess {
    const proc = this.processes.get(processId);
    if (!proc) throw new RpcFailure(RpcErrorCode.unknownProcess, `unknown process id ${JSON.stringify(processId)}`);
    return proc;
  }

  private sendFailure(id: RpcId, method: string, err: unknown): void {
    if (err instanceof RpcFailure) {
      this.send(rpcError(id, err.rpcCode, err.message));
    } else if (err instanceof ProcessStateError) {
      this.send(rpcError(id, err.code === 'limit_exceeded' ? RpcErrorCode.limitExceeded : RpcErrorCode.processExited, err.message));
    } else {
      this.logger.error('method failed', { method, error: errorMessage(err), code: isSwitchboardError(err) ? err.code : undefined });
      this.send(rpcError(id, RpcErrorCode.internalError, `internal error in ${method}: ${errorMessage(err)}`));
    }
  }

  /** Queue a frame; past the output limit, pause every process's output until the socket drains. */
  private send(frame: string): void {
    if (this.state.type === 'closed' || this.ws.readyState !== this.ws.OPEN) return;
    const size = Buffer.byteLength(frame);
    this.queuedBytes += size;
    this.ws.send(frame, () => {
      this.queuedBytes -= size;
      if (this.paused && this.queuedBytes <= this.limits.maxBufferedOutputBytes / 2) this.setPaused(false);
    });
    if (!this.paused && this.queuedBytes > this.limits.maxBufferedOutputBytes) this.setPaused(true);
  }

  private setPaused(paused: boolean): void {
    this.paused = paused;
    for (const proc of this.processes.values()) if (!proc.exited) proc.setPaused(paused);
    this.logger.debug(paused ? 'output paused: client is not keeping up' : 'output resumed', { queuedBytes: this.queuedBytes });
  }
}

function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw new RpcFailure(RpcErrorCode.invalidParams, `invalid params: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

// A transport wrapper in front of the SDK server that gives Codex's answers where the SDK's differ:
// a request reusing the id of one still running gets -32600 (and never reaches the SDK, so the
// original keeps its stream and its cancellation), a second `initialize` gets -32600, and a method
// the server does not serve gets -32601 `method not found: <method>` with `data.method`.
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { JSON_RPC_ERRORS, jsonRpcError } from '../../util/index.js';
import { hear } from './transport-decorator.js';

const { invalidRequest: INVALID_REQUEST, methodNotFound: METHOD_NOT_FOUND } = JSON_RPC_ERRORS;

/** JSON-RPC ids 1 and "1" are different requests. */
export function requestKey(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

/** The refusal texts a product gives its clients (the guard knows no product's wording). */
export interface GuardTexts {
  requestIdRunning: string;
  initializeTwice: string;
  methodNotFound(method: string): string;
}

export class RequestGuard implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly running = new Set<string>();
  private initialized = false;

  constructor(
    private readonly inner: Transport,
    private readonly methods: ReadonlySet<string>,
    readonly texts: GuardTexts,
    /** Methods of the 2026-07-28 revision: they pass only on a connection that did not open with `initialize`. */
    private readonly modernMethods: ReadonlySet<string> = new Set(),
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion = (version: string): void => this.inner.setProtocolVersion?.(version);
  setSupportedProtocolVersions = (versions: string[]): void => this.inner.setSupportedProtocolVersions?.(versions);

  async start(): Promise<void> {
    hear(this.inner, {
      onclose: () => this.onclose?.(),
      onerror: (err) => this.onerror?.(err),
      onmessage: (message, extra) => this.inbound(message, extra),
    });
    await this.inner.start();
  }

  /** True while a request with this id has not been answered. */
  isRunning(id: RequestId): boolean {
    return this.running.has(requestKey(id));
  }

  /** The answer this guard gives a request before the server sees it, or null to let it through. */
  refusal(message: JSONRPCMessage): JSONRPCErrorResponse | null {
    if (!isJSONRPCRequest(message)) return null;
    if (this.isRunning(message.id)) return jsonRpcError(message.id, INVALID_REQUEST, this.texts.requestIdRunning);
    if (message.method === 'initialize' && this.initialized) return jsonRpcError(message.id, INVALID_REQUEST, this.texts.initializeTwice);
    const served = this.methods.has(message.method) || (!this.initialized && this.modernMethods.has(message.method));
    if (!served) return jsonRpcError(message.id, METHOD_NOT_FOUND, this.texts.methodNotFound(message.method), { method: message.method });
    return null;
  }

  private inbound(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const refused = this.refusal(message);
    if (refused) {
      this.inner.send(refused).catch((err: unknown) => this.onerror?.(err instanceof Error ? err : new Error(String(err))));
      return;
    }
    if (isJSONRPCRequest(message)) {
      if (message.method === 'initialize') this.initialized = true;
      this.running.add(requestKey(message.id));
    }
    this.onmessage?.(message, extra);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      this.running.delete(requestKey(message.id));
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The refusal for a request whose id is still running on `guard` (the only one made before the transport). */
export function errorResponseFor(guard: RequestGuard, message: JSONRPCMessage): JSONRPCErrorResponse | null {
  return isJSONRPCRequest(message) && guard.isRunning(message.id) ? jsonRpcError(message.id, INVALID_REQUEST, guard.texts.requestIdRunning) : null;
}

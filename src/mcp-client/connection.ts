// One connection generation: a transport built from the recipe, an initialized SDK Client on it, and
// the reason it ended. Recovery replaces a Connection wholesale; it is never repaired in place.
import type { FetchLike, PriorDiscovery, Transport } from '@modelcontextprotocol/client';
import { SdkError, SdkErrorCode, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { errorMessage, sleep } from '../util/index.js';
import type { HttpObservations } from './classify-error.js';
import { classifyError } from './classify-error.js';
import { McpClientError } from './errors.js';
import { ListenStream, type ListenStreamSetup } from './listen-stream.js';
import type { TransportRecipe } from './recipe.js';
import { STDIO_PROBE_TIMEOUT_MS } from './defaults.js';
import { adjustInbound } from './inbound-messages.js';
import type { SdkClient } from './input-rounds.js';
import type { SdkClientSetup } from './sdk-client.js';
import { createSdkClient } from './sdk-client.js';
import type { ReadyInfo } from './types.js';

export interface ConnectionSetup extends SdkClientSetup {
  fetch?: FetchLike;
  /** How a 2026-07-28 connection listens for changes (the rest of its setup comes from here). */
  listen: Pick<ListenStreamSetup, 'resourceSubscriptions' | 'onReopened' | 'retryDelaysMs' | 'timeoutMs'>;
  /** Called once when the connection ends without us closing it. */
  onEnded(connection: Connection, reason: McpClientError): void;
}

/** How long close() waits for the HTTP session DELETE before giving up on it. */
const TERMINATE_SESSION_WAIT_MS = 1_000;
/** Errors a transport reports just before it closes; anything else in onerror is informational. */
const END_REASONS = new Set(['process_exited', 'connection_closed', 'decode']);

export class Connection {
  private endReason: McpClientError | undefined;
  private closedByUs = false;
  private ended = false;
  /** Operations using this connection now, and how many it has answered. */
  private active = 0;
  private answered = 0;
  private idle: (() => void) | undefined;
  /** The change notifications of a 2026-07-28 connection (2025 servers send theirs unasked). */
  private listenStream: ListenStream | undefined;

  private constructor(
    readonly generation: number,
    readonly client: SdkClient,
    readonly transport: Transport,
    private readonly observations: HttpObservations | undefined,
    private readonly tail: () => string[],
    readonly describe: () => string,
  ) {}

  /**
   * Launch or reach the server and connect: adopting `prior` when given, else negotiating per
   * `setup.versionNegotiation`. A stdio server that fails the `server/discover` probe (some
   * 2025-era SDKs exit on any request before `initialize`) fails with `probe_failed`.
   */
  static async open(
    recipe: TransportRecipe,
    generation: number,
    setup: ConnectionSetup,
    attempt: { signal: AbortSignal; timeout: number },
    prior?: PriorDiscovery,
  ): Promise<Connection> {
    let transport: Transport;
    let observations: HttpObservations | undefined;
    let tail: () => string[] = () => [];
    let describe: () => string;
    if (recipe.kind === 'stdio') {
      // Launchers honour the signal themselves, so an abort never leaves a process behind.
      const launched = await recipe.launcher.launch(recipe.spec, { signal: attempt.signal, logger: setup.logger }).catch((err: unknown) => {
        throw classifyError(err);
      });
      transport = launched.transport;
      tail = () => launched.stderrTail();
      describe = () => launched.describe();
    } else {
      // Loaded here, so a process with only stdio servers never loads it.
      const { buildHttpTransport } = await import('./http-transport.js');
      const built = buildHttpTransport(recipe, { fetch: setup.fetch });
      transport = built.transport;
      observations = built.observations;
      describe = () => `${recipe.kind === 'sse' ? 'HTTP+SSE' : 'streamable HTTP'} ${recipe.url}`;
    }
    // Over HTTP a silent probe is an outage and keeps the whole startup timeout; on stdio it is a 2025
    // server ignoring an unknown request, so it gets `initialize` after a short wait.
    const client = createSdkClient(recipe.kind === 'stdio' ? { ...setup, probeTimeoutMs: Math.min(STDIO_PROBE_TIMEOUT_MS, Math.floor(attempt.timeout / 2)) } : setup);
    const connection = new Connection(generation, client, transport, observations, tail, describe);
    const onerror = (err: Error) => connection.onTransportError(err, setup);
    const onclose = () => connection.onTransportClosed(setup);
    client.onerror = onerror;
    client.onclose = onclose;
    // The SDK's era probe does not watch the signal; closing the transport ends it (and the process).
    const abandon = () => void transport.close().catch(() => {});
    attempt.signal.addEventListener('abort', abandon, { once: true });
    try {
      await client.connect(transport, { signal: attempt.signal, timeout: attempt.timeout, ...(prior ? { prior } : {}) });
    } catch (err) {
      // During the era probe the SDK holds the transport's error handler, so say here what failed.
      if (!client.transport) connection.onTransportError(err instanceof Error ? err : new Error(String(err)), setup);
      const classified = connection.classify(err);
      const failure = probeFailed(err, recipe, setup, prior, classified) ?? classified;
      await connection.close({ terminateSession: false });
      throw failure.withStderrTail(connection.stderrTail());
    } finally {
      attempt.signal.removeEventListener('abort', abandon);
    }
    adjustInbound(transport);
    if (client.getProtocolEra() === 'modern') {
      connection.listenStream = new ListenStream(client, { ...setup.listen, serverName: setup.serverName, logger: setup.logger });
      connection.listenStream.start();
    }
    return connection;
  }

  /** Run one operation's attempt on this connection, counting it as in use and, if it succeeds, answered. */
  async use<T>(attempt: () => Promise<T>): Promise<T> {
    this.active += 1;
    try {
      const value = await attempt();
      this.answered += 1;
      return value;
    } finally {
      this.active -= 1;
      if (this.active === 0) this.idle?.();
    }
  }

  /**
   * Close once no operation uses this connection any more. A replaced session may still owe answers
   * to requests it accepted before it expired (the server completes them), so they are not cut off.
   */
  closeWhenIdle(options: { terminateSession: boolean }): Promise<void> {
    if (this.active === 0) return this.close(options);
    return new Promise<void>((resolve) => {
      const idle = () => {
        this.idle = undefined;
        void this.close(options).then(resolve);
      };
      this.idle = idle;
    });
  }

  /** Other operations are using this connection, or it has answered one: it was a live, shared session. */
  get wasShared(): boolean {
    return this.active > 0 || this.answered > 0;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  stderrTail(): string[] {
    return this.tail();
  }

  /** The rejected Authorization header of the last 401, to tell whether newer credentials exist. */
  get rejectedAuthorization(): string | undefined {
    return this.observations?.rejectedAuthorization;
  }

  classify(err: unknown): McpClientError {
    return classifyError(err, { closeReason: this.endReason, http: this.observations });
  }

  ready(): ReadyInfo {
    return {
      serverInfo: this.client.getServerVersion(),
      capabilities: this.client.getServerCapabilities() ?? {},
      instructions: this.client.getInstructions(),
      protocolVersion: this.client.getNegotiatedProtocolVersion(),
      discovery: this.discovery(),
      generation: this.generation,
    };
  }

  /** The era this connection speaks, in the form `connect({ prior })` takes back. */
  discovery(): PriorDiscovery | undefined {
    const era = this.client.getProtocolEra();
    if (era === 'legacy') return { kind: 'legacy' };
    const discover = era === 'modern' ? this.client.getDiscoverResult() : undefined;
    return discover ? { kind: 'modern', discover } : undefined;
  }

  /** The listen stream of a 2026-07-28 connection; undefined on a 2025 one. */
  get listen(): ListenStream | undefined {
    return this.listenStream;
  }

  /** Close the transport (for stdio: kill the process group). Idempotent. */
  async close(options: { terminateSession: boolean } = { terminateSession: true }): Promise<void> {
    if (this.closedByUs) return;
    this.closedByUs = true;
    this.listenStream?.close();
    const transport = this.transport;
    if (options.terminateSession && !this.ended && transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      // Politely end the server's session; a server that does not answer does not hold us up.
      await Promise.race([transport.terminateSession().catch(() => {}), sleep(TERMINATE_SESSION_WAIT_MS)]);
    }
    await this.client.close().catch(() => {});
  }

  private onTransportError(err: Error, setup: ConnectionSetup): void {
    if (err instanceof McpClientError && END_REASONS.has(err.code)) {
      this.endReason ??= err;
      return;
    }
    setup.logger.debug(`MCP server '${setup.serverName}' transport: ${errorMessage(err)}`);
  }

  private onTransportClosed(setup: ConnectionSetup): void {
    if (this.ended) return;
    this.ended = true;
    this.listenStream?.close();
    if (this.closedByUs) return;
    const reason = this.endReason ?? new McpClientError('connection_closed', `connection to MCP server '${setup.serverName}' closed`);
    setup.onEnded(this, reason.withStderrTail(this.stderrTail()));
  }
}

/**
 * On stdio, a failed era probe (the server exited on `server/discover`, as 2025-era SDKs that end
 * on any request before `initialize` do, or answered it with something unusable) is a 2025 server:
 * the caller starts it again and sends `initialize`, as the SDK's own stdio transport would.
 */
function probeFailed(err: unknown, recipe: TransportRecipe, setup: ConnectionSetup, prior: PriorDiscovery | undefined, failure: McpClientError): McpClientError | undefined {
  if (recipe.kind !== 'stdio' || prior !== undefined || setup.versionNegotiation !== 'auto') return undefined;
  if (!(err instanceof SdkError) || err.code !== SdkErrorCode.EraNegotiationFailed) return undefined;
  return new McpClientError('probe_failed', `MCP server did not complete the 2026-07-28 server/discover probe: ${failure.message}`, { cause: err });
}

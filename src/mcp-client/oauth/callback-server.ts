// The login's loopback listener: `127.0.0.1:<port or ephemeral>/callback` (or the configured
// callback URL), answering with Codex's texts and handing back the code, state and iss. node:http is
// loaded by the login that needs it: its ES module facade loads Node's fetch stack (undici) with it,
// megabytes and milliseconds every process that merely links the OAuth layer would pay.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { raceSignal } from '../../util/index.js';
import { OAuthLoginError, providerErrorMessage } from './errors.js';

export interface OAuthCallback {
  code: string;
  state: string | null;
  iss: string | null;
}

export interface CallbackServer {
  /** The redirect URI to register and send (`http://127.0.0.1:<port>/callback`). */
  readonly redirectUri: string;
  /** Resolves with the first valid callback; rejects on an `error=` callback or abort. */
  wait(signal?: AbortSignal): Promise<OAuthCallback>;
  close(): Promise<void>;
}

export interface CallbackServerOptions {
  /** mcp_oauth_callback_port; null or undefined for an ephemeral port. */
  port?: number | null;
  /** mcp_oauth_callback_url: registered as is; its path is the one the listener accepts. */
  callbackUrl?: string | null;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

interface Deferred {
  promise: Promise<OAuthCallback>;
  resolve: (cb: OAuthCallback) => void;
  reject: (err: unknown) => void;
  settled: boolean;
  consumed: boolean;
}

function deferred(): Deferred {
  const d = { settled: false, consumed: false } as Deferred;
  d.promise = new Promise<OAuthCallback>((resolve, reject) => {
    const settleWith: Deferred['resolve'] = (cb) => {
      d.settled = true;
      resolve(cb);
    };
    const settleWithError: Deferred['reject'] = (err) => {
      d.settled = true;
      reject(err);
    };
    d.resolve = settleWith;
    d.reject = settleWithError;
  });
  d.promise.catch(() => {});
  return d;
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(text);
}

export async function startCallbackServer(options: CallbackServerOptions = {}): Promise<CallbackServer> {
  const configured = options.callbackUrl ? new URL(options.callbackUrl) : undefined;
  // A non-loopback callback URL (remote machine, devbox) needs a listener reachable from outside.
  const host = configured && !LOOPBACK.has(configured.hostname) ? '0.0.0.0' : '127.0.0.1';
  const port = options.port ?? (configured?.port ? Number(configured.port) : 0);
  const path = configured?.pathname ?? '/callback';

  // One outcome per wait(): a retried login waits again on the same listener.
  let pending: Deferred | undefined;
  const outcome = (): Deferred => {
    if (!pending || pending.settled) pending = deferred();
    return pending;
  };
  const nextWait = (): Deferred => {
    if (!pending || pending.consumed) pending = deferred();
    pending.consumed = true;
    return pending;
  };

  const { createServer } = await import('node:http');
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== path) {
      reply(res, 400, 'Invalid OAuth callback');
      return;
    }
    const error = url.searchParams.get('error');
    if (error) {
      const message = providerErrorMessage(error, url.searchParams.get('error_description'));
      reply(res, 400, message);
      outcome().reject(new OAuthLoginError('oauth_provider_error', message, { oauthError: error }));
      return;
    }
    const code = url.searchParams.get('code');
    const state = url.searchParams.get('state');
    if (!code || !state) {
      reply(res, 400, 'Invalid OAuth callback');
      return;
    }
    reply(res, 200, 'Authentication complete. You may close this window.');
    outcome().resolve({ code, state, iss: url.searchParams.get('iss') });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const redirectUri = configured ? configured.href : `http://127.0.0.1:${actualPort}${path}`;

  return {
    redirectUri,
    wait: (signal) => raceSignal(nextWait().promise, signal),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A caller's own login to an upstream (identity = "caller" without token exchange), made through the
// gateway: a link bound to the caller (single use, short-lived) whose page starts the upstream's
// authorization flow with the gateway's callback, and the callback that stores the tokens for that
// caller. Both legs keep their state in the store, so the callback may reach any replica; the page
// sets a cookie the callback must bring back, so a link forwarded to someone else cannot complete a
// login in another browser.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { auth, type FetchLike, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../../config/index.js';
import type { CallerCredentialStore } from '../../store/index.js';
import { errorMessage, McpClientError, type Logger } from '../../util/index.js';
import type { UpstreamCaller } from '../caller-identity.js';
import type { SwitchboardOAuthProvider } from './provider.js';

/** How long a login link works, and how long its authorization may take once opened. */
export const LOGIN_TTL_MS = 10 * 60_000;
const COOKIE = 'sb_upstream_login';
/** How often a waiting call reads the store for a login completed on another replica. */
const WAIT_POLL_MS = 1_000;
const ROUTE = '/upstream-login';

/** What a login link stands for, until it is opened. */
interface NewLogin {
  stage: 'new';
  caller: string;
  subject: string | null;
  server: string;
}

/** A login whose page was opened: waiting for the authorization server's callback. */
interface StartedLogin {
  stage: 'started';
  caller: string;
  server: string;
  verifier: string;
  binding: string;
  /** What discovery found on the first leg (the callback's code exchange must go to that authorization server). */
  discovery: OAuthDiscoveryState | undefined;
}

export interface CallerLoginDeps {
  store: CallerCredentialStore;
  /** The servers by name (a login names one). */
  server(name: string): McpServerConfig | undefined;
  /** A provider for `caller`'s login to `server` with the gateway's callback. */
  provider(server: McpServerConfig, caller: string, redirectUrl: string, onAuthorizationUrl: (url: URL) => Promise<void>): SwitchboardOAuthProvider;
  /** The MCP endpoint's public URL (the login routes live beneath it): `[server_auth] audience`, else where it listens. */
  endpointUrl(): string;
  logger: Logger;
  fetch?: FetchLike;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const id = () => randomBytes(32).toString('base64url');

function page(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', ...headers });
  res.end(`${text}\n`);
}

function cookieOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return rest.join('=');
  }
  return undefined;
}

export class CallerLogins {
  /** Local waiters for a caller's login to a server (another replica's callback is found by polling the store). */
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(private readonly deps: CallerLoginDeps) {}

  /** A new login link for `caller` to `server`, bound to that caller, usable once within {@link LOGIN_TTL_MS}. */
  async begin(server: McpServerConfig, caller: UpstreamCaller): Promise<{ url: string; id: string }> {
    const login = id();
    const record: NewLogin = { stage: 'new', caller: caller.key, subject: caller.subject ?? null, server: server.name };
    await this.deps.store.putLogin(`new:${login}`, record, LOGIN_TTL_MS);
    return { url: `${this.base()}${ROUTE}/${login}`, id: login };
  }

  /** Resolves once `caller` holds tokens for `server` (logged in here, or on another replica: the store is read again every second). */
  async waitFor(server: McpServerConfig, caller: string, stored: () => Promise<boolean>, signal: AbortSignal): Promise<void> {
    const key = `${caller}\u0000${server.name}`;
    while (!(await stored())) {
      signal.throwIfAborted();
      await new Promise<void>((resolve) => {
        const set = this.waiters.get(key) ?? new Set();
        this.waiters.set(key, set);
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          set.delete(done);
          if (set.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
          resolve();
        };
        const timer = setTimeout(done, WAIT_POLL_MS);
        signal.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    }
  }

  /** The login routes beneath the endpoint path; false for any other path. */
  async serve(req: IncomingMessage, res: ServerResponse, url: URL, endpointPath: string): Promise<boolean> {
    const prefix = `${endpointPath}${ROUTE}/`;
    if (!url.pathname.startsWith(prefix)) return false;
    if (req.method !== 'GET') {
      page(res, 405, 'Method not allowed.', { allow: 'GET' });
      return true;
    }
    const rest = url.pathname.slice(prefix.length);
    try {
      if (rest === 'callback') await this.callback(req, res, url);
      else await this.start(res, rest, endpointPath);
    } catch (err) {
      this.deps.logger.warn('an upstream login failed', { error: errorMessage(err) });
      if (!res.headersSent) page(res, 502, `The login could not be completed: ${errorMessage(err)}\nCall the tool again for a new link.`);
    }
    return true;
  }

  private base(): string {
    return this.deps.endpointUrl().replace(/\/+$/, '');
  }

  private redirectUrl(): string {
    return `${this.base()}${ROUTE}/callback`;
  }

  /** The link was opened: start the upstream's authorization (discovery, registration, PKCE) and send the browser there. */
  private async start(res: ServerResponse, login: string, endpointPath: string): Promise<void> {
    const record = (await this.deps.store.takeLogin(`new:${login}`)) as NewLogin | undefined;
    const server = record ? this.deps.server(record.server) : undefined;
    if (!record || !server || server.transport.type === 'stdio') {
      page(res, 410, 'This login link was already used, has expired or is unknown. Call the tool again for a new one.');
      return;
    }
    let target: URL | undefined;
    const provider = this.deps.provider(server, record.caller, this.redirectUrl(), async (url) => {
      target = url;
    });
    const scope = server.scopes && server.scopes.length > 0 ? server.scopes.join(' ') : undefined;
    const outcome = await auth(provider, { serverUrl: server.transport.url, ...(scope ? { scope } : {}), ...(this.deps.fetch ? { fetchFn: this.deps.fetch } : {}) });
    const state = provider.authorizationState;
    if (outcome !== 'REDIRECT' || !target || !state) throw new McpClientError('protocol', `MCP server '${server.name}' did not start an authorization`);
    const binding = id();
    const started: StartedLogin = { stage: 'started', caller: record.caller, server: server.name, verifier: provider.codeVerifier(), binding: sha256(binding).toString('base64url'), discovery: provider.session.discoveryState };
    await this.deps.store.putLogin(`state:${state}`, started, LOGIN_TTL_MS);
    const secure = this.base().startsWith('https:') ? '; Secure' : '';
    this.deps.logger.info('upstream login started', { server: server.name, caller: record.caller });
    page(res, 302, `Signing in to ${server.name}…`, {
      location: target.href,
      'set-cookie': `${COOKIE}=${binding}; Path=${endpointPath}${ROUTE}; HttpOnly; SameSite=Lax; Max-Age=${LOGIN_TTL_MS / 1000}${secure}`,
    });
  }

  /** The authorization server sent the browser back: check it is the browser that started, exchange the code, store the tokens. */
  private async callback(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const q = url.searchParams;
    const state = q.get('state');
    const record = state ? ((await this.deps.store.takeLogin(`state:${state}`)) as StartedLogin | undefined) : undefined;
    if (!record) {
      page(res, 400, 'This login is unknown, was already completed or has expired. Call the tool again for a new link.');
      return;
    }
    const presented = cookieOf(req);
    const expected = Buffer.from(record.binding, 'base64url');
    if (!presented || !timingSafeEqual(sha256(presented), expected)) {
      page(res, 403, 'This login was started in another browser. Open the link you were given in this browser, or call the tool again for a new one.');
      return;
    }
    const server = this.deps.server(record.server);
    if (!server || server.transport.type === 'stdio') {
      page(res, 410, 'That server is no longer configured.');
      return;
    }
    const error = q.get('error');
    const code = q.get('code');
    if (error || !code) {
      page(res, 400, `The authorization server refused the login (${error ?? 'no code'}${q.get('error_description') ? `: ${q.get('error_description')}` : ''}).`);
      return;
    }
    const provider = this.deps.provider(server, record.caller, this.redirectUrl(), async () => {});
    provider.saveCodeVerifier(record.verifier);
    if (record.discovery) provider.saveDiscoveryState(record.discovery);
    const done = await auth(provider, { serverUrl: server.transport.url, authorizationCode: code, iss: q.get('iss') ?? undefined, ...(this.deps.fetch ? { fetchFn: this.deps.fetch } : {}) });
    if (done !== 'AUTHORIZED') throw new McpClientError('protocol', 'the authorization code exchange did not complete');
    this.deps.logger.info('upstream login completed', { server: server.name, caller: record.caller });
    for (const wake of this.waiters.get(`${record.caller}\u0000${server.name}`) ?? []) wake();
    page(res, 200, `Signed in to ${server.name}. You can close this window and go back to your MCP client.`, { 'set-cookie': `${COOKIE}=; Path=${url.pathname.slice(0, url.pathname.lastIndexOf('/'))}; Max-Age=0` });
  }
}

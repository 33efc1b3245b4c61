// Builds the SDK HTTP transports (Streamable HTTP, legacy HTTP+SSE) from a recipe, with a fetch
// wrapper that records auth challenges, treats a GET 404 as "no server stream", and turns a 404 on a
// request that carried a session id into a typed session expiry. A token the server rejects makes
// the OAuth provider forget its discovery, so the resource's authorization server is looked up
// again (it may have moved: SEP-2352) before the SDK authorizes anew.
import { SSEClientTransport, StreamableHTTPClientTransport, isDpopNonceChallenge, parseErrorResponse } from '@modelcontextprotocol/client';
import type { FetchLike, Transport } from '@modelcontextprotocol/client';
import type { HttpObservations } from './classify-error.js';
import { httpStatusError, sessionExpired } from './classify-error.js';
import { MAX_STEP_UP_RETRIES } from './defaults.js';
import { McpClientError } from './errors.js';
import type { HttpRecipe } from './recipe.js';

export interface BuiltHttpTransport {
  transport: Transport;
  observations: HttpObservations;
}

export interface HttpTransportOptions {
  /** Injected fetch (tests, proxies); defaults to the global one. */
  fetch?: FetchLike;
}

export function buildHttpTransport(recipe: HttpRecipe, options: HttpTransportOptions = {}): BuiltHttpTransport {
  const observations: HttpObservations = {};
  const fetchImpl = observingFetch(recipe, observations, options.fetch ?? fetch);
  const url = new URL(recipe.url);
  const requestInit: RequestInit = { headers: { ...recipe.headers } };
  const authProvider = recipe.authProvider;
  const transport: Transport =
    recipe.kind === 'sse'
      ? new SSEClientTransport(url, { requestInit, fetch: fetchImpl, ...(authProvider ? { authProvider } : {}) })
      : new StreamableHTTPClientTransport(url, { requestInit, fetch: fetchImpl, maxStepUpRetries: MAX_STEP_UP_RETRIES, ...(authProvider ? { authProvider } : {}) });
  return { transport, observations };
}

function observingFetch(recipe: HttpRecipe, seen: HttpObservations, base: FetchLike): FetchLike {
  return async (input, init) => {
    let response: Response;
    try {
      response = await base(input, init);
    } catch (err) {
      // Aborts stay aborts (the SDK tells intentional ones apart); anything else never reached the server.
      if (init?.signal?.aborted) throw err;
      throw new McpClientError('network', `error sending request for url (${String(input)}): ${describeCause(err)}`, { cause: err });
    }
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    // A token request (the SDK's auth() sends it through here) that was refused: the OAuth provider
    // keeps the SDK from presenting the same credential again right away.
    const provider = recipe.authProvider as { noteTokenRefusal?: (err: Awaited<ReturnType<typeof parseErrorResponse>>) => void } | undefined;
    if (!response.ok && init?.body instanceof URLSearchParams && init.body.has('grant_type') && provider?.noteTokenRefusal) {
      provider.noteTokenRefusal(await parseErrorResponse(response.clone()));
    }
    // A DPoP nonce challenge (RFC 9449 §9) is answered by the SDK's DPoP layer around this fetch,
    // which retries at once with the nonce: the token was not rejected.
    if ((response.status === 401 || response.status === 403) && !isDpopNonceChallenge(response)) {
      seen.challenge = response.headers.get('www-authenticate') ?? undefined;
      seen.rejectedAuthorization = headers.get('authorization') ?? undefined;
      const auth = recipe.authProvider;
      if (response.status === 401 && headers.has('authorization') && auth && 'invalidateCredentials' in auth) {
        await auth.invalidateCredentials?.('discovery');
      }
    }
    if (recipe.kind === 'streamable_http' && method === 'GET' && (response.status === 404 || response.status === 405)) {
      // The standalone server stream is optional: 404 and 405 both mean "none offered".
      await response.body?.cancel().catch(() => {});
      return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
    }
    if (method === 'POST' && response.status === 404 && headers.has('mcp-session-id')) {
      await response.body?.cancel().catch(() => {});
      throw sessionExpired();
    }
    // The legacy SSE transport reports other failures as untyped errors: type them here. A 401
    // with OAuth configured stays with the transport, which refreshes and retries once.
    if (recipe.kind === 'sse' && method === 'POST' && !response.ok && !(response.status === 401 && recipe.authProvider)) {
      const body = await response.text().catch(() => '');
      throw httpStatusError(response.status, body, seen.challenge);
    }
    return response;
  };
}

function describeCause(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}

// Completing an authorization without a browser: follow the authorization URL with fetch (for
// servers that approve automatically), take the code from the redirect, and exchange it.
import { auth } from '@modelcontextprotocol/client';
import { OAuthLoginError, providerErrorMessage } from './errors.js';
import type { SwitchboardOAuthProvider } from './provider.js';

const MAX_HOPS = 10;

function isCallback(target: URL, redirectUrl: URL): boolean {
  return target.origin === redirectUrl.origin && target.pathname === redirectUrl.pathname;
}

export async function followAuthorizationHeadlessly(provider: SwitchboardOAuthProvider, authorizationUrl: URL): Promise<void> {
  const redirectUrl = new URL(String(provider.redirectUrl));
  let current = authorizationUrl;
  let callback: URL | undefined;
  for (let hop = 0; hop < MAX_HOPS && !callback; hop++) {
    const response = await fetch(current, { redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new OAuthLoginError('oauth_login_failed', `the authorization server answered HTTP ${response.status} instead of redirecting back; a browser login is needed`);
    }
    const next = new URL(location, current);
    if (isCallback(next, redirectUrl)) callback = next;
    else current = next;
  }
  if (!callback) throw new OAuthLoginError('oauth_login_failed', 'the authorization server redirected too many times');
  const params = callback.searchParams;
  const error = params.get('error');
  if (error) {
    throw new OAuthLoginError('oauth_provider_error', providerErrorMessage(error, params.get('error_description')), { oauthError: error });
  }
  const code = params.get('code');
  if (!code) throw new OAuthLoginError('oauth_login_failed', 'the authorization redirect carried no code');
  const expected = provider.authorizationState;
  if (expected !== undefined && params.get('state') !== expected) {
    throw new OAuthLoginError('oauth_login_failed', 'the authorization redirect carried a wrong state parameter');
  }
  const result = await auth(provider, { serverUrl: provider.session.serverUrl, authorizationCode: code, iss: params.get('iss') ?? undefined });
  if (result !== 'AUTHORIZED') throw new OAuthLoginError('oauth_login_failed', 'the authorization code exchange did not complete');
}

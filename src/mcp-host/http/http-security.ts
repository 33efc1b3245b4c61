// Which token configurations an HTTP MCP endpoint refuses to start with. The entry checks themselves
// (listen address, bearer token, Host/Origin) live in util/listen, shared with the exec-server.
import { isLoopbackHost, SwitchboardError, type ListenAddress } from '../../util/index.js';

export const MIN_TOKEN_LENGTH = 16;

/** Refuse configurations that would expose the endpoint without authentication. */
export function checkAuthConfig(listen: ListenAddress, token: string | null, insecureNoAuth: boolean, oauth = false): void {
  if (oauth && insecureNoAuth) throw new SwitchboardError('http_auth_config', '--insecure-no-auth cannot be combined with [server_auth] issuer; drop one of them');
  if (oauth && token === null) return;
  if (token !== null) {
    if (insecureNoAuth) throw new SwitchboardError('http_auth_config', '--insecure-no-auth cannot be combined with a token; drop one of them');
    if (token.length < MIN_TOKEN_LENGTH) {
      throw new SwitchboardError('http_auth_config', `the token is too short (${token.length} characters); use at least ${MIN_TOKEN_LENGTH}, e.g. \`head -c 32 /dev/urandom | base64\``);
    }
    return;
  }
  if (!insecureNoAuth) {
    throw new SwitchboardError(
      'http_auth_config',
      'no token: pass --token-file FILE or set SWITCHBOARD_MCP_TOKEN (clients send "Authorization: Bearer <token>"); on a loopback address --insecure-no-auth runs without one',
    );
  }
  if (!isLoopbackHost(listen.host)) {
    throw new SwitchboardError('http_auth_config', `--insecure-no-auth is only allowed on a loopback address, not ${listen.host}; use a token`);
  }
}

// Which token configurations an HTTP MCP endpoint refuses to start with. The entry checks themselves
// (listen address, bearer token, Host/Origin) live in util/listen, shared with the exec-server.
import { isLoopbackHost, SwitchboardError, type ListenAddress } from '../../util/index.js';

export const MIN_TOKEN_LENGTH = 16;

/** How the options are spelt where the user sets them: flags on the command line, fields in code. */
export interface AuthOptionNames {
  /** Where a token comes from. */
  token: string;
  /** The switch that runs without one. */
  insecure: string;
  /** A way to make a token. */
  makeToken: string;
}

/** The command line's names (`serve --http`, `mcp-server --http`). */
export const AUTH_FLAG_NAMES: AuthOptionNames = {
  token: '--token-file FILE or set SWITCHBOARD_MCP_TOKEN',
  insecure: '--insecure-no-auth',
  makeToken: '`head -c 32 /dev/urandom | base64`',
};

/** Refuse configurations that would expose the endpoint without authentication. */
export function checkAuthConfig(listen: ListenAddress, token: string | null, insecureNoAuth: boolean, oauth = false, names: AuthOptionNames = AUTH_FLAG_NAMES): void {
  if (oauth && insecureNoAuth) throw new SwitchboardError('http_auth_config', `${names.insecure} cannot be combined with [server_auth] issuer; drop one of them`);
  if (oauth && token === null) return;
  if (token !== null) {
    if (insecureNoAuth) throw new SwitchboardError('http_auth_config', `${names.insecure} cannot be combined with a token; drop one of them`);
    if (token.length < MIN_TOKEN_LENGTH) {
      throw new SwitchboardError('http_auth_config', `the token is too short (${token.length} characters); use at least ${MIN_TOKEN_LENGTH}, e.g. ${names.makeToken}`);
    }
    return;
  }
  if (!insecureNoAuth) {
    throw new SwitchboardError(
      'http_auth_config',
      `no token: pass ${names.token} (clients send "Authorization: Bearer <token>"); on a loopback address ${names.insecure} runs without one`,
    );
  }
  if (!isLoopbackHost(listen.host)) {
    throw new SwitchboardError('http_auth_config', `${names.insecure} is only allowed on a loopback address, not ${listen.host}; use a token`);
  }
}

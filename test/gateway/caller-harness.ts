// What the tests of acting as each caller upstream share: a caller's client of the gateway (by its
// bearer token, in either protocol revision), the `whoami` answer of an upstream through it, and the
// tokens the OAuth fixture's upstream was presented (to tell whose identity reached it), and the
// caller's user signing in to the upstream through the gateway's login link.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { OAuthFixture } from '../fixtures/oauth-fixture.js';

/** A client of the gateway at `url` presenting `token`; `modern`: it negotiates 2026-07-28. Kept in `clients` for closing. */
export async function callerClient(url: string, token: string, clients: Client[], modern = false): Promise<Client> {
  const client = new Client({ name: 'caller', version: '1.0.0' }, modern ? { versionNegotiation: { mode: 'auto' } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

/** Whom the upstream `server` says the presented token stands for. */
export async function whoami(client: Client, server: string): Promise<string> {
  return ((await client.callTool({ name: `mcp__${server}__whoami`, arguments: {} })).structuredContent as { subject: string }).subject;
}

/** The bearer tokens the fixture's MCP endpoint was presented since its request number `from`. */
export function presentedTokens(fixture: OAuthFixture, from = 0): string[] {
  return fixture
    .requestsTo('/mcp')
    .slice(from)
    .map((r) => r.authorization?.replace(/^Bearer /, ''))
    .filter((t): t is string => t !== undefined);
}

/** The user's browser: opens the gateway's sign-in link, signs in at the fixture as `user`, follows the callback with the cookie it was given. */
export async function signIn(link: string, user: string): Promise<string> {
  const opened = await fetch(link, { redirect: 'manual' });
  expect(opened.status).toBe(302);
  const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  const authorized = await fetch(opened.headers.get('location')!, { redirect: 'manual', headers: { 'x-fixture-user': user } });
  expect(authorized.status).toBe(302);
  const done = await fetch(authorized.headers.get('location')!, { redirect: 'manual', headers: { cookie } });
  return `${done.status} ${await done.text()}`;
}

/** What a client declares to be asked to open URLs (URL-mode elicitation). */
export const OPENS_URLS = { capabilities: { elicitation: { url: {} } } };

/** `client` (declaring OPENS_URLS) answers URL elicitations by signing in as `user`; each browser's outcome goes to `browsers`. */
export function signsInAs(client: Client, user: string, browsers: Promise<string>[]): void {
  client.setRequestHandler('elicitation/create', async (req) => {
    const params = req.params as { mode?: string; url?: string };
    if (params.mode !== 'url' || !params.url) return { action: 'decline' };
    browsers.push(signIn(params.url, user));
    return { action: 'accept' };
  });
}

import { afterEach, describe, expect, it } from 'vitest';
import { isSwitchboardError } from '../../util/index.js';
import { startCallbackServer, type CallbackServer } from './callback-server.js';
import { freePort } from '../../../test/support/free-port.mjs';

describe('OAuth callback server', () => {
  let server: CallbackServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('answers a wrong path or missing code with 400 and keeps waiting for the real callback', async () => {
    server = await startCallbackServer();
    expect(server.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const base = new URL(server.redirectUri);
    const wrong = await fetch(new URL('/other?code=x&state=y', base));
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toBe('Invalid OAuth callback');
    const missing = await fetch(new URL('/callback?code=x', base));
    expect(missing.status).toBe(400);
    const waiting = server.wait();
    const ok = await fetch(new URL('/callback?code=abc&state=st&iss=https%3A%2F%2Fas', base));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('Authentication complete. You may close this window.');
    expect(await waiting).toEqual({ code: 'abc', state: 'st', iss: 'https://as' });
  });

  it("turns an error callback into Codex's provider error text", async () => {
    server = await startCallbackServer();
    const waiting = server.wait();
    const res = await fetch(`${server.redirectUri}?error=access_denied&error_description=User%20said%20no`);
    expect(res.status).toBe(400);
    const err = await waiting.catch((e: unknown) => e);
    expect(isSwitchboardError(err, 'oauth_provider_error')).toBe(true);
    expect((err as Error).message).toBe('OAuth provider returned `access_denied`: User said no');
  });

  it('listens on the configured port, and on the configured callback URL and its path', async () => {
    const port = await freePort();
    server = await startCallbackServer({ port });
    expect(server.redirectUri).toBe(`http://127.0.0.1:${port}/callback`);
    await server.close();

    server = await startCallbackServer({ callbackUrl: `http://localhost:${port}/oauth/done` });
    expect(server.redirectUri).toBe(`http://localhost:${port}/oauth/done`);
    const waiting = server.wait();
    expect((await fetch(`http://127.0.0.1:${port}/callback?code=a&state=b`)).status).toBe(400);
    expect((await fetch(`http://127.0.0.1:${port}/oauth/done?code=a&state=b`)).status).toBe(200);
    expect((await waiting).code).toBe('a');
  });
});

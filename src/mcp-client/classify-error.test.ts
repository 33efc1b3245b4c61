import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { bodyPreview, classifyError } from './classify-error.js';
import { McpClientError } from './errors.js';
import { OAuthAuthRequiredError } from './oauth/errors.js';

describe('classifyError', () => {
  it('maps SDK HTTP errors by status', () => {
    const e404 = classifyError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 502, text: 'bad gateway' }));
    expect(e404).toMatchObject({ code: 'http_status', message: 'HTTP 502: bad gateway' });
    const e401 = classifyError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 401 }), { http: { challenge: 'Bearer realm="r"' } });
    expect(e401.code).toBe('auth_required');
    expect(e401.details.challenge).toBe('Bearer realm="r"');
    const scope = classifyError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 403 }), {
      http: { challenge: 'Bearer error="insufficient_scope", scope="a b"' },
    });
    expect(scope).toMatchObject({ code: 'insufficient_scope', details: { requiredScope: 'a b' } });
    const plain403 = classifyError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 403, text: 'nope' }));
    expect(plain403.code).toBe('http_status');
  });

  it('maps the auth outcomes of the SDK transport', () => {
    expect(classifyError(new UnauthorizedError()).code).toBe('auth_required');
    expect(classifyError(new SdkHttpError(SdkErrorCode.ClientHttpAuthentication, 'again', { status: 401 })).message).toContain('Auth required');
    expect(classifyError(new SdkHttpError(SdkErrorCode.ClientHttpForbidden, 'limit', { status: 403 })).code).toBe('insufficient_scope');
  });

  it("keeps the OAuth layer's not-logged-in error as auth_required, with its text", () => {
    const e = classifyError(new OAuthAuthRequiredError('chaos'));
    expect(e).toMatchObject({ code: 'auth_required', message: 'The chaos MCP server is not logged in. Run `switchboard mcp login chaos`.' });
  });

  it('prefers the transport close reason over a bare "connection closed"', () => {
    const reason = new McpClientError('process_exited', 'MCP server `x` exited with code 1');
    expect(classifyError(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), { closeReason: reason })).toBe(reason);
    expect(classifyError(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed')).code).toBe('connection_closed');
  });

  it('keeps JSON-RPC error codes', () => {
    const err = classifyError(new ProtocolError(-32601, 'Method not found'));
    expect(err).toMatchObject({ code: 'protocol', details: { rpcCode: -32601 } });
  });

  it('caps body previews at 8 KiB', () => {
    expect(bodyPreview('x'.repeat(10_000))).toHaveLength(8_193);
  });
});

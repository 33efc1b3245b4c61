import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { toolDisabledError, toolFilterFor } from './tool-filter.js';
import { applyMetadataPolicy, isModelVisible, TrustedServers } from './tool-metadata.js';

const tool = (name: string, meta?: Record<string, unknown>): Tool => ({ name, inputSchema: { type: 'object' }, ...(meta ? { _meta: meta } : {}) });

describe('toolFilterFor', () => {
  it('allows everything by default', () => {
    expect(toolFilterFor({ enabled_tools: null, disabled_tools: null }).allows('x')).toBe(true);
  });
  it('applies the allow list, then the deny list (deny wins)', () => {
    const f = toolFilterFor({ enabled_tools: ['keep', 'remove'], disabled_tools: ['remove'] });
    expect([f.allows('keep'), f.allows('remove'), f.allows('unknown')]).toEqual([true, false, false]);
  });
  it('allows nothing with an empty allow list, and matches exactly', () => {
    expect(toolFilterFor({ enabled_tools: [], disabled_tools: null }).allows('x')).toBe(false);
    expect(toolFilterFor({ enabled_tools: ['Read'], disabled_tools: null }).allows('read')).toBe(false);
  });
  it('names tool and server in the call-time error', () => {
    expect(toolDisabledError('docs', 'rm').message).toBe("tool 'rm' is disabled for MCP server 'docs'");
  });
});

describe('applyMetadataPolicy', () => {
  const meta = {
    connector_id: 'c1',
    connector_name: 'Gmail',
    connector_display_name: 'Gmail',
    connector_description: 'd',
    connectorDescription: 'd',
    connectorFutureField: 'kept',
    CONNECTOR_UPPERCASE: 'kept',
    'openai/fileParams': ['kept'],
    custom: 'kept',
  };

  it('strips exactly the five connector keys from untrusted servers', () => {
    const [out] = applyMetadataPolicy('apps', [tool('t', meta)], new TrustedServers());
    expect(out!._meta).toEqual({ connectorFutureField: 'kept', CONNECTOR_UPPERCASE: 'kept', 'openai/fileParams': ['kept'], custom: 'kept' });
  });

  it('keeps them for a server the host trusts in code', () => {
    const [out] = applyMetadataPolicy('apps', [tool('t', meta)], new TrustedServers(['apps']));
    expect(out!._meta).toEqual(meta);
  });

  it('gives no trust to a server merely named like a trusted one', () => {
    const [out] = applyMetadataPolicy('codex_apps', [tool('t', meta)], new TrustedServers(['apps']));
    expect(out!._meta).not.toHaveProperty('connector_id');
  });

  it('hides tools whose ui.visibility lacks "model"', () => {
    expect(isModelVisible(tool('a'))).toBe(true);
    expect(isModelVisible(tool('b', { ui: { visibility: ['app'] } }))).toBe(false);
    expect(isModelVisible(tool('c', { ui: { visibility: ['app', 'model'] } }))).toBe(true);
    expect(applyMetadataPolicy('s', [tool('a'), tool('b', { ui: { visibility: ['app'] } })], new TrustedServers()).map((t) => t.name)).toEqual(['a']);
  });
});

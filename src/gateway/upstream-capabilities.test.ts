import { describe, expect, it } from 'vitest';
import { upstreamCapabilities } from './upstream-capabilities.js';

describe('upstream capabilities follow the gateway client', () => {
  it('declares neither elicitation nor sampling for a client that supports neither, and asks it for no roots', () => {
    expect(upstreamCapabilities({})).toEqual({ clientOptions: { elicitationCapability: null }, sampling: false, roots: false });
    expect(upstreamCapabilities(undefined)).toEqual({ clientOptions: { elicitationCapability: null }, sampling: false, roots: false });
  });

  it("passes roots/list on to a client that has roots", () => {
    expect(upstreamCapabilities({ roots: { listChanged: true } }).roots).toBe(true);
    expect(upstreamCapabilities({ roots: {} }).roots).toBe(true);
  });

  it('passes elicitation on exactly as declared (form only, url, applyDefaults, the bare 2025-06-18 shape)', () => {
    expect(upstreamCapabilities({ elicitation: {} }).clientOptions.elicitationCapability).toEqual({});
    expect(upstreamCapabilities({ elicitation: { form: {} } }).clientOptions.elicitationCapability).toEqual({ form: {} });
    const both = { form: { applyDefaults: true }, url: {} };
    expect(upstreamCapabilities({ elicitation: both }).clientOptions.elicitationCapability).toEqual(both);
  });

  it('declares sampling, with its sub-capabilities, only for a client that samples', () => {
    expect(upstreamCapabilities({ sampling: {} })).toEqual({ clientOptions: { elicitationCapability: null, samplingCapability: {} }, sampling: true, roots: false });
    expect(upstreamCapabilities({ sampling: { tools: {} } }).clientOptions.samplingCapability).toEqual({ tools: {} });
  });
});

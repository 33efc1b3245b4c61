// What a client can be asked: a 2025 client's refusals as its own SDK words them, and the capability
// a 2026-07-28 request lacks.
import type { InputRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { legacyRefusal, missingCapability } from './client-capabilities.js';

const FORM = { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} } };
const URL_MODE = { mode: 'url', message: 'm', url: 'https://x.example', elicitationId: 'e' };
const elicit = (params: unknown) => ({ method: 'elicitation/create', params }) as InputRequest;
const sample = (params: unknown) => ({ method: 'sampling/createMessage', params }) as InputRequest;

describe('legacyRefusal', () => {
  it('refuses elicitation for a client without it (method not found), and a mode it did not declare (invalid params)', () => {
    expect(legacyRefusal(elicit(FORM), {})).toMatchObject({ code: -32601, message: expect.stringMatching(/does not support elicitation/) });
    expect(legacyRefusal(elicit(FORM), undefined)?.code).toBe(-32601);
    expect(legacyRefusal(elicit(URL_MODE), { elicitation: { form: {} } })).toMatchObject({ code: -32602, message: expect.stringMatching(/URL-mode/) });
    expect(legacyRefusal(elicit(URL_MODE), { elicitation: {} })?.code).toBe(-32602);
    expect(legacyRefusal(elicit(FORM), { elicitation: { url: {} } })).toMatchObject({ code: -32602, message: expect.stringMatching(/form-mode/) });
  });

  it('passes elicitation on for a client that declared the mode (the bare 2025-06-18 shape is form)', () => {
    expect(legacyRefusal(elicit(FORM), { elicitation: {} })).toBeUndefined();
    expect(legacyRefusal(elicit({ message: 'no mode', requestedSchema: {} }), { elicitation: { form: {} } })).toBeUndefined();
    expect(legacyRefusal(elicit(URL_MODE), { elicitation: { form: {}, url: {} } })).toBeUndefined();
  });

  it('refuses sampling for a client without it, and tools or context it did not declare', () => {
    const plain = { messages: [], maxTokens: 5 };
    expect(legacyRefusal(sample(plain), {})).toMatchObject({ code: -32601, message: expect.stringMatching(/^Method not found/) });
    expect(legacyRefusal(sample(plain), { sampling: {} })).toBeUndefined();
    expect(legacyRefusal(sample({ ...plain, tools: [] }), { sampling: {} })?.code).toBe(-32602);
    expect(legacyRefusal(sample({ ...plain, tools: [] }), { sampling: { tools: {} } })).toBeUndefined();
    expect(legacyRefusal(sample({ ...plain, includeContext: 'allServers' }), { sampling: {} })?.code).toBe(-32602);
    expect(legacyRefusal(sample({ ...plain, includeContext: 'none' }), { sampling: {} })).toBeUndefined();
  });

  it('refuses roots/list for a client without roots', () => {
    expect(legacyRefusal({ method: 'roots/list' } as InputRequest, {})?.code).toBe(-32601);
    expect(legacyRefusal({ method: 'roots/list' } as InputRequest, { roots: {} })).toBeUndefined();
  });
});

describe('missingCapability', () => {
  it('names the capability a 2026-07-28 request lacks', () => {
    expect(missingCapability(elicit(FORM), {})).toEqual({ elicitation: { form: {} } });
    expect(missingCapability(elicit(URL_MODE), { elicitation: { form: {} } })).toEqual({ elicitation: { url: {} } });
    expect(missingCapability(elicit(FORM), { elicitation: {} })).toBeUndefined();
    expect(missingCapability(sample({}), {})).toEqual({ sampling: {} });
    expect(missingCapability({ method: 'roots/list' } as InputRequest, { roots: {} })).toBeUndefined();
  });
});

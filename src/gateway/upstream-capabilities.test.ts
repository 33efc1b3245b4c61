import { describe, expect, it } from 'vitest';
import { refusalFor, UPSTREAM_CLIENT_OPTIONS } from './upstream-capabilities.js';

const FORM = { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} } };
const URL_MODE = { mode: 'url', message: 'm', url: 'https://x.example', elicitationId: 'e' };

describe('upstream capabilities: everything the gateway can relay, refused per calling client', () => {
  it('declares form and URL elicitation and sampling with tools and context to every upstream', () => {
    expect(UPSTREAM_CLIENT_OPTIONS).toEqual({ elicitationCapability: { form: {}, url: {} }, samplingCapability: { context: {}, tools: {} } });
  });

  it('refuses elicitation for a client without it (method not found), and a mode it did not declare (invalid params)', () => {
    expect(refusalFor('elicitation/create', FORM, {})).toMatchObject({ code: -32601, message: expect.stringMatching(/does not support elicitation/) });
    expect(refusalFor('elicitation/create', FORM, undefined)?.code).toBe(-32601);
    expect(refusalFor('elicitation/create', URL_MODE, { elicitation: { form: {} } })).toMatchObject({ code: -32602, message: expect.stringMatching(/URL-mode/) });
    expect(refusalFor('elicitation/create', URL_MODE, { elicitation: {} })?.code).toBe(-32602);
    expect(refusalFor('elicitation/create', FORM, { elicitation: { url: {} } })).toMatchObject({ code: -32602, message: expect.stringMatching(/form-mode/) });
  });

  it('passes elicitation on for a client that declared the mode (the bare 2025-06-18 shape is form)', () => {
    expect(refusalFor('elicitation/create', FORM, { elicitation: {} })).toBeUndefined();
    expect(refusalFor('elicitation/create', { message: 'no mode', requestedSchema: {} }, { elicitation: { form: {} } })).toBeUndefined();
    expect(refusalFor('elicitation/create', URL_MODE, { elicitation: { form: {}, url: {} } })).toBeUndefined();
  });

  it('refuses sampling for a client without it, and tools or context it did not declare', () => {
    const plain = { messages: [], maxTokens: 5 };
    expect(refusalFor('sampling/createMessage', plain, {})).toMatchObject({ code: -32601, message: expect.stringMatching(/^Method not found/) });
    expect(refusalFor('sampling/createMessage', plain, { sampling: {} })).toBeUndefined();
    expect(refusalFor('sampling/createMessage', { ...plain, tools: [] }, { sampling: {} })?.code).toBe(-32602);
    expect(refusalFor('sampling/createMessage', { ...plain, tools: [] }, { sampling: { tools: {} } })).toBeUndefined();
    expect(refusalFor('sampling/createMessage', { ...plain, includeContext: 'allServers' }, { sampling: {} })?.code).toBe(-32602);
    expect(refusalFor('sampling/createMessage', { ...plain, includeContext: 'none' }, { sampling: {} })).toBeUndefined();
  });
});

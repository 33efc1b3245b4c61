import { describe, expect, it } from 'vitest';
import { clientCapabilities } from './sdk-client.js';

/** Declared on every connection: a server may answer a long tools/call with a task. */
const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

const sampling = async () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: '' }, model: 'm' });

describe('clientCapabilities', () => {
  it('declares form (with applyDefaults) and url elicitation by default, sampling only with a handler', () => {
    expect(clientCapabilities({ handlers: {}, roots: undefined, urlElicitation: true })).toEqual({ elicitation: { form: { applyDefaults: true }, url: {} }, ...tasks });
    expect(clientCapabilities({ handlers: { sampling }, roots: [], urlElicitation: false })).toEqual({
      elicitation: { form: { applyDefaults: true } },
      roots: { listChanged: false },
      sampling: {},
      ...tasks,
    });
  });

  it('declares exactly the elicitation and sampling capabilities a host chose (a gateway passing its client on)', () => {
    expect(clientCapabilities({ handlers: {}, roots: undefined, urlElicitation: true, elicitationCapability: null })).toEqual(tasks);
    expect(clientCapabilities({ handlers: {}, roots: undefined, urlElicitation: true, elicitationCapability: { form: {} } })).toEqual({ elicitation: { form: {} }, ...tasks });
    expect(clientCapabilities({ handlers: { sampling }, roots: undefined, urlElicitation: true, elicitationCapability: null, samplingCapability: { tools: {} } })).toEqual({
      sampling: { tools: {} },
      ...tasks,
    });
    // A sampling capability without a handler is not declared: nobody would answer.
    expect(clientCapabilities({ handlers: {}, roots: undefined, urlElicitation: true, elicitationCapability: null, samplingCapability: {} })).toEqual(tasks);
  });
});

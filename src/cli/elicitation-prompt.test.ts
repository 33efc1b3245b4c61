import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { callElicitationHandler, promptElicitation } from './elicitation-prompt.js';

/** Runs the prompt with `answers` typed ahead (one a line; `end` closes input after them). */
async function run(request: Record<string, unknown>, answers: string[], end = false) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (d: Buffer) => (shown += d.toString()));
  input.write(answers.map((a) => `${a}\n`).join(''));
  if (end) input.end();
  const answer = await promptElicitation({ server: 'srv', id: 1, request }, { input, output });
  return { answer, shown };
}

const FORM = {
  message: 'Tell me about you',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', default: 'Ada' },
      age: { type: 'integer', description: 'Whole years' },
      subscribe: { type: 'boolean' },
      color: { type: 'string', enum: ['red', 'green'], enumNames: ['Red', 'Green'] },
      size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
    },
    required: ['age', 'subscribe'],
  },
};

describe('promptElicitation', () => {
  it('asks for each field of a form, with defaults, re-asking what does not fit', async () => {
    const { answer, shown } = await run(FORM, ['', '', '', 'forty', '41.5', '41', 'maybe', 'y', '2', 'Small']);
    expect(answer).toEqual({ action: 'accept', content: { name: 'Ada', age: 41, subscribe: true, color: 'green', size: 's' } });
    expect(shown).toContain("MCP server 'srv' asks: Tell me about you");
    expect(shown).toContain('Name (string) [default: Ada]: ');
    expect(shown).toContain('Whole years');
    expect(shown).toContain('    required\n');
    expect(shown).toContain('enter a whole number');
    expect(shown).toContain('answer y or n');
    expect(shown).toContain('    1) Red\n    2) Green\n');
  });

  it('leaves out an optional field answered with nothing', async () => {
    const { answer } = await run(FORM, ['a', 'Bob', '3', 'n', '', 'l']);
    expect(answer).toEqual({ action: 'accept', content: { name: 'Bob', age: 3, subscribe: false, size: 'l' } });
  });

  it('declines or cancels when asked to, and cancels at the end of input', async () => {
    expect((await run(FORM, ['d'])).answer).toEqual({ action: 'decline' });
    expect((await run(FORM, ['cancel'])).answer).toEqual({ action: 'cancel' });
    expect((await run(FORM, ['a', 'Bob'], true)).answer).toEqual({ action: 'cancel' });
  });

  it('shows the URL of a URL-mode request and asks to confirm', async () => {
    const request = { mode: 'url', message: 'Sign in', url: 'https://example.com/auth', elicitationId: 'e1' };
    const accepted = await run(request, ['y']);
    expect(accepted.answer).toEqual({ action: 'accept' });
    expect(accepted.shown).toContain('Open this URL to continue: https://example.com/auth');
    expect((await run(request, ['n'])).answer).toEqual({ action: 'decline' });
    expect((await run(request, [], true)).answer).toEqual({ action: 'cancel' });
  });
});

describe('callElicitationHandler', () => {
  it('declines without a terminal, saying so on stderr', async () => {
    let stderr = '';
    const handler = callElicitationHandler({ stdin: new PassThrough(), stderr: { write: (t) => void (stderr += t), isTTY: true }, prompt: new PassThrough() });
    expect(await handler({ server: 'srv', id: 1, request: FORM })).toEqual({ action: 'decline' });
    expect(stderr).toBe(
      `MCP server 'srv' asked for input during the call: "Tell me about you". Declined: stdin and stderr are not a terminal. Run \`switchboard mcp call\` in a terminal to answer it.\n`,
    );
  });
});

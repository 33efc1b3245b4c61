// Answering a server's request for input during `mcp call` (a 2025 `elicitation/create` or a 2026-07-28
// input-required elicitation): an interactive prompt on a terminal, a declining line everywhere else.
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import type { CallElicitation, CallElicitationHandler } from '../mcp/index.js';

type Answer = Awaited<ReturnType<CallElicitationHandler>>;

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  oneOf?: { const?: unknown; title?: string }[];
  enumNames?: string[];
}

const messageOf = (request: Record<string, unknown>): string => (typeof request.message === 'string' ? request.message : '(no message)');

/** Not a terminal: nobody can answer, so decline, and say how the question could be answered. */
export function declineWithoutTerminal(elicitation: CallElicitation, stderr: { write(text: string): void }): Answer {
  stderr.write(
    `MCP server '${elicitation.server}' asked for input during the call: ${JSON.stringify(messageOf(elicitation.request))}. ` +
      'Declined: stdin and stderr are not a terminal. Run `switchboard mcp call` in a terminal to answer it.\n',
  );
  return { action: 'decline' };
}

/** The choices of an enum field, as [value, label] pairs. */
function choicesOf(field: FieldSchema): [unknown, string][] | undefined {
  if (Array.isArray(field.enum)) return field.enum.map((v, i) => [v, field.enumNames?.[i] ?? String(v)]);
  if (Array.isArray(field.oneOf) && field.oneOf.every((o) => o && 'const' in o)) return field.oneOf.map((o) => [o.const, o.title ?? String(o.const)]);
  return undefined;
}

/** Reads an answer to `field` from `text`; undefined (with a reason) when it does not fit. */
function parseValue(field: FieldSchema, text: string): { value: unknown } | { problem: string } {
  const choices = choicesOf(field);
  if (choices) {
    const byNumber = /^\d+$/.test(text) ? choices[Number(text) - 1] : undefined;
    const hit = byNumber ?? choices.find(([v, label]) => String(v) === text || label === text);
    return hit ? { value: hit[0] } : { problem: `choose 1-${choices.length} or one of the values` };
  }
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { problem: 'answer y or n' };
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (text === '' || !Number.isFinite(n) || (field.type === 'integer' && !Number.isInteger(n))) return { problem: `enter ${field.type === 'integer' ? 'a whole number' : 'a number'}` };
      return { value: n };
    }
    default:
      return { value: text };
  }
}

/**
 * Asks on `output` and reads answers from `input`: the message, then (form mode) each field of the
 * requested schema, or (URL mode) the URL to open. End of input cancels.
 */
export async function promptElicitation(elicitation: CallElicitation, io: { input: Readable; output: Writable; terminal?: boolean }): Promise<Answer> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: io.terminal ?? false });
  // Lines are read through the iterator, which buffers: answers typed ahead are not lost.
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (question: string): Promise<string | undefined> => {
    io.output.write(question);
    const next = await lines.next();
    return next.done ? undefined : next.value.trim();
  };
  try {
    const { request, server } = elicitation;
    io.output.write(`\nMCP server '${server}' asks: ${messageOf(request)}\n`);
    if (request.mode === 'url') {
      io.output.write(`  Open this URL to continue: ${String(request.url)}\n`);
      for (;;) {
        const answer = await ask('Done (or go ahead)? [y]es / [n]o, decline / [c]ancel: ');
        if (answer === undefined || /^c(ancel)?$/i.test(answer)) return { action: 'cancel' };
        if (/^y(es)?$/i.test(answer)) return { action: 'accept' };
        if (/^no?$/i.test(answer)) return { action: 'decline' };
      }
    }
    for (;;) {
      const choice = await ask('Answer it? [a]ccept / [d]ecline / [c]ancel [a]: ');
      if (choice === undefined || /^c(ancel)?$/i.test(choice)) return { action: 'cancel' };
      if (/^d(ecline)?$/i.test(choice)) return { action: 'decline' };
      if (choice === '' || /^a(ccept)?$/i.test(choice)) break;
    }
    const schema = (request.requestedSchema ?? {}) as { properties?: Record<string, FieldSchema>; required?: string[] };
    const content: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      const required = schema.required?.includes(name) === true;
      const choices = choicesOf(field);
      if (field.description) io.output.write(`  ${field.description}\n`);
      if (choices) io.output.write(choices.map(([, label], i) => `    ${i + 1}) ${label}\n`).join(''));
      const hint = choices ? 'choice' : field.type === 'boolean' ? 'y/n' : (field.type ?? 'string');
      const shownDefault = field.default !== undefined ? ` [default: ${String(field.default)}]` : '';
      for (;;) {
        const text = await ask(`  ${field.title ?? name} (${hint}${required ? ', required' : ''})${shownDefault}: `);
        if (text === undefined) return { action: 'cancel' };
        if (text === '') {
          if (field.default !== undefined) content[name] = field.default;
          else if (required) {
            io.output.write('    required\n');
            continue;
          }
          break;
        }
        const parsed = parseValue(field, text);
        if ('value' in parsed) {
          content[name] = parsed.value;
          break;
        }
        io.output.write(`    ${parsed.problem}\n`);
      }
    }
    return { action: 'accept', content };
  } finally {
    rl.close();
  }
}

/**
 * The handler `mcp call` gives the manager: prompts on a terminal (stdin and stderr both TTYs), one
 * question at a time, on `prompt`; declines with a line on `stderr` otherwise.
 */
export function callElicitationHandler(io: {
  stdin: Readable & { isTTY?: boolean };
  stderr: { write(text: string): void; isTTY: boolean };
  prompt: Writable;
}): CallElicitationHandler {
  const interactive = io.stdin.isTTY === true && io.stderr.isTTY;
  let queue: Promise<unknown> = Promise.resolve();
  return (elicitation) => {
    if (!interactive) return Promise.resolve(declineWithoutTerminal(elicitation, io.stderr));
    const answer = queue.then(() => promptElicitation(elicitation, { input: io.stdin, output: io.prompt, terminal: true }));
    queue = answer.catch(() => {});
    return answer;
  };
}

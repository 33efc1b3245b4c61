// Arguments of `codex` and `codex-reply`, parsed the way Codex's serde structs did: unknown keys are
// ignored, and errors read like serde's ("missing field `prompt`", "unknown variant `x`, ...").
import { APPROVAL_POLICIES, SANDBOX_MODES } from './tool-definitions.js';

export type ApprovalPolicyArg = (typeof APPROVAL_POLICIES)[number];
export type SandboxArg = (typeof SANDBOX_MODES)[number];

export interface CodexArgs {
  prompt: string;
  model?: string;
  profile?: string;
  cwd?: string;
  approvalPolicy?: ApprovalPolicyArg;
  sandbox?: SandboxArg;
  config?: Record<string, unknown>;
  baseInstructions?: string;
  developerInstructions?: string;
  compactPrompt?: string;
}

export interface ReplyArgs {
  prompt: string;
  /** threadId, else the deprecated conversationId; null when neither was given. */
  threadId: string | null;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'sequence';
  switch (typeof value) {
    case 'boolean':
      return `boolean \`${value}\``;
    case 'number':
      return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
    case 'string':
      return `string ${JSON.stringify(value)}`;
    case 'object':
      return 'map';
    default:
      return typeof value;
  }
}

class ArgError extends Error {}

function str(args: Record<string, unknown>, key: string, required: true): string;
function str(args: Record<string, unknown>, key: string, required?: false): string | undefined;
function str(args: Record<string, unknown>, key: string, required = false): string | undefined {
  const v = args[key];
  if (v === undefined) {
    if (required) throw new ArgError(`missing field \`${key}\``);
    return undefined;
  }
  if (typeof v !== 'string') throw new ArgError(`invalid type: ${describe(v)}, expected a string`);
  return v;
}

function variant<T extends string>(args: Record<string, unknown>, key: string, allowed: readonly T[]): T | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new ArgError(`invalid type: ${describe(v)}, expected a string`);
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ArgError(`unknown variant \`${v}\`, expected one of ${allowed.map((a) => `\`${a}\``).join(', ')}`);
  }
  return v as T;
}

function parse<T>(args: unknown, build: (a: Record<string, unknown>) => T): Parsed<T> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, message: `invalid type: ${describe(args)}, expected a map` };
  }
  try {
    return { ok: true, value: build(args as Record<string, unknown>) };
  } catch (err) {
    if (err instanceof ArgError) return { ok: false, message: err.message };
    throw err;
  }
}

export function parseCodexArgs(args: unknown): Parsed<CodexArgs> {
  return parse(args, (a) => {
    const config = a.config;
    if (config !== undefined && (typeof config !== 'object' || config === null || Array.isArray(config))) {
      throw new ArgError(`invalid type: ${describe(config)}, expected a map`);
    }
    const out: CodexArgs = { prompt: str(a, 'prompt', true) };
    const set = <K extends keyof CodexArgs>(key: K, value: CodexArgs[K] | undefined) => {
      if (value !== undefined) out[key] = value;
    };
    set('model', str(a, 'model'));
    set('profile', str(a, 'profile'));
    set('cwd', str(a, 'cwd'));
    set('approvalPolicy', variant(a, 'approval-policy', APPROVAL_POLICIES));
    set('sandbox', variant(a, 'sandbox', SANDBOX_MODES));
    set('config', config as Record<string, unknown> | undefined);
    set('baseInstructions', str(a, 'base-instructions'));
    set('developerInstructions', str(a, 'developer-instructions'));
    set('compactPrompt', str(a, 'compact-prompt'));
    return out;
  });
}

export function parseReplyArgs(args: unknown): Parsed<ReplyArgs> {
  return parse(args, (a) => {
    const prompt = str(a, 'prompt', true);
    const threadId = str(a, 'threadId');
    const conversationId = str(a, 'conversationId');
    return { prompt, threadId: threadId ?? conversationId ?? null };
  });
}

const HEX = /^[0-9a-fA-F]$/;

/**
 * A thread id must be a UUID (hyphenated, or 32 hex digits); returns it in canonical lower-case
 * hyphenated form. Messages follow the Rust uuid crate's wording.
 */
export function parseThreadId(text: string): Parsed<string> {
  const body = text.startsWith('urn:uuid:') ? text.slice('urn:uuid:'.length) : text;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (!HEX.test(ch) && ch !== '-') {
      return { ok: false, message: `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${ch}\` at ${i + 1}` };
    }
  }
  let hex: string;
  if (body.includes('-')) {
    const groups = body.split('-');
    if (groups.length !== 5) return { ok: false, message: `invalid group count: expected 5, found ${groups.length}` };
    const lengths = [8, 4, 4, 4, 12];
    for (let g = 0; g < 5; g++) {
      if (groups[g]!.length !== lengths[g]) {
        return { ok: false, message: `invalid group length in group ${g}: expected ${lengths[g]}, found ${groups[g]!.length}` };
      }
    }
    hex = groups.join('');
  } else {
    if (body.length !== 32) return { ok: false, message: `invalid length: expected length 32 for simple format, found ${body.length}` };
    hex = body;
  }
  hex = hex.toLowerCase();
  return { ok: true, value: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` };
}

// Counting what tool schemas cost a model: a real BPE tokenizer (gpt-tokenizer) for OpenAI models, a
// bytes/4 estimate for others, and the context window of known models. The tokenizer's tables are
// megabytes of JavaScript, so they load on first use only, never at start-up; and gpt-tokenizer is an
// optional peer dependency (30 MB installed): without it every count is the estimate and no window is known.
import { importOptional, isMissingPackage } from '../../util/index.js';

const TOKENIZER = 'gpt-tokenizer';

export interface TokenCount {
  tokens: number;
  /** True when counted with the model's own tokenizer; false for the bytes/4 estimate. */
  exact: boolean;
}

interface ModelSpec {
  context_window?: number;
}

type Encoding = 'o200k_base' | 'cl100k_base';
type Counter = (text: string) => number;

// No cache of our own: Node keeps an imported module, so a second import() costs a microtask.
/** gpt-tokenizer's table of OpenAI models; empty when it is not installed (no model is then known). */
async function models(): Promise<Record<string, ModelSpec>> {
  try {
    return (await import('gpt-tokenizer/models')) as unknown as Record<string, ModelSpec>;
  } catch (err) {
    if (isMissingPackage(err, [TOKENIZER])) return {};
    throw err;
  }
}

async function counter(encoding: Encoding): Promise<Counter> {
  const m = await importOptional('Counting tokens', [TOKENIZER], () =>
    encoding === 'cl100k_base' ? import('gpt-tokenizer/encoding/cl100k_base') : import('gpt-tokenizer/encoding/o200k_base'),
  );
  return (text: string) => m.countTokens(text);
}

/** The table's key for a model name (`gpt-oss:20b` → `gpt-oss-20b`, `gpt-5-codex-2025-09-15` → `gpt-5-codex`), or null. */
async function knownModel(model: string): Promise<string | null> {
  const table = await models();
  const name = model.toLowerCase().replace(/:/g, '-');
  if (Object.hasOwn(table, name)) return name;
  let best: string | null = null;
  for (const key of Object.keys(table)) {
    if (name.startsWith(`${key}-`) && (best === null || key.length > best.length)) best = key;
  }
  return best;
}

/** The context window (tokens) of a known OpenAI model, else null. */
export async function knownContextWindow(model: string): Promise<number | null> {
  const key = await knownModel(model);
  const spec = key === null ? undefined : (await models())[key];
  return typeof spec?.context_window === 'number' ? spec.context_window : null;
}

/** `gpt-3.5*` and `gpt-4` (not 4o / 4.1 / 4.5) use cl100k_base; newer OpenAI models o200k_base. */
function encodingFor(key: string): Encoding {
  return /^gpt-(3\.5|4)(-|$)/.test(key) && !/^gpt-4(o|\.)/.test(key) ? 'cl100k_base' : 'o200k_base';
}

/** A bytes/4 estimate, for models whose tokenizer is unknown. */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / 4);
}

/** Tokens of `text` for `model`: exact for a known OpenAI model, else estimated. */
export async function countTokens(text: string, model: string): Promise<TokenCount> {
  const key = await knownModel(model);
  if (key === null) return { tokens: estimateTokens(text), exact: false };
  return { tokens: (await counter(encodingFor(key)))(text), exact: true };
}

/** Tokens with OpenAI's current encoding (o200k_base), for figures that name no model. */
export async function countOpenAITokens(text: string): Promise<number> {
  return (await counter('o200k_base'))(text);
}

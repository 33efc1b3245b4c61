// When tool search turns on: `on` always, `off` never, `auto` when the MCP tools' schemas would take
// more than a tenth of the model's context window.
import type { ToolSearchModeValue } from '../../protocol/index.js';
import { countTokens, knownContextWindow, type TokenCount } from './token-count.js';

export type ToolSearchMode = ToolSearchModeValue;

/** `auto` defers tools once their schemas exceed this share of the context window. */
export const AUTO_SHARE = 0.1;
/** The window assumed for a model whose window is neither configured nor known. */
export const ASSUMED_CONTEXT_WINDOW = 128_000;

export interface AutoDecision {
  on: boolean;
  /** Tokens of the MCP tool schemas (absent when the byte count alone decided). */
  schemaTokens?: TokenCount;
  contextWindow: number;
  /** Where the window came from. */
  windowSource: 'configured' | 'known' | 'assumed';
}

/**
 * Decide for one request. `schemasJson` is the MCP tools as the model would get them. Since a BPE
 * token is at least one byte, a text of fewer bytes than the threshold is under it without counting.
 */
export async function decideToolSearch(mode: ToolSearchMode, schemasJson: string, model: string, configuredWindow: number | null): Promise<AutoDecision> {
  const known = configuredWindow === null && mode === 'auto' ? await knownContextWindow(model) : null;
  const contextWindow = configuredWindow ?? known ?? ASSUMED_CONTEXT_WINDOW;
  const windowSource = configuredWindow !== null ? 'configured' : known !== null ? 'known' : 'assumed';
  if (mode !== 'auto') return { on: mode === 'on', contextWindow, windowSource };
  const threshold = contextWindow * AUTO_SHARE;
  if (Buffer.byteLength(schemasJson) <= threshold) return { on: false, contextWindow, windowSource };
  const schemaTokens = await countTokens(schemasJson, model);
  return { on: schemaTokens.tokens > threshold, schemaTokens, contextWindow, windowSource };
}

// The lint rule that keeps the manager the only road to an upstream: a product importing what hands
// out a raw client is an error; the manager, the client layer and the library face may.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const LINT = pathToFileURL(path.join(REPO, 'eslint', 'layer-imports.js')).href;
const PROBE = "import { createMcpClient } from '../mcp-client/index.js';\nimport type { McpClient } from '../mcp-client/index.js';\nexport type Held = McpClient;\nexport const make = createMcpClient;\n";

async function rawClientErrors(layer: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO });
  const [result] = await eslint.lintText(PROBE, { filePath: path.join(REPO, 'src', layer, 'probe.ts') });
  return result!.messages.filter((m) => m.ruleId === 'switchboard/layer-imports').map((m) => m.message);
}

describe('the raw-client lint rule', () => {
  it.each(['gateway', 'agent-server', 'core', 'cli', 'mcp-host'])('refuses %s a raw upstream client', async (layer) => {
    const errors = await rawClientErrors(layer);
    const { LAYER_TABLE } = (await import(LINT)) as { LAYER_TABLE: Record<string, string[]> };
    if (!LAYER_TABLE[layer]!.includes('mcp-client')) {
      // A layer that may not import mcp-client at all: the layer table refuses it first.
      expect(errors.some((e) => e.includes("may not import layer 'mcp-client'"))).toBe(true);
      return;
    }
    expect(errors).toEqual([
      expect.stringContaining(`layer '${layer}' may not hold a raw upstream client ('createMcpClient')`),
      expect.stringContaining(`layer '${layer}' may not hold a raw upstream client ('McpClient')`),
    ]);
  }, 60_000);

  it('lets the manager hold one', async () => {
    expect(await rawClientErrors('mcp')).toEqual([]);
  }, 60_000);
});

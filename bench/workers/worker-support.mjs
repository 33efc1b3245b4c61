// What the bench workers share: where the built CLI and the tiny upstream are, a connected SDK
// client, and the percentile every figure is read with.
import path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '..', '..');
export const NODE = process.execPath;
export const BIN = path.join(REPO, 'bin', 'switchboard.js');
export const TINY = path.join(REPO, 'bench', 'fixtures', 'tiny-server.mjs');

/** The value at `p` percent of the sorted `values` (nearest rank, no interpolation). */
export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** An SDK client named `name`, connected on `transport`. */
export async function connectClient(name, transport) {
  // The SDK from node_modules on first use: a process measuring switchboard alone loads none of it.
  const { Client } = await import('@modelcontextprotocol/client');
  const c = new Client({ name, version: '1.0.0' });
  await c.connect(transport);
  return c;
}

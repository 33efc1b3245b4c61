import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { IDLE_RELEASE_MS } from '../mcp-host/http/index.js';
import type { CliContext } from './context.js';
import { UsageError } from './exit-codes.js';
import { nonNegativeInt } from './flag-values.js';
import { addHttpServeOptions, httpServeOptions } from './http-serving.js';

// httpServeOptions reads only the token's sources from the context here (no --token-file).
const ctx = { cwd: process.cwd(), env: {}, stderr: { write: () => true } } as unknown as CliContext;
const flags = { http: '127.0.0.1:0', insecureNoAuth: true, allowedHost: [] };

describe('--release-memory-after', () => {
  it('defaults to the host quiet for a minute, takes seconds, and 0 turns it off', async () => {
    expect(IDLE_RELEASE_MS).toBe(60_000);
    expect((await httpServeOptions(ctx, flags))?.releaseIdleMemoryAfterMs).toBe(IDLE_RELEASE_MS);
    expect((await httpServeOptions(ctx, { ...flags, releaseMemoryAfter: 5 }))?.releaseIdleMemoryAfterMs).toBe(5_000);
    expect((await httpServeOptions(ctx, { ...flags, releaseMemoryAfter: 0 }))?.releaseIdleMemoryAfterMs).toBe(0);
    // The help text repeats the default (mcp-host loads only when serving): it must say the same.
    expect(addHttpServeOptions(new Command('serve')).helpInformation()).toContain(`(default ${IDLE_RELEASE_MS / 1000}; 0: never)`);
  });

  it('accepts 0 or a whole number of seconds and refuses anything else as a usage error', () => {
    const parse = nonNegativeInt('--release-memory-after');
    expect(parse('0')).toBe(0);
    expect(parse('90')).toBe(90);
    for (const bad of ['-1', '1.5', '', ' ', 'soon']) {
      expect(() => parse(bad)).toThrow(UsageError);
      expect(() => parse(bad)).toThrow(/--release-memory-after must be 0 or a positive integer/);
    }
  });
});

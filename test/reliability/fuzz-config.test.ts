// Config fuzzing: seeded random config.toml files — structured documents along Codex's schema, mutations
// of them, raw bytes — and random `-c` overrides, through the real loader. Every case ends in a loaded
// config or a ConfigError (never another exception), quickly.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseOverride, type ConfigOverride } from '../../src/config/index.js';
import { configTable, mutatedDocument, overrideArg, rawBytes, toToml } from '../fuzz/config-documents.js';
import { fullRun, sliceTitle } from '../support/long-runs.js';
import { tempDir, removeTree } from '../support/temp.js';

export const CONFIG_FUZZ = { seed: 4_242, runsPerKind: 2_500, slowCaseMs: 1_000 } as const;

let home: string;
let file: string;
beforeAll(async () => {
  home = await tempDir('sb-fuzz-config-');
  file = path.join(home, 'config.toml');
});
afterAll(() => removeTree(home));

const outcomes = { loaded: 0, configError: 0 };
let slowest = 0;

/** Loads `content` with `overrides`; fails the property on anything but success or a ConfigError. */
async function load(content: string | Uint8Array, overrides: ConfigOverride[] = []): Promise<void> {
  await writeFile(file, content);
  const started = performance.now();
  try {
    const { config } = await loadConfig({ home, file, overrides });
    expect(Object.isFrozen(config)).toBe(true);
    outcomes.loaded++;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw new Error(`loadConfig threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)} for:\n${String(content).slice(0, 2_000)}`, { cause: err });
    expect(err.message.length).toBeGreaterThan(0);
    outcomes.configError++;
  } finally {
    const ms = performance.now() - started;
    slowest = Math.max(slowest, ms);
    expect(ms).toBeLessThan(CONFIG_FUZZ.slowCaseMs);
  }
}

const options = (offset: number) => ({ seed: CONFIG_FUZZ.seed + offset, numRuns: CONFIG_FUZZ.runsPerKind, endOnFailure: true });

const kinds = fullRun ? 4 : 2;

describe(sliceTitle('config fuzzing', kinds, 4), { timeout: 180_000 }, () => {
  // `npm test` takes the mutated documents and the -c overrides; the whole run adds these two.
  if (fullRun) {
    it(`structured documents along the schema (${CONFIG_FUZZ.runsPerKind} cases)`, async () => {
      await fc.assert(fc.asyncProperty(configTable, (table) => load(toToml(table))), options(0));
    });
  }

  it(`mutated documents (${CONFIG_FUZZ.runsPerKind} cases)`, async () => {
    await fc.assert(fc.asyncProperty(mutatedDocument, (text) => load(text)), options(1));
  });

  if (fullRun) {
    it(`raw bytes (${CONFIG_FUZZ.runsPerKind} cases)`, async () => {
      await fc.assert(fc.asyncProperty(rawBytes, (bytes) => load(bytes)), options(2));
    });
  }

  it(`-c overrides on structured documents (${CONFIG_FUZZ.runsPerKind} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(configTable, fc.array(overrideArg, { maxLength: 3 }), async (table, args) => {
        const overrides: ConfigOverride[] = [];
        for (const arg of args) {
          try {
            overrides.push(parseOverride(arg));
          } catch (err) {
            if (!(err instanceof ConfigError)) throw err;
          }
        }
        await load(toToml(table), overrides);
      }),
      options(3),
    );
    console.log(`config fuzzing: ${outcomes.loaded + outcomes.configError} cases, ${outcomes.loaded} loaded, ${outcomes.configError} ConfigErrors; slowest case ${slowest.toFixed(1)} ms`);
    expect(outcomes.loaded + outcomes.configError).toBeGreaterThanOrEqual(kinds * CONFIG_FUZZ.runsPerKind);
  });
});

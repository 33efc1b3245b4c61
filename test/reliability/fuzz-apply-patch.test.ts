// apply_patch fuzzing: seeded patches built from the grammar (paths inside and outside the workspace,
// through a symlink, into .git; context from the real files or invented) and line-level mutations of
// them, through the apply_patch tool under workspace-write / never. Never an exception: always a result;
// a rejected patch leaves every file as it was; nothing outside the workspace (or in .git) ever changes.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxPolicy } from '../../src/protocol/index.js';
import { createApplyPatchTool } from '../../src/core/index.js';
import { fullRun, sliceTitle } from '../support/long-runs.js';
import { RecordingContext } from '../support/recording-context.js';
import { tempDir, removeTree } from '../support/temp.js';
import { grammarPatch, LINKS, mutatedPatch, WORKSPACE } from '../fuzz/patches.js';

export const PATCH_FUZZ = { seed: 7_331, runsPerKind: 5_000, slowCaseMs: 2_000 } as const;

const policy: SandboxPolicy = { type: 'workspace-write', writable_roots: [], network_access: false, exclude_tmpdir_env_var: true, exclude_slash_tmp: true };
const tool = createApplyPatchTool();
let root: string;

async function reset(): Promise<void> {
  await rm(path.join(root, 'work'), { recursive: true, force: true });
  await rm(path.join(root, 'outside'), { recursive: true, force: true });
  for (const [rel, content] of Object.entries(WORKSPACE)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), content);
  }
  for (const [rel, target] of Object.entries(LINKS)) await symlink(target, path.join(root, rel));
}

/** Every entry under the root: files with mode and bytes, folders, symlinks with their targets (sync: thousands of calls). */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const abs = path.join(dir, name);
      const rel = path.relative(root, abs);
      const info = lstatSync(abs);
      if (info.isSymbolicLink()) out[rel] = `symlink -> ${readlinkSync(abs)}`;
      else if (info.isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(abs);
      } else out[rel] = `${(info.mode & 0o777).toString(8)} ${readFileSync(abs, 'latin1')}`;
    }
  };
  walk(root);
  return out;
}

const protectedPart = (s: Record<string, string>) => Object.fromEntries(Object.entries(s).filter(([k]) => k.startsWith('outside') || k.startsWith('work/.git') || k === 'work/link'));

let initial: Record<string, string>;
const stats = { applied: 0, rejected: 0, slowest: 0, runMs: 0, snapMs: 0 };

beforeAll(async () => {
  root = await tempDir('sb-fuzz-patch-');
  await reset();
  initial = snapshot();
});
afterAll(() => removeTree(root));

async function check(patch: string): Promise<void> {
  const ctx = new RecordingContext({ cwd: path.join(root, 'work'), approvalPolicy: 'never', sandboxPolicy: policy });
  const started = performance.now();
  // The slow-case bound is on the CPU the case takes (a pathological patch burns CPU), not on wall
  // time, which a loaded machine stretches for every case alike.
  const cpuStarted = process.cpuUsage();
  let result: Awaited<ReturnType<typeof tool.run>>;
  try {
    result = await tool.run({ input: patch }, ctx);
  } catch (err) {
    throw new Error(`apply_patch threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)} for:\n${JSON.stringify(patch)}`, { cause: err });
  }
  const ms = performance.now() - started;
  stats.runMs += ms;
  stats.slowest = Math.max(stats.slowest, ms);
  const cpu = process.cpuUsage(cpuStarted);
  expect((cpu.user + cpu.system) / 1000, `CPU ms of a case (wall ${Math.round(ms)} ms)`).toBeLessThan(PATCH_FUZZ.slowCaseMs);
  expect(typeof result.output).toBe('string');
  const t1 = performance.now();
  const after = snapshot();
  stats.snapMs += performance.now() - t1;
  if (!result.success) {
    stats.rejected++;
    expect(result.output.length).toBeGreaterThan(0);
    if (JSON.stringify(after) !== JSON.stringify(initial)) throw new Error(`a rejected patch changed files (${result.output}):\n${JSON.stringify(patch)}`);
  } else {
    stats.applied++;
    expect(protectedPart(after)).toEqual(protectedPart(initial));
    await reset();
  }
  // Begin and end events pair up, and end tells the truth.
  const begins = ctx.of('patch_apply_begin');
  const ends = ctx.of('patch_apply_end');
  expect(ends.length).toBe(begins.length);
  if (ends[0]) expect(ends[0].success).toBe(result.success);
}

// `npm test` takes the mutations (of grammar-built patches); the whole run adds the patches themselves.
const kinds = fullRun ? 2 : 1;

describe(sliceTitle('apply_patch fuzzing', kinds, 2), { timeout: 240_000 }, () => {
  if (fullRun) {
    it(`grammar-built patches (${PATCH_FUZZ.runsPerKind} cases)`, async () => {
      await fc.assert(fc.asyncProperty(grammarPatch(path.join(root, 'outside')), check), { seed: PATCH_FUZZ.seed, numRuns: PATCH_FUZZ.runsPerKind, endOnFailure: true });
    });
  }

  it(`mutations of grammar-built patches (${PATCH_FUZZ.runsPerKind} cases)`, async () => {
    await fc.assert(fc.asyncProperty(mutatedPatch(path.join(root, 'outside')), check), { seed: PATCH_FUZZ.seed + 1, numRuns: PATCH_FUZZ.runsPerKind, endOnFailure: true });
    console.log(`apply_patch fuzzing: ${stats.applied + stats.rejected} cases, ${stats.applied} applied, ${stats.rejected} rejected cleanly; slowest case ${stats.slowest.toFixed(1)} ms; ${(stats.runMs / 1000).toFixed(1)} s in apply_patch, ${(stats.snapMs / 1000).toFixed(1)} s comparing files`);
    expect(stats.applied + stats.rejected).toBe(kinds * PATCH_FUZZ.runsPerKind);
    expect(stats.applied).toBeGreaterThan(100);
  });
});

// apply_patch grammar cases from test/fixtures/apply-patch/<case>/: each case has input/, patch.txt
// and either expected/ (the whole tree afterwards) or expected-error.txt (the tree must not change).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApplyPatchTool } from '../../src/core/index.js';
import { RecordingContext } from '../support/recording-context.js';
import { copyTree, readTree, removeAll, tempDir } from '../support/temp.js';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/apply-patch');
const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

describe('apply_patch fixtures', () => {
  it('has the named grammar cases', () => {
    for (const name of ['add-file', 'delete-file', 'update-file', 'move-file', 'multiple-hunks', 'end-of-file', 'bad-context', 'partial-failure-across-files']) {
      expect(cases).toContain(name);
    }
  });

  it.each(cases)('%s', async (name) => {
    const fixture = path.join(FIXTURES, name);
    const cwd = await tempDir();
    dirs.push(cwd);
    await copyTree(path.join(fixture, 'input'), cwd);
    const before = await readTree(cwd);
    const ctx = new RecordingContext({
      cwd,
      approvalPolicy: 'never',
      sandboxPolicy: { type: 'workspace-write', writable_roots: [], network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false },
    });
    const patch = readFileSync(path.join(fixture, 'patch.txt'), 'utf8');
    const result = await createApplyPatchTool().run({ input: patch }, ctx);

    const expectedDir = path.join(fixture, 'expected');
    if (existsSync(expectedDir)) {
      expect(result.output).toMatch(/^Success\. Updated the following files:\n/);
      expect(result.success).toBe(true);
      expect(await readTree(cwd)).toEqual(await readTree(expectedDir));
      const end = ctx.of('patch_apply_end');
      expect(end).toHaveLength(1);
      expect(end[0]!.success).toBe(true);
    } else {
      const expectedError = readFileSync(path.join(fixture, 'expected-error.txt'), 'utf8').replaceAll('{cwd}', cwd);
      expect(result.success).toBe(false);
      expect(result.output).toContain(expectedError);
      expect(String(result.output).startsWith('apply_patch verification failed: ')).toBe(true);
      // All or nothing: not a single byte changed, and nothing was announced as applied.
      expect(await readTree(cwd)).toEqual(before);
      expect(ctx.of('patch_apply_begin')).toHaveLength(0);
    }
  });
});

// apply_patch beyond the grammar: approval for paths outside the writable roots under each policy,
// approved_for_session, abort, the events, rollback when a write fails mid-way, and the shell route.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AskForApproval, SandboxPolicy } from '../../src/protocol/index.js';
import { BwrapSandbox, createApplyPatchTool, createShellTool } from '../../src/core/index.js';
import { isSwitchboardError } from '../../src/util/index.js';
import { RecordingContext, type Answer } from '../support/recording-context.js';
import { readTree, removeAll, workAndOutside } from '../support/temp.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

const workspaceWrite: SandboxPolicy = {
  type: 'workspace-write',
  writable_roots: [],
  network_access: false,
  exclude_tmpdir_env_var: true,
  exclude_slash_tmp: true,
};

async function setup(approvalPolicy: AskForApproval, answer?: Answer, sandboxPolicy: SandboxPolicy = workspaceWrite) {
  const { root, cwd, outside } = await workAndOutside(dirs);
  await writeFile(path.join(cwd, 'inside.txt'), 'old\n');
  await writeFile(path.join(outside, 'notes.txt'), 'old\n');
  const ctx = new RecordingContext({ cwd, approvalPolicy, sandboxPolicy, answer });
  return { root, cwd, outside, ctx, tool: createApplyPatchTool() };
}

const update = (p: string) => `*** Begin Patch\n*** Update File: ${p}\n@@\n-old\n+new\n*** End Patch\n`;

describe('apply_patch approvals', () => {
  it('applies inside the workspace without asking under on-request, with begin/end events', async () => {
    const { cwd, ctx, tool } = await setup('on-request');
    const result = await tool.run({ input: update('inside.txt') }, ctx);
    expect(result).toEqual({ output: 'Success. Updated the following files:\nM inside.txt\n', success: true });
    expect(await readFile(path.join(cwd, 'inside.txt'), 'utf8')).toBe('new\n');
    expect(ctx.approvals).toHaveLength(0);
    const [begin] = ctx.of('patch_apply_begin');
    expect(begin).toMatchObject({ call_id: 'call-1', turn_id: 'turn-1', auto_approved: true });
    expect(begin!.changes).toEqual({
      [path.join(cwd, 'inside.txt')]: { type: 'update', unified_diff: '@@ -1 +1 @@\n-old\n+new\n', move_path: null },
    });
    expect(ctx.of('patch_apply_end')).toEqual([
      { type: 'patch_apply_end', call_id: 'call-1', turn_id: 'turn-1', stdout: result.output, stderr: '', success: true },
    ]);
  });

  it('asks for a path outside the writable roots, with changes, reason and grant_root; approved applies', async () => {
    const { outside, ctx, tool } = await setup('on-request', () => 'approved');
    const target = path.join(outside, 'notes.txt');
    const result = await tool.run({ input: update(target) }, ctx);
    expect(result.success).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('new\n');
    const [request] = ctx.of('apply_patch_approval_request');
    expect(request!.changes).toHaveProperty([target]);
    expect(request!.reason).toContain(target);
    expect(request!.grant_root).toBe(outside);
    expect(ctx.of('patch_apply_begin')[0]!.auto_approved).toBe(false);
  });

  it('a relative path climbing out of cwd (../) is outside too', async () => {
    const { outside, ctx, tool } = await setup('on-failure', () => 'denied');
    const result = await tool.run({ input: update('../outside/notes.txt') }, ctx);
    expect(result).toEqual({ output: 'patch rejected by user', success: false });
    expect(await readFile(path.join(outside, 'notes.txt'), 'utf8')).toBe('old\n');
    expect(ctx.approvals).toHaveLength(1);
    expect(ctx.of('patch_apply_begin')).toHaveLength(0);
  });

  it('never: outside the roots is refused without asking', async () => {
    const { outside, ctx, tool } = await setup('never');
    const result = await tool.run({ input: update(path.join(outside, 'notes.txt')) }, ctx);
    expect(result).toEqual({ output: 'writing outside of the project; rejected by user approval settings', success: false });
    expect(ctx.approvals).toHaveLength(0);
    expect(await readFile(path.join(outside, 'notes.txt'), 'utf8')).toBe('old\n');
  });

  it('untrusted: asks even inside the workspace', async () => {
    const { cwd, ctx, tool } = await setup('untrusted', () => 'approved');
    expect((await tool.run({ input: update('inside.txt') }, ctx)).success).toBe(true);
    expect(ctx.approvals).toHaveLength(1);
    expect(ctx.approvals[0]).toMatchObject({ kind: 'patch', reason: null, grantRoot: null });
    expect(await readFile(path.join(cwd, 'inside.txt'), 'utf8')).toBe('new\n');
  });

  it('read-only sandbox: every write needs approval', async () => {
    const { ctx, tool } = await setup('on-request', () => 'denied', { type: 'read-only' });
    expect((await tool.run({ input: update('inside.txt') }, ctx)).output).toBe('patch rejected by user');
    expect(ctx.approvals).toHaveLength(1);
  });

  it('danger-full-access: anywhere applies without asking', async () => {
    const { outside, ctx, tool } = await setup('on-request', undefined, { type: 'danger-full-access' });
    expect((await tool.run({ input: update(path.join(outside, 'notes.txt')) }, ctx)).success).toBe(true);
  });

  it('.git inside the workspace stays protected', async () => {
    const { cwd, ctx, tool } = await setup('never');
    await mkdir(path.join(cwd, '.git'));
    const result = await tool.run({ input: '*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+evil\n*** End Patch\n' }, ctx);
    expect(result.success).toBe(false);
    expect(existsSync(path.join(cwd, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('approved_for_session: a second patch under the same root is not asked again', async () => {
    const { outside, ctx, tool } = await setup('on-request', () => 'approved_for_session');
    await writeFile(path.join(outside, 'second.txt'), 'old\n');
    expect((await tool.run({ input: update(path.join(outside, 'notes.txt')) }, ctx)).success).toBe(true);
    ctx.answer = () => {
      throw new Error('asked twice');
    };
    expect((await tool.run({ input: update(path.join(outside, 'second.txt')) }, ctx.nextCall())).success).toBe(true);
    expect(ctx.approvals).toHaveLength(1);
    expect(await readFile(path.join(outside, 'second.txt'), 'utf8')).toBe('new\n');
  });

  it('abort: the turn_aborted error propagates and nothing changes', async () => {
    const { outside, ctx, tool } = await setup('on-request', () => 'abort');
    const err = await tool.run({ input: update(path.join(outside, 'notes.txt')) }, ctx).catch((e: unknown) => e);
    expect(isSwitchboardError(err, 'turn_aborted')).toBe(true);
    expect(await readFile(path.join(outside, 'notes.txt'), 'utf8')).toBe('old\n');
  });
});

describe('apply_patch commit', () => {
  it('rolls back earlier writes when a later write fails, and says so', async () => {
    const { cwd, ctx, tool } = await setup('never');
    await writeFile(path.join(cwd, 'blocker'), 'a file where a folder is needed\n');
    const before = await readTree(cwd);
    const patch =
      '*** Begin Patch\n*** Add File: created.txt\n+x\n*** Update File: inside.txt\n@@\n-old\n+new\n' +
      '*** Add File: blocker/child.txt\n+y\n*** End Patch\n';
    const result = await tool.run({ input: patch }, ctx);
    expect(result.success).toBe(false);
    expect(result.output).toContain(`Failed to create parent directories for ${path.join(cwd, 'blocker/child.txt')}`);
    expect(result.output).toContain('No files were changed.');
    expect(await readTree(cwd)).toEqual(before);
    expect(ctx.of('patch_apply_end')[0]).toMatchObject({ success: false });
  });

  it('keeps the mode of an updated file', async () => {
    const { cwd, ctx, tool } = await setup('never');
    const script = path.join(cwd, 'run.sh');
    await writeFile(script, 'old\n', { mode: 0o755 });
    await tool.run({ input: update('run.sh') }, ctx);
    const { statSync } = await import('node:fs');
    expect(statSync(script).mode & 0o777).toBe(0o755);
  });

  it('rejects malformed arguments as a result the model can fix', async () => {
    const { ctx, tool } = await setup('never');
    const result = await tool.run({ patch: 'x' }, ctx);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^failed to parse function arguments/);
  });
});

describe('apply_patch through the shell tool', () => {
  const shell = createShellTool({ sandbox: new BwrapSandbox() });

  it('runs `bash -lc "apply_patch <<\'EOF\' ..."` as a patch, with patch events', async () => {
    const { cwd, ctx } = await setup('never');
    const script = `apply_patch <<'EOF'\n${update('inside.txt')}EOF\n`;
    const result = await shell.run({ command: ['bash', '-lc', script] }, ctx);
    expect(result.success).toBe(true);
    expect(await readFile(path.join(cwd, 'inside.txt'), 'utf8')).toBe('new\n');
    expect(ctx.of('patch_apply_end')).toHaveLength(1);
    expect(ctx.of('exec_command_begin')).toHaveLength(0);
  });

  it('honours `cd DIR && apply_patch <<EOF` and the direct ["apply_patch", PATCH] form', async () => {
    const { cwd, ctx } = await setup('never');
    await mkdir(path.join(cwd, 'sub'));
    await writeFile(path.join(cwd, 'sub/f.txt'), 'old\n');
    const script = `cd sub && apply_patch <<EOF\n${update('f.txt')}EOF`;
    expect((await shell.run({ command: ['bash', '-lc', script] }, ctx)).success).toBe(true);
    expect(await readFile(path.join(cwd, 'sub/f.txt'), 'utf8')).toBe('new\n');
    expect((await shell.run({ command: ['apply_patch', update('inside.txt')] }, ctx.nextCall())).success).toBe(true);
    expect(await readFile(path.join(cwd, 'inside.txt'), 'utf8')).toBe('new\n');
  });

  it('a bare patch body as the command is refused with a hint', async () => {
    const { ctx } = await setup('never');
    const result = await shell.run({ command: [update('inside.txt')] }, ctx);
    expect(result).toEqual({ output: 'patch detected without explicit call to apply_patch. Rerun as ["apply_patch", "<patch>"]', success: false });
  });
});

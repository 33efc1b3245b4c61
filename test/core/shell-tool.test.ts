// The shell tool driven through a real ToolContext: each approval policy with a safe and an unsafe
// command, approved_for_session, denial, abort, interrupt, events, output capping and timeouts.
// Commands really run, under bubblewrap where the policy confines them (those tests are skipped,
// saying so, where bubblewrap is missing). Most use `bash -c`: a login shell (`-lc`) reads the
// machine's profile, whose noise would blur exact output checks.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AskForApproval, SandboxPolicy } from '../../src/protocol/index.js';
import { BwrapSandbox, createShellTool } from '../../src/core/index.js';
import { isSwitchboardError } from '../../src/util/index.js';
import { RecordingContext, type Answer } from '../support/recording-context.js';
import { removeAll, workAndOutside } from '../support/temp.js';
import { waitFor } from '../support/wait.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));

const tool = createShellTool({ sandbox: new BwrapSandbox() });
// Only the workspace is writable: /tmp (where the test folders live) is excluded.
const policy: SandboxPolicy = {
  type: 'workspace-write',
  writable_roots: [],
  network_access: false,
  exclude_tmpdir_env_var: true,
  exclude_slash_tmp: true,
};

const SAFE = ['bash', '-lc', 'ls && cat existing.txt | wc -l'];
const unsafe = (outside: string) => ['bash', '-c', `echo made > ${outside}/made.txt`];

async function setup(approvalPolicy: AskForApproval, answer?: Answer, signal?: AbortSignal) {
  const { cwd, outside } = await workAndOutside(dirs);
  await writeFile(path.join(cwd, 'existing.txt'), 'one\ntwo\n');
  const ctx = new RecordingContext({ cwd, approvalPolicy, sandboxPolicy: policy, answer, signal });
  return { cwd, outside, ctx, made: path.join(outside, 'made.txt') };
}

const run = (ctx: RecordingContext, args: Record<string, unknown>) => tool.run({ timeout_ms: 60_000, ...args }, ctx);

describe('shell tool × approval policy', { timeout: 120_000 }, () => {
  for (const approvalPolicy of ['untrusted', 'on-request', 'on-failure', 'never'] as const) {
    it(`${approvalPolicy}: a known-safe command runs without asking`, { tags: ['bubblewrap'] }, async () => {
      const { ctx } = await setup(approvalPolicy);
      const result = await run(ctx, { command: SAFE });
      expect(result.success).toBe(true);
      expect(result.output).toContain('existing.txt');
      expect(ctx.approvals).toHaveLength(0);
    });
  }

  it('untrusted: an unsafe command is asked; approved runs it outside the sandbox', async () => {
    const { ctx, outside, made } = await setup('untrusted', () => 'approved');
    const result = await run(ctx, { command: unsafe(outside) });
    expect(ctx.approvals).toEqual([{ kind: 'exec', command: unsafe(outside), cwd: ctx.cwd, reason: null, parsedCmd: [{ type: 'unknown', cmd: `echo made > ${outside}/made.txt` }] }]);
    expect(ctx.of('exec_approval_request')).toHaveLength(1);
    expect(result.success).toBe(true);
    expect(existsSync(made)).toBe(true);
  });

  it('untrusted: denied is not run, and the model is told', async () => {
    const { ctx, outside, made } = await setup('untrusted', () => 'denied');
    const result = await run(ctx, { command: unsafe(outside) });
    expect(result).toEqual({ output: 'exec command rejected by user', success: false });
    expect(existsSync(made)).toBe(false);
    const [end] = ctx.of('exec_command_end');
    expect(end).toMatchObject({ status: 'declined', exit_code: -1, formatted_output: 'exec command rejected by user' });
  });

  it('on-request: an unsafe command runs sandboxed without asking, and its failure goes to the model', { tags: ['bubblewrap'] }, async () => {
    const { ctx, outside, made } = await setup('on-request');
    const result = await run(ctx, { command: unsafe(outside) });
    expect(ctx.approvals).toHaveLength(0);
    expect(result.success).toBe(false);
    expect(result.output).toContain('Read-only file system');
    expect(existsSync(made)).toBe(false);
  });

  it('on-request: escalation with a justification is asked; approved runs unconfined', async () => {
    const { ctx, outside, made } = await setup('on-request', () => 'approved');
    const result = await run(ctx, { command: unsafe(outside), with_escalated_permissions: true, justification: 'Write the report next to the project.' });
    expect(ctx.approvals).toHaveLength(1);
    expect(ctx.approvals[0]!.reason).toBe('Write the report next to the project.');
    expect(ctx.of('exec_approval_request')[0]!.reason).toBe('Write the report next to the project.');
    expect(result.success).toBe(true);
    expect(existsSync(made)).toBe(true);
  });

  it('on-failure: a sandbox failure is asked as a retry without sandbox; approved succeeds', { tags: ['bubblewrap'] }, async () => {
    const { ctx, outside, made } = await setup('on-failure', () => 'approved');
    const result = await run(ctx, { command: unsafe(outside) });
    expect(ctx.approvals).toHaveLength(1);
    expect(ctx.approvals[0]!.reason).toBe('command failed; retry without sandbox?');
    expect(result.success).toBe(true);
    expect(existsSync(made)).toBe(true);
    expect(ctx.of('exec_command_begin')).toHaveLength(1);
    expect(ctx.of('exec_command_end')).toHaveLength(1);
  });

  it('on-failure: a denied retry reports the sandboxed failure', { tags: ['bubblewrap'] }, async () => {
    const { ctx, outside, made } = await setup('on-failure', () => 'denied');
    const result = await run(ctx, { command: unsafe(outside) });
    expect(result.success).toBe(false);
    expect(result.output).toContain('Read-only file system');
    expect(existsSync(made)).toBe(false);
  });

  it('never: an unsafe command fails in the sandbox without asking', { tags: ['bubblewrap'] }, async () => {
    const { ctx, outside, made } = await setup('never');
    const result = await run(ctx, { command: unsafe(outside), with_escalated_permissions: true, justification: 'please' });
    expect(ctx.approvals).toHaveLength(0);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^Exit code: 1\n/);
    expect(existsSync(made)).toBe(false);
  });

  it('approved_for_session is remembered for the same command, not for another', async () => {
    const { ctx, outside, made } = await setup('untrusted', () => 'approved_for_session');
    expect((await run(ctx, { command: unsafe(outside) })).success).toBe(true);
    ctx.answer = () => 'denied';
    expect((await run(ctx.nextCall(), { command: unsafe(outside) })).success).toBe(true);
    expect(ctx.approvals).toHaveLength(1);
    expect(existsSync(made)).toBe(true);
    const other = await run(ctx.nextCall(), { command: ['bash', '-c', `echo other > ${outside}/other.txt`] });
    expect(other.output).toBe('exec command rejected by user');
    expect(ctx.approvals).toHaveLength(2);
  });

  it('abort: requestApproval rejects with turn_aborted, which propagates; the command never runs', async () => {
    const { ctx, outside, made } = await setup('untrusted', () => 'abort');
    const err = await run(ctx, { command: unsafe(outside) }).catch((e: unknown) => e);
    expect(isSwitchboardError(err, 'turn_aborted')).toBe(true);
    expect(existsSync(made)).toBe(false);
    expect(ctx.of('exec_command_end')[0]!.status).toBe('declined');
  });
});

describe('shell tool execution', { timeout: 120_000 }, () => {
  it('emits begin, base64 output deltas and end with Codex fields; the model gets exit code and wall time', { tags: ['bubblewrap'] }, async () => {
    const { ctx } = await setup('never');
    const result = await run(ctx, { command: ['bash', '-c', 'echo hello; echo oops >&2; exit 3'] });
    const [begin] = ctx.of('exec_command_begin');
    expect(begin).toEqual({
      type: 'exec_command_begin',
      call_id: 'call-1',
      turn_id: 'turn-1',
      command: ['bash', '-c', 'echo hello; echo oops >&2; exit 3'],
      cwd: ctx.cwd,
      parsed_cmd: [{ type: 'unknown', cmd: 'echo hello; echo oops >&2; exit 3' }],
      source: 'agent',
    });
    expect(ctx.streamed('stdout')).toBe('hello\n');
    expect(ctx.streamed('stderr')).toBe('oops\n');
    const [end] = ctx.of('exec_command_end');
    expect(end).toMatchObject({ call_id: 'call-1', stdout: 'hello\n', stderr: 'oops\n', exit_code: 3, status: 'failed' });
    expect(end!.aggregated_output).toContain('hello\n');
    expect(end!.formatted_output).toBe(end!.aggregated_output);
    expect(end!.duration.secs * 1000 + end!.duration.nanos / 1e6).toBeGreaterThan(0);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^Exit code: 3\nWall time: \d+(\.\d)? seconds\nOutput:\n/);
  });

  it('describes reads, listings and searches in parsed_cmd', async () => {
    const { ctx } = await setup('never');
    await run(ctx, { command: ['bash', '-lc', 'cat existing.txt && ls -la . && rg -n needle src | head -n 5'] });
    expect(ctx.of('exec_command_begin')[0]!.parsed_cmd).toEqual([
      { type: 'read', cmd: 'cat existing.txt', name: 'existing.txt', path: 'existing.txt' },
      { type: 'list_files', cmd: 'ls -la .', path: '.' },
      { type: 'search', cmd: 'rg -n needle src', query: 'needle', path: 'src' },
    ]);
  });

  it('caps the output the model sees, keeping head and tail; clients get all of it', { tags: ['bubblewrap'] }, async () => {
    const { ctx } = await setup('never');
    const result = await run(ctx, { command: ['bash', '-c', 'seq 1 2000'] });
    expect(result.success).toBe(true);
    expect(result.output).toContain('Total output lines: 2000\nOutput:\n1\n2\n');
    expect(result.output).toMatch(/\[\.\.\. omitted \d+ of 2000 lines \(\d+ bytes\) \.\.\.\]/);
    expect(String(result.output).endsWith('1999\n2000\n')).toBe(true);
    expect(Buffer.byteLength(String(result.output))).toBeLessThan(11 * 1024);
    const [end] = ctx.of('exec_command_end');
    expect(end!.aggregated_output.split('\n')).toHaveLength(2001);
    expect(ctx.streamed('stdout')).toBe(end!.stdout);
  });

  it('timeout_ms kills the command and says so', { tags: ['bubblewrap'] }, async () => {
    const { ctx } = await setup('never');
    const result = await tool.run({ command: ['bash', '-c', 'echo started; sleep 60'], timeout_ms: 500 }, ctx);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^Exit code: 124\n/);
    expect(result.output).toContain('command timed out after 500 milliseconds\nstarted\n');
  });

  it('an interrupt stops the command promptly and rejects with the abort reason', { tags: ['bubblewrap'] }, async () => {
    const controller = new AbortController();
    const { ctx } = await setup('never', undefined, controller.signal);
    const running = run(ctx, { command: ['bash', '-c', 'echo ready; sleep 60'] });
    await waitFor(() => ctx.streamed('stdout') !== '', 'the command to start printing', 60_000);
    const reason = new Error('interrupted');
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(ctx.of('exec_command_end')[0]).toMatchObject({ status: 'failed', exit_code: 130 });
  });

  it('workdir is resolved against cwd; a missing one is reported to the model', { tags: ['bubblewrap'] }, async () => {
    const { ctx, cwd } = await setup('never');
    await mkdir(path.join(cwd, 'sub'));
    const ok = await run(ctx, { command: ['pwd'], workdir: 'sub' });
    expect(ok.output).toContain(`${path.join(cwd, 'sub')}\n`);
    const missing = await run(ctx.nextCall(), { command: ['pwd'], workdir: 'nope' });
    expect(missing).toEqual({ output: `workdir does not exist or is not a directory: ${path.join(cwd, 'nope')}`, success: false });
  });

  it('bad arguments come back as a result the model can fix', async () => {
    const { ctx } = await setup('never');
    const result = await tool.run({ command: 'ls -la' }, ctx);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(/^failed to parse function arguments/);
  });

  it('advertises Codex’s shell schema', () => {
    expect(tool.name).toBe('shell');
    expect(tool.description).toBe('Runs a shell command and returns its output.');
    expect(tool.parameters).toMatchObject({ required: ['command'], additionalProperties: false });
    expect(Object.keys((tool.parameters as { properties: object }).properties).sort()).toEqual(
      ['command', 'justification', 'timeout_ms', 'with_escalated_permissions', 'workdir'],
    );
  });
});

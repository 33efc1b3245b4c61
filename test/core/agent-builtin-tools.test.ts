// A turn with the real built-in tools: the model calls shell, then apply_patch, then answers.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApplyPatchTool, createPlanTool, createPlatformSandbox, createShellTool } from '../../src/core/index.js';
import { responsesTurn } from '../fixtures/fake-model-server.js';
import { agentTestBed, EventReader, text, type Harness } from '../support/agent-harness.js';

const bed = agentTestBed();
let h: Harness;

describe('built-in tools in a turn', () => {
  it('shell, then apply_patch, then the answer', { tags: ['bubblewrap'] }, async () => {
    h = await bed.harness({
      tools: [createShellTool({ sandbox: createPlatformSandbox() }), createApplyPatchTool(), createPlanTool()],
      raw: { approval_policy: 'never', sandbox_mode: 'workspace-write' },
    });
    await writeFile(path.join(h.home, 'notes.txt'), 'alpha\nbeta\n');
    const patch = ['*** Begin Patch', '*** Update File: notes.txt', '@@', ' alpha', '-beta', '+gamma', '*** End Patch'].join('\n');
    bed.server.enqueue(
      responsesTurn({ calls: [{ id: 's1', name: 'shell', args: { command: ['bash', '-lc', 'cat notes.txt'] } }] }),
      responsesTurn({ calls: [{ id: 'p1', name: 'apply_patch', args: { input: patch } }] }),
      responsesTurn({ text: 'Changed beta to gamma.' }),
    );
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    const end = await events.turnEnd(await thread.submit(text('change beta to gamma')));
    expect(end).toMatchObject({ type: 'task_complete', last_agent_message: 'Changed beta to gamma.' });
    expect(await readFile(path.join(h.home, 'notes.txt'), 'utf8')).toBe('alpha\ngamma\n');
    const types = events.types();
    expect(types).toEqual(expect.arrayContaining(['exec_command_begin', 'exec_command_end', 'patch_apply_begin', 'patch_apply_end']));
    const outputs = (bed.server.requests[2]!.body.input as Record<string, unknown>[]).filter((i) => i.type === 'function_call_output');
    expect(JSON.stringify(outputs[0]!.output)).toContain('alpha');
    console.log(JSON.stringify(outputs, null, 1));
  });
});

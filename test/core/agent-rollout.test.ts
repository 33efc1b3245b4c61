// Rollout files: where they live, what they hold, resuming from them, and damaged files.
import { appendFile, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRolloutFile, parseRollout, ThreadManager, OpenAIModelClient } from '../../src/core/index.js';
import { responsesTurn } from '../fixtures/fake-model-server.js';
import { echoTool } from '../fixtures/test-tools.js';
import { agentTestBed, EventReader, text, type Harness } from '../support/agent-harness.js';

const bed = agentTestBed();
let h: Harness;

type Item = Record<string, unknown>;

function secondManager(harness: Harness): ThreadManager {
  return new ThreadManager({
    home: harness.home,
    config: harness.config,
    tools: [echoTool],
    createModelClient: (p) => new OpenAIModelClient(p, { env: { MOCK_KEY: 'k' }, retryBaseDelayMs: 5 }),
  });
}

async function lines(file: string): Promise<Item[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Item);
}

describe('rollouts', () => {
  it('writes sessions/YYYY/MM/DD/rollout-<timestamp>-<id>.jsonl with meta, items and key events', async () => {
    h = await bed.harness({ tools: [echoTool] });
    bed.server.enqueue(responsesTurn({ calls: [{ id: 'c1', name: 'echo', args: { text: 'x' } }] }), responsesTurn({ text: 'answer' }));
    const thread = await h.manager.start();
    const events = new EventReader(thread);
    expect(thread.sessionConfigured.rollout_path).toBe(thread.rolloutPath);
    await events.turnEnd(await thread.submit(text('hello')));
    const rel = path.relative(h.home, thread.rolloutPath);
    expect(rel).toMatch(new RegExp(`^sessions/\\d{4}/\\d{2}/\\d{2}/rollout-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-${thread.id}\\.jsonl$`));
    expect(await findRolloutFile(h.home, thread.id)).toBe(thread.rolloutPath);
    const all = await lines(thread.rolloutPath);
    expect(all[0]).toMatchObject({ type: 'session_meta', payload: { id: thread.id, model: 'mock-model', model_provider: 'mock', originator: 'switchboard' } });
    const items = all.filter((l) => l.type === 'response_item').map((l) => (l.payload as Item).type);
    expect(items).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    const evs = all.filter((l) => l.type === 'event_msg').map((l) => (l.payload as Item).type);
    expect(evs).toEqual(['task_started', 'user_message', 'token_count', 'agent_message', 'token_count', 'task_complete']);
    expect(all.some((l) => l.type === 'turn_context')).toBe(true);
    // streaming noise is not kept
    expect(evs).not.toContain('agent_message_delta');
  });

  it('resume rebuilds the conversation in a new manager and appends to the same file', async () => {
    h = await bed.harness({ tools: [echoTool], raw: { developer_instructions: 'dev text' } });
    bed.server.enqueue(responsesTurn({ text: 'first answer' }), responsesTurn({ text: 'second answer' }));
    const thread = await h.manager.start({ approvalPolicy: 'never', sandboxMode: 'workspace-write' });
    const e1 = new EventReader(thread);
    await e1.turnEnd(await thread.submit(text('first question')));
    await thread.shutdown();

    const other = secondManager(h);
    const resumed = await other.resume(thread.id);
    expect(resumed.settings).toMatchObject({ approvalPolicy: 'never', sandboxPolicy: { type: 'workspace-write' }, developerInstructions: 'dev text' });
    const e2 = new EventReader(resumed);
    expect((await e2.next()).msg).toMatchObject({ type: 'session_configured', session_id: thread.id, history_entry_count: 2 });
    await e2.turnEnd(await resumed.submit(text('second question')));
    const input = bed.server.requests[1]!.body.input as Item[];
    const convo = input.filter((i) => i.role !== 'developer').map((i) => JSON.stringify(i.content));
    expect(convo).toEqual([expect.stringContaining('first question'), expect.stringContaining('first answer'), expect.stringContaining('second question')]);
    await other.shutdown();
    const sessionsFiles = await readdir(path.dirname(thread.rolloutPath));
    expect(sessionsFiles).toHaveLength(1);
    expect((await lines(thread.rolloutPath)).filter((l) => l.type === 'session_meta')).toHaveLength(1);
  });

  it('resume of the thread still open in this manager returns it; an unknown id is a clear error', async () => {
    h = await bed.harness();
    const thread = await h.manager.start();
    expect(await h.manager.resume(thread.id)).toBe(thread);
    await expect(h.manager.resume('0000-nope')).rejects.toThrow(/no saved thread 0000-nope under .*sessions/);
  });

  it('two concurrent resumes of one thread share one live thread', async () => {
    h = await bed.harness();
    const thread = await h.manager.start();
    await thread.shutdown();
    const other = secondManager(h);
    const [a, b] = await Promise.all([other.resume(thread.id), other.resume(thread.id)]);
    expect(a).toBe(b);
    expect(other.list()).toHaveLength(1);
    await other.shutdown();
  });

  it('skips a torn last line with a warning and repairs the file for appending', async () => {
    h = await bed.harness();
    bed.server.enqueue(responsesTurn({ text: 'one' }), responsesTurn({ text: 'two' }));
    const thread = await h.manager.start();
    const e1 = new EventReader(thread);
    await e1.turnEnd(await thread.submit(text('q1')));
    await thread.shutdown();
    await appendFile(thread.rolloutPath, '{"timestamp":"2026-01-01T00:00:00Z","type":"response_item","payload":{"type":"mess');

    const other = secondManager(h);
    const resumed = await other.resume(thread.id);
    const e2 = new EventReader(resumed);
    await e2.until('session_configured');
    expect((await e2.until('warning')).message).toMatch(/skipped a torn last line/);
    await e2.turnEnd(await resumed.submit(text('q2')));
    await other.shutdown();
    // every line parses again, and the conversation has both turns
    const parsed = parseRollout(thread.rolloutPath, await readFile(thread.rolloutPath, 'utf8'));
    expect(parsed.warnings).toEqual([]);
    expect(parsed.items.filter((i) => i.type === 'message').length).toBe(4);
  });

  it('a turn its process never finished (killed mid-turn) is recorded as aborted when the thread resumes', async () => {
    h = await bed.harness();
    bed.server.enqueue(responsesTurn({ text: 'after the crash' }));
    const thread = await h.manager.start();
    await thread.shutdown();
    const started = { timestamp: '2026-01-01T00:00:00Z', type: 'event_msg', payload: { type: 'task_started', turn_id: 'dead-turn', model_context_window: null } };
    const user = { timestamp: '2026-01-01T00:00:00Z', type: 'event_msg', payload: { type: 'user_message', message: 'lost', images: null } };
    await appendFile(thread.rolloutPath, `${JSON.stringify(started)}\n${JSON.stringify(user)}\n`);

    const other = secondManager(h);
    const resumed = await other.resume(thread.id);
    const e2 = new EventReader(resumed);
    await e2.until('session_configured');
    expect((await e2.until('warning')).message).toBe('turn dead-turn did not finish (the process running it stopped); it is recorded as aborted');
    const next = await resumed.submit(text('again'));
    await e2.turnEnd(next);
    await other.shutdown();
    const events = (await lines(thread.rolloutPath)).filter((l) => l.type === 'event_msg').map((l) => l.payload as Item);
    const aborted = events.findIndex((e) => e.type === 'turn_aborted');
    expect(events[aborted]).toEqual({ type: 'turn_aborted', turn_id: 'dead-turn', reason: 'interrupted' });
    expect(events.slice(aborted + 1, aborted + 3)).toMatchObject([{ type: 'warning' }, { type: 'task_started', turn_id: next }]);
    // resumed once more: nothing left unfinished, no second warning
    expect(parseRollout(thread.rolloutPath, await readFile(thread.rolloutPath, 'utf8')).unfinishedTurn).toBeNull();
  });

  it('parseRollout: unreadable middle lines are skipped, dangling calls are closed', () => {
    const meta = { timestamp: 't', type: 'session_meta', payload: { id: 'x', timestamp: 't', cwd: '/', originator: 'o', cli_version: '1', model: 'm', model_provider: 'p', approval_policy: 'never', sandbox_policy: { type: 'read-only' }, base_instructions: null, developer_instructions: null } };
    const call = { timestamp: 't', type: 'response_item', payload: { type: 'function_call', call_id: 'c', name: 'n', arguments: '{}' } };
    const text = [JSON.stringify(meta), 'garbage', JSON.stringify({ timestamp: 't', type: 'future_kind', payload: {} }), JSON.stringify(call), ''].join('\n');
    const loaded = parseRollout('/f.jsonl', text);
    expect(loaded.warnings).toEqual(['skipped unreadable line 2 in /f.jsonl', 'skipped unreadable line 3 in /f.jsonl']);
    expect(loaded.validBytes).toBeNull();
    expect(loaded.items).toEqual([call.payload, { type: 'function_call_output', call_id: 'c', output: 'aborted: the session ended before this call finished' }]);
    expect(() => parseRollout('/g.jsonl', 'garbage\n')).toThrow(/no session metadata/);
  });
});

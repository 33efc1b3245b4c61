import { describe, expect, it } from 'vitest';
import type { EventMsg } from '../protocol/index.js';
import { HumanRenderer } from './exec-render.js';

function sinks(stdoutTTY: boolean) {
  const out = { text: '', isTTY: stdoutTTY, write: (t: string) => void (out.text += t) };
  const err = { text: '', isTTY: false, write: (t: string) => void (err.text += t) };
  return { out, err, r: new HumanRenderer(out, err, '9.9.9') };
}

const ev = (msg: EventMsg) => ({ id: 't', msg });
const end = { type: 'task_complete', turn_id: 't', last_agent_message: 'Hello world' } as const;

describe('HumanRenderer', () => {
  it('streams the answer to a terminal stdout once, without repeating it at the end', () => {
    const { out, err, r } = sinks(true);
    for (const d of ['Hello', ' world']) r.render(ev({ type: 'agent_message_delta', delta: d }));
    r.render(ev({ type: 'agent_message', message: 'Hello world' }));
    r.render(ev({ type: 'token_count', info: { total_token_usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 2, reasoning_output_tokens: 0, total_tokens: 3 }, last_token_usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 2, reasoning_output_tokens: 0, total_tokens: 3 }, model_context_window: null }, rate_limits: null }));
    r.render(ev(end));
    expect(out.text).toBe('Hello world\n');
    expect(err.text).toContain('agent\n');
    expect(err.text).toContain('tokens used: 3');
  });

  it('writes only the final message to a piped stdout', () => {
    const { out, err, r } = sinks(false);
    r.render(ev({ type: 'agent_message_delta', delta: 'Hello' }));
    r.render(ev({ type: 'agent_message', message: 'Hello world' }));
    r.render(ev({ type: 'exec_command_end', call_id: 'c', turn_id: 't', command: ['ls', '-la'], cwd: '/', parsed_cmd: [], source: 'agent', stdout: 'a\n', stderr: '', aggregated_output: 'a\n', exit_code: 2, duration: { secs: 1, nanos: 500_000_000 }, formatted_output: 'a', status: 'failed' }));
    r.render(ev(end));
    expect(out.text).toBe('Hello world\n');
    expect(err.text).toContain('ls -la exited 2 in 1.5s:\na');
  });
});

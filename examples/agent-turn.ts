// One agent turn against an OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio, ...):
// start a thread, submit the prompt, print the reply as it streams.
//
//   OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=sk-... MODEL=gpt-4.1-mini \
//     npx node examples/agent-turn.ts "What is in this folder?"
//
// OPENAI_WIRE_API picks the wire format: `chat` (Chat Completions, the default; what most
// compatible servers speak) or `responses`. The thread is recorded under $SWITCHBOARD_HOME/sessions.
import { buildConfig, resolveHome } from 'switchboard';
import { createAgent } from 'switchboard/agent';

const prompt = process.argv[2] ?? 'Say hello in one short sentence.';

const { config } = buildConfig(
  {
    model: process.env.MODEL ?? 'gpt-4.1-mini',
    model_provider: 'endpoint',
    model_providers: {
      endpoint: {
        name: 'OpenAI-compatible endpoint',
        base_url: process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
        env_key: 'OPENAI_API_KEY',
        wire_api: process.env.OPENAI_WIRE_API === 'responses' ? 'responses' : 'chat',
      },
    },
  },
  { home: resolveHome() },
);

// The built-in tools (shell, apply_patch, update_plan); nobody is here to approve, so commands run
// only where the read-only sandbox lets them.
const agent = createAgent({ config });
try {
  const thread = await agent.start({ approvalPolicy: 'never', sandboxMode: 'read-only' });
  const events = thread.events(); // subscribe before submitting, so no event is missed
  const turnId = await thread.submit({ type: 'user_input', items: [{ type: 'text', text: prompt }] });
  for await (const { msg } of events) {
    if (msg.type === 'agent_message_delta') process.stdout.write(msg.delta);
    else if (msg.type === 'exec_command_begin') console.error(`\n$ ${msg.command.join(' ')}`);
    else if (msg.type === 'stream_error' || msg.type === 'warning' || msg.type === 'error') console.error(`\n${msg.type}: ${msg.message}`);
    else if (msg.type === 'turn_aborted' && msg.turn_id === turnId) {
      process.exitCode = 1;
      break;
    } else if (msg.type === 'task_complete' && msg.turn_id === turnId) {
      process.stdout.write('\n');
      process.exitCode = msg.error ? 1 : 0;
      break;
    }
  }
} finally {
  await agent.shutdown();
}

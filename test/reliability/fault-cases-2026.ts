// The fault matrix's rows for 2026-07-28 servers (the chaos server's `modern` mode and its broken
// server/discover modes): a server that never stops asking for input, one that answers the probe
// with garbage, one that never answers it; each over stdio and HTTP.
import { expect } from 'vitest';
import { call, fails, ok, ready, type CaseRun, type FaultCase } from './fault-case.js';
import type { RunningSubject } from './subjects.js';

const TIMED_OUT = /^MCP client for `chaos` timed out after 3 seconds\. Add or adjust `startup_timeout_sec` in your config\.toml:\n\[mcp_servers\.chaos\]\nstartup_timeout_sec = XX$/;
const ROUNDS = /^Multi-round-trip request 'tools\/call' still required input after 10 rounds \(inputRequired\.maxRounds\)$/;

const noteProtocol = async (subject: RunningSubject, run: CaseRun) => void run.notes.push(`protocol: ${(await subject.protocol?.('chaos')) ?? 'unknown'}`);

/** Ready in the given revision; calls work. */
function readyAs(transport: 'stdio' | 'http', mode: string, chaosArgs: string[], protocol: string, outcome: string): FaultCase {
  return {
    id: `${transport}/${mode}`,
    transport,
    chaosArgs,
    outcome,
    async exercise(subject, run) {
      await noteProtocol(subject, run);
      await call(subject, run, 'echo', { text: 'ping' });
    },
    verify(run) {
      ready(run);
      expect(run.notes).toEqual([`protocol: ${protocol}`]);
      expect(run.calls).toEqual([ok('ping')]);
      expect(run.failureLines).toEqual([]);
    },
  };
}

function inputForever(transport: 'stdio' | 'http'): FaultCase {
  return {
    id: `${transport}/modern input-forever`,
    transport,
    chaosArgs: ['--mode', 'modern,input-forever'],
    outcome: 'ready on 2026-07-28; the call fails: "… still required input after 10 rounds"; the next call works',
    async exercise(subject, run) {
      await noteProtocol(subject, run);
      await call(subject, run, 'ask_forever', {});
      await call(subject, run, 'echo', { text: 'after' });
    },
    verify(run) {
      ready(run);
      expect(run.notes).toEqual(['protocol: 2026-07-28']);
      expect(run.calls).toEqual([fails(ROUNDS), ok('after')]);
      expect(run.failureLines).toEqual([]);
    },
  };
}

export const MODERN_STDIO_CASES: FaultCase[] = [
  readyAs('stdio', 'modern', ['--mode', 'modern'], '2026-07-28', 'ready on 2026-07-28; calls work'),
  inputForever('stdio'),
  readyAs('stdio', 'modern discover-garbage', ['--mode', 'modern,discover-garbage'], '2025-11-25', 'the malformed discover result means "not 2026-07-28": initialize follows; ready on 2025-11-25; calls work'),
  readyAs('stdio', 'modern discover-hang', ['--mode', 'modern,discover-hang'], '2025-11-25', 'after the 5 s probe bound (at most half of startup_timeout_sec) initialize follows; ready on 2025-11-25; calls work'),
];

export const MODERN_HTTP_CASES: FaultCase[] = [
  readyAs('http', 'modern', ['--mode', 'modern'], '2026-07-28', 'ready on 2026-07-28; calls work'),
  inputForever('http'),
  readyAs('http', 'modern discover-garbage', ['--mode', 'modern,discover-garbage'], '2025-11-25', 'the malformed discover result means "not 2026-07-28": initialize follows; ready on 2025-11-25; calls work'),
  {
    id: 'http/modern discover-hang (startup_timeout_sec 3)',
    transport: 'http',
    chaosArgs: ['--mode', 'modern,discover-hang'],
    config: { startup_timeout_sec: 3 },
    outcome: 'failed: "timed out after 3 seconds" with the startup_timeout_sec hint (over HTTP silence is an outage, not a 2025 server); calls fail at once',
    async exercise(subject, run) {
      await call(subject, run, 'echo', { text: 'ping' });
    },
    verify(run) {
      expect(run.startup).toEqual(expect.objectContaining({ state: 'failed', error: expect.stringMatching(TIMED_OUT) }));
      expect(run.failureLines).toHaveLength(1);
      expect(run.calls).toEqual([fails(/^MCP server 'chaos' is unavailable: MCP client for `chaos` timed out after 3 seconds/)]);
    },
  },
];

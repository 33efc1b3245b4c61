// The fault matrix's rows: one chaos-server mode (stdio or HTTP) next to a healthy server, what to do
// with the chaos server once its startup settles, and what the outcome must be. Expectations are
// patterns over the texts a user sees, so a row fails when the text stops saying what happened.
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { waitFor } from '../support/wait.js';
import type { CallOutcome, RunningSubject, StartupOutcome } from './subjects.js';
import { call, fails, ok, ready, type CaseRun, type FaultCase } from './fault-case.js';
import { MODERN_HTTP_CASES, MODERN_STDIO_CASES } from './fault-cases-2026.js';
import { fixtureProgram } from '../support/fixture-bundles.js';

export type { CaseRun, FaultCase } from './fault-case.js';

export const CHAOS = fixtureProgram('chaos-server.ts');
export const NODE = process.execPath;

/** Generous, so rows that should work never trip a deadline on a loaded machine. */
export const DEFAULT_TIMEOUTS = { startup_timeout_sec: 20, tool_timeout_sec: 20 };
const SHORT_STARTUP = { startup_timeout_sec: 3 };
const MIB = 1024 * 1024;

const failedStart = (line: RegExp) => expect.objectContaining({ state: 'failed', error: expect.stringMatching(line) });
const msOf = (outcome: CallOutcome | undefined) => (outcome && !outcome.ok ? outcome.ms : NaN);

const echo = (subject: RunningSubject, run: CaseRun, text: string) => call(subject, run, 'echo', { text });

/** Waits for the next failure status line of the chaos server (it may come just after a call fails). */
async function nextFailure(subject: RunningSubject, skip: number): Promise<StartupOutcome> {
  return subject.startup('chaos', { skip, timeoutMs: 20_000 });
}


/** Ready, and calls work: `n` echo calls at once. */
function works(transport: 'stdio' | 'http', mode: string, chaosArgs: string[], outcome: string, n = 1, extra: Partial<FaultCase> = {}): FaultCase {
  return {
    id: `${transport}/${mode}`,
    transport,
    chaosArgs,
    outcome,
    async exercise(subject, run) {
      // Recorded in call order, whatever order the answers come in.
      run.calls.push(...(await Promise.all(Array.from({ length: n }, (_, i) => subject.call('chaos', 'echo', { text: `ping ${i}` })))));
    },
    verify(run) {
      ready(run);
      expect(run.calls).toEqual(Array.from({ length: n }, (_, i) => ok(`ping ${i}`)));
      expect(run.failureLines).toEqual([]);
    },
    ...extra,
  };
}

/**
 * A call to the chaos server while it is down. The manager answers that it is unavailable, quoting
 * its status line; the gateway has already sent its client that line and dropped the server's tools
 * from its catalog, so there the name is unknown (a JSON-RPC -32602 saying the server is down, and why).
 */
const UNKNOWN_CHAOS_ECHO = "Unknown tool: mcp__chaos__echo: MCP server 'chaos' is unavailable: ";
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function downCall(run: CaseRun, why: RegExp): ReturnType<typeof fails> {
  return isGateway(run.subject) ? fails(new RegExp(`^${literal(UNKNOWN_CHAOS_ECHO)}`)) : fails(why);
}

/** Duplicate tool names: one catalog entry per name (4 tools), and calls work. */
function duplicateTools(transport: 'stdio' | 'http', outcome: string): FaultCase {
  return {
    id: `${transport}/duplicate-tools`,
    transport,
    chaosArgs: ['--mode', 'duplicate-tools'],
    outcome,
    async exercise(subject, run) {
      run.notes.push(`tools: ${await subject.toolCount('chaos')}`);
      await echo(subject, run, 'ping');
    },
    verify(run) {
      ready(run);
      expect(run.notes).toEqual(['tools: 4']);
      expect(run.calls).toEqual([ok('ping')]);
    },
  };
}

/** Never ready: one failed status line with this text; a call fails at once, quoting it. */
function neverReady(transport: 'stdio' | 'http', mode: string, chaosArgs: string[], line: RegExp, outcome: string, config?: Record<string, unknown>): FaultCase {
  return {
    id: `${transport}/${mode}`,
    transport,
    chaosArgs,
    config,
    outcome,
    async exercise(subject, run) {
      await echo(subject, run, 'ping');
    },
    verify(run) {
      expect(run.startup).toEqual(failedStart(line));
      expect(run.failureLines).toHaveLength(1);
      expect(run.failureLines[0]).toBe(run.startup.state === 'failed' ? run.startup.error : undefined);
      expect(run.calls).toEqual([downCall(run, /^MCP server 'chaos' is unavailable: /)]);
      const shown = run.calls[0]!.ok ? '' : run.calls[0]!.error;
      expect(shown).toBe(`${isGateway(run.subject) ? UNKNOWN_CHAOS_ECHO : "MCP server 'chaos' is unavailable: "}${run.failureLines[0]}`);
      expect(msOf(run.calls[0])).toBeLessThan(1_000); // no waiting on a server known to be down
    },
  };
}

const TIMED_OUT = /^MCP client for `chaos` timed out after 3 seconds\. Add or adjust `startup_timeout_sec` in your config\.toml:\n\[mcp_servers\.chaos\]\nstartup_timeout_sec = XX$/;
const FAILED_TO_START = (cause: string) => new RegExp(`^MCP client for \`chaos\` failed to start: MCP startup failed: ${cause}`);
const STOPPED = (cause: string) => new RegExp(`^MCP server \`chaos\` stopped after being ready \\(restarting in \\d+m?s\\): ${cause}`);
const PROGRAM = '`[^`]*node`';

/** The chaos server's noise-stdout lines per burst (its --noise-lines default). */
const NOISE_LINES = 3;
const NOISE_WARNING = new RegExp(`^MCP server ${PROGRAM} wrote a stdout line that is not JSON; skipped: chaos-server: this line is not JSON-RPC \\([1-3]\\)`);

/** A record of the log file (one JSON object a line) at warn whose message is a skipped noise line. */
function isNoiseWarning(line: string): boolean {
  try {
    const record = JSON.parse(line) as { level?: unknown; msg?: unknown };
    return record.level === 'warn' && typeof record.msg === 'string' && NOISE_WARNING.test(record.msg);
  } catch {
    return false;
  }
}

/**
 * How many noise lines the subject's log reports as skipped, once at least `atLeast` are there and
 * the count has held for 250 ms: the log is written asynchronously, and a server's burst can reach
 * the client split across reads, so a count taken mid-write may end inside a burst.
 */
async function skippedNoise(subject: RunningSubject, atLeast: number): Promise<number> {
  const count = async () => (await readFile(subject.logFile, 'utf8').catch(() => '')).split('\n').filter(isNoiseWarning).length;
  const deadline = Date.now() + 5_000;
  let n = await count();
  let since = Date.now();
  while ((n < atLeast || Date.now() - since < 250) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = await count();
    if (next !== n) since = Date.now();
    n = next;
  }
  return n;
}

/** A stdio server that dies while serving: the call says why, one status line says it stopped. */
function diesServing(mode: string, chaosArgs: string[], tool: string, args: Record<string, unknown>, cause: string, outcome: string): FaultCase {
  return {
    id: `stdio/${mode}`,
    transport: 'stdio',
    chaosArgs,
    outcome,
    async exercise(subject, run) {
      await call(subject, run, tool, args);
      await nextFailure(subject, 1);
      await echo(subject, run, 'after');
    },
    verify(run) {
      ready(run);
      expect(run.calls).toEqual([fails(new RegExp(`^MCP server ${PROGRAM} ${cause}`)), downCall(run, /^MCP server 'chaos' is unavailable: MCP server `chaos` stopped after being ready/)]);
      expect(run.failureLines).toEqual([expect.stringMatching(STOPPED(`MCP server ${PROGRAM} ${cause}`))]);
    },
  };
}

export const STDIO_CASES: FaultCase[] = [
  works('stdio', 'healthy', [], 'ready; calls work'),
  works('stdio', 'slow-start 1 s', ['--mode', 'slow-start', '--start-delay', '1'], 'ready after the delay; calls work'),
  neverReady('stdio', 'slow-start 6 s (startup_timeout_sec 3)', ['--mode', 'slow-start', '--start-delay', '6'], TIMED_OUT, 'failed: "timed out after 3 seconds" with the startup_timeout_sec hint; calls fail at once', SHORT_STARTUP),
  neverReady('stdio', 'no-initialize (startup_timeout_sec 3)', ['--mode', 'no-initialize'], TIMED_OUT, 'failed: "timed out after 3 seconds" with the hint; calls fail at once', SHORT_STARTUP),
  neverReady('stdio', 'exit-on-initialize', ['--mode', 'exit-on-initialize'], FAILED_TO_START(`MCP server ${PROGRAM} exited with code 1`), 'failed: "MCP server `node` exited with code 1"; calls fail at once'),
  diesServing('exit-mid-call', ['--mode', 'exit-mid-call'], 'slow', { ms: 2_000, steps: 2 }, 'exited with code 1', 'the call fails with "exited with code 1"; one line "stopped after being ready (restarting in …)"; later calls fail at once'),
  {
    id: 'stdio/exit-after-calls 3 (restart after 300 ms)',
    transport: 'stdio',
    chaosArgs: ['--mode', 'exit-after-calls', '--calls', '3'],
    restartDelayMs: 300,
    outcome: '3 calls work, the exit is one "stopped after being ready (restarting in 300ms)" line, the restarted server answers',
    async exercise(subject, run) {
      for (let i = 0; i < 3; i++) await echo(subject, run, `ping ${i}`);
      await nextFailure(subject, 1);
      const again = await subject.startup('chaos', { skip: 2, timeoutMs: 20_000 });
      run.notes.push(`after the restart: ${again.state}`);
      await echo(subject, run, 'restarted');
    },
    verify(run) {
      ready(run);
      expect(run.calls).toEqual([ok('ping 0'), ok('ping 1'), ok('ping 2'), ok('restarted')]);
      expect(run.failureLines).toEqual([expect.stringMatching(new RegExp(`^MCP server \`chaos\` stopped after being ready \\(restarting in 300ms\\): MCP server ${PROGRAM} exited with code 1`))]);
      expect(run.notes).toEqual(['after the restart: ready']);
    },
  },
  {
    // The stdio framing policy (docs/reliability.md): a line that is not JSON-RPC is skipped and logged.
    id: 'stdio/noise-stdout',
    transport: 'stdio',
    chaosArgs: ['--mode', 'noise-stdout'],
    outcome: 'ready; calls work; every non-JSON-RPC stdout line is skipped and logged at warn with an excerpt',
    async exercise(subject, run) {
      await echo(subject, run, 'ping');
      // 3 lines at start and 3 before each message: initialize, tools/list and the call's answers, and
      // the era probe's when it is sent (15 in all); once the log is still, a whole number of bursts.
      run.notes.push(`skipped lines logged at warn: ${await skippedNoise(subject, NOISE_LINES * 4)}`);
    },
    verify(run) {
      ready(run);
      expect(run.calls).toEqual([ok('ping')]);
      expect(run.failureLines).toEqual([]);
      expect(run.notes).toEqual([expect.stringMatching(/^skipped lines logged at warn: \d+$/)]);
      const skipped = Number(run.notes[0]!.split(': ')[1]);
      expect(skipped).toBeGreaterThanOrEqual(NOISE_LINES * 4);
      expect(skipped % NOISE_LINES).toBe(0);
    },
  },
  {
    id: 'stdio/half-frame (tool_timeout_sec 4)',
    transport: 'stdio',
    chaosArgs: ['--mode', 'half-frame'],
    config: { tool_timeout_sec: 4 },
    outcome: 'ready; the call times out: "timed out awaiting tools/call after 4s"',
    async exercise(subject, run) {
      await echo(subject, run, 'ping');
    },
    verify(run) {
      ready(run);
      expect(run.calls).toEqual([fails(/^timed out awaiting tools\/call after 4s$/)]);
      expect(run.failureLines).toEqual([]);
    },
  },
  works('stdio', 'flood-stderr 4 MiB per call', ['--mode', 'flood-stderr'], 'ready; calls work (stderr is drained into the log)', 2),
  diesServing('huge-result 50 MiB', ['--mode', 'huge-result'], 'echo', { text: 'big' }, 'wrote more than 10485760 bytes without a newline', 'the call fails: "wrote more than 10485760 bytes without a newline"; one "stopped after being ready" line'),
  works('stdio', 'out-of-order', ['--mode', 'out-of-order'], 'ready; two concurrent calls each get their own answer', 2),
  works('stdio', 'unknown-ids', ['--mode', 'unknown-ids'], 'ready; stray progress, cancellations and responses are ignored; calls work', 2),
  neverReady('stdio', 'invalid-schemas', ['--mode', 'invalid-schemas'], FAILED_TO_START('Invalid result for tools/list: '), 'failed: "Invalid result for tools/list: <each problem>" (one bad tool fails the listing, as in Codex)'),
  neverReady('stdio', 'many-tools 10,000 (+3)', ['--mode', 'many-tools'], FAILED_TO_START('tools/list exceeded page limit$'), 'failed: "tools/list exceeded page limit" (101 pages)'),
  {
    id: 'stdio/many-tools 5,000',
    transport: 'stdio',
    chaosArgs: ['--mode', 'many-tools', '--tools', '5000'],
    outcome: 'ready with 5,003 tools; calls work',
    async exercise(subject, run) {
      run.notes.push(`tools: ${await subject.toolCount('chaos')}`);
      await call(subject, run, 'bulk_04999', {});
    },
    verify(run) {
      ready(run);
      expect(run.notes).toEqual(['tools: 5003']);
      expect(run.calls).toEqual([ok('called bulk_04999')]);
    },
  },
  duplicateTools('stdio', 'ready; one catalog entry per name (the first definition wins); calls work'),
  works('stdio', 'grandchildren ignoring SIGTERM', ['--mode', 'grandchildren'], 'ready; calls work; closing kills the process group, grandchildren included'),
];

/**
 * A seeded random fault: which calls fail is fixed by the seed (POSTs draw in order: the 2026-07-28
 * server/discover probe, initialize, notifications/initialized, tools/list, then one per call).
 */
function seededCalls(mode: string, rate: string, seed: string, pattern: boolean[], error: RegExp, outcome: string, gatewayError?: RegExp): FaultCase {
  return {
    id: `http/${mode} ${rate} seed ${seed}`,
    transport: 'http',
    chaosArgs: ['--mode', mode, `--rate-${mode === 'http-401' ? '401' : '500'}`, rate, '--seed', seed],
    outcome,
    async exercise(subject, run) {
      for (let i = 0; i < pattern.length; i++) await echo(subject, run, `ping ${i}`);
    },
    verify(run) {
      ready(run);
      const failure = isGateway(run.subject) && gatewayError ? gatewayError : error;
      expect(run.calls).toEqual(pattern.map((good, i) => (good ? ok(`ping ${i}`) : fails(failure))));
      expect(run.failureLines).toEqual([]);
    },
  };
}

const NOT_LOGGED_IN = /^The chaos MCP server is not logged in\. Run `switchboard mcp login chaos`\.$/;
const SENDING = (cause: string) => new RegExp(`^error sending request for url \\(http://127\\.0\\.0\\.1:\\d+/mcp\\): ${cause}`);
/**
 * How a request to an HTTP server that has exited fails: the port closed (refused), or, on a pooled
 * connection, the socket reset or closed; or its connect reset, accepted into the listen backlog as
 * the process closed it.
 */
const SERVER_GONE = '(connect ECONNREFUSED|connect ECONNRESET|read ECONNRESET|other side closed|socket hang up)';

export const HTTP_CASES: FaultCase[] = [
  works('http', 'healthy', [], 'ready; calls work'),
  neverReady('http', 'slow-start 6 s (startup_timeout_sec 3)', ['--mode', 'slow-start', '--start-delay', '6'], TIMED_OUT, 'failed: "timed out after 3 seconds" with the hint', SHORT_STARTUP),
  neverReady('http', 'no-initialize (startup_timeout_sec 3)', ['--mode', 'no-initialize'], TIMED_OUT, 'failed: "timed out after 3 seconds" with the hint', SHORT_STARTUP),
  neverReady('http', 'exit-on-initialize', ['--mode', 'exit-on-initialize'], FAILED_TO_START('error sending request for url \\(http://127\\.0\\.0\\.1:\\d+/mcp\\): connect ECONNREFUSED'), 'failed: "error sending request for url (…): connect ECONNREFUSED" after the transient retries'),
  {
    id: 'http/exit-mid-call',
    transport: 'http',
    chaosArgs: ['--mode', 'exit-mid-call'],
    outcome: 'the call fails: "error sending request for url (…): other side closed"; the next one: ECONNREFUSED (or ECONNRESET)',
    async exercise(subject, run) {
      await call(subject, run, 'slow', { ms: 2_000, steps: 2 });
      await echo(subject, run, 'after');
    },
    verify(run) {
      ready(run);
      expect(run.calls).toEqual([fails(SENDING('(other side closed|read ECONNRESET|socket hang up)')), fails(SENDING(SERVER_GONE))]);
    },
  },
  {
    id: 'http/exit-after-calls 3',
    transport: 'http',
    chaosArgs: ['--mode', 'exit-after-calls', '--calls', '3'],
    outcome: '3 calls work; the next fails: "error sending request for url (…): connect ECONNREFUSED"',
    async exercise(subject, run) {
      for (let i = 0; i < 4; i++) await echo(subject, run, `ping ${i}`);
    },
    verify(run) {
      ready(run);
      expect(run.calls).toEqual([ok('ping 0'), ok('ping 1'), ok('ping 2'), fails(SENDING(SERVER_GONE))]);
    },
  },
  {
    id: 'http/huge-result 50 MiB',
    transport: 'http',
    chaosArgs: ['--mode', 'huge-result'],
    // 50 MiB through HTTP, JSON and schema checks takes seconds, many on a loaded machine.
    config: { tool_timeout_sec: 120 },
    outcome: 'ready; the 50 MiB result arrives whole (the agent truncates text over 1 MiB for the model)',
    async exercise(subject, run) {
      const r = await echo(subject, run, 'big');
      run.notes.push(r.ok ? `result: ${r.text.length / MIB} MiB` : `call failed: ${r.error}`);
      if (r.ok) run.calls[0] = { ...r, text: `${r.text.slice(0, 3)}…` };
    },
    verify(run) {
      ready(run);
      expect(run.notes).toEqual(['result: 50 MiB']);
    },
  },
  works('http', 'out-of-order', ['--mode', 'out-of-order'], 'ready; two concurrent calls each get their own answer', 2),
  works('http', 'unknown-ids', ['--mode', 'unknown-ids'], 'ready; stray notifications are ignored; calls work', 2),
  neverReady('http', 'invalid-schemas', ['--mode', 'invalid-schemas'], FAILED_TO_START('Invalid result for tools/list: '), 'failed: "Invalid result for tools/list: <each problem>"'),
  neverReady('http', 'many-tools 10,000 (+3)', ['--mode', 'many-tools'], FAILED_TO_START('tools/list exceeded page limit$'), 'failed: "tools/list exceeded page limit"'),
  duplicateTools('http', 'ready; one catalog entry per name; calls work'),
  works('http', 'http-expire-session every 3 requests', ['--mode', 'http-expire-session', '--expire-every', '3'], 'ready; six concurrent calls all succeed across the expiries', 6),
  neverReady('http', 'http-401 always', ['--mode', 'http-401', '--rate-401', '1'], NOT_LOGGED_IN, 'failed: "The chaos MCP server is not logged in. Run `switchboard mcp login chaos`."'),
  seededCalls('http-401', '0.3', '14', [false, true, true, false, true, true], /^Auth required: the MCP server answered HTTP 401 \(WWW-Authenticate: Bearer error="invalid_token"/, 'calls answered 401 fail: "Auth required: the MCP server answered HTTP 401 (WWW-Authenticate: …)" (gateway: "The chaos MCP server is not logged in. Run `switchboard mcp login chaos`."); the others work',
    // The CLI's composition has an OAuth runtime, which turns the 401 into the login hint.
    NOT_LOGGED_IN),
  neverReady('http', 'http-500 always', ['--mode', 'http-500', '--rate-500', '1'], FAILED_TO_START('HTTP 500: \\{"jsonrpc":"2\\.0","error":\\{"code":-32000,"message":"Internal Server Error \\(chaos\\)"\\},"id":null\\}$'), 'failed: "HTTP 500: <body>" after the transient retries'),
  seededCalls('http-500', '0.3', '14', [false, true, true, false, true, true], /^HTTP 500: \{"jsonrpc":"2\.0","error":\{"code":-32000,"message":"Internal Server Error \(chaos\)"\},"id":null\}$/, 'calls answered 500 fail: "HTTP 500: <body>" (a call is never replayed); the others work'),
  works('http', 'http-drop-sse 0.3', ['--mode', 'http-drop-sse', '--rate-drop', '0.3'], 'ready; cut streams are resumed; six concurrent calls all succeed', 6),
];

// ---- 2026-07-28: the server drops the subscriptions/listen stream (chaos-listen.ts) ----

/**
 * The stream is dropped after the first call; the client listens again, and the tool the server adds
 * afterwards reaches the catalog (announced on the new stream) and answers. Not a failure: no status line.
 */
function listenDropped(transport: 'stdio' | 'http'): FaultCase {
  return {
    id: `${transport}/listen-drop`,
    transport,
    chaosArgs: ['--mode', 'listen-drop'],
    outcome: 'ready (2026-07-28); the dropped subscriptions/listen stream is opened again, and the tool the server adds afterwards reaches the catalog and answers; no status line',
    async exercise(subject, run) {
      run.notes.push(`tools: ${await subject.toolCount('chaos')}`);
      await echo(subject, run, 'ping'); // the server drops the stream after answering it
      const count = await waitFor(async () => ((await subject.toolCount('chaos')) === 3 ? 3 : undefined), 'the added tool in the catalog', 15_000).catch(
        async () => subject.toolCount('chaos'),
      );
      run.notes.push(`tools after the drop: ${count}`);
      await call(subject, run, 'added', {});
    },
    verify(run) {
      ready(run);
      expect(run.notes).toEqual(['tools: 2', 'tools after the drop: 3']);
      expect(run.calls).toEqual([ok('ping'), ok('called added')]);
      expect(run.failureLines).toEqual([]);
    },
  };
}

export const LISTEN_CASES: FaultCase[] = [listenDropped('stdio'), listenDropped('http')];

export const FAULT_CASES: readonly FaultCase[] = [...STDIO_CASES, ...MODERN_STDIO_CASES, ...HTTP_CASES, ...MODERN_HTTP_CASES, ...LISTEN_CASES];

/**
 * The modes where the gateway adds behaviour of its own: status lines for a failed start, a timeout,
 * a crash and a restart; calls failing as error results (a dying server, a timeout, a 401); relaying
 * concurrent answers, a 5,003-tool catalog and a 50 MiB result over its one stdio pipe; and its
 * process tree. The other modes exercise the connection manager underneath, which the manager rows
 * cover; FAULT_MATRIX_ALL_ROWS=1 runs every mode for the gateway too.
 */
export const GATEWAY_ROWS: readonly string[] = [
  'stdio/healthy',
  'stdio/no-initialize (startup_timeout_sec 3)',
  'stdio/exit-on-initialize',
  'stdio/exit-mid-call',
  'stdio/exit-after-calls 3 (restart after 300 ms)',
  'stdio/half-frame (tool_timeout_sec 4)',
  'stdio/out-of-order',
  'stdio/many-tools 5,000',
  'stdio/grandchildren ignoring SIGTERM',
  'http/exit-mid-call',
  'http/huge-result 50 MiB',
  'http/http-401 always',
  'http/http-401 0.3 seed 14',
];

/**
 * The rows `npm test` runs, each on one of the subjects that have it, in turn (fault-matrix.test.ts's
 * inSlice; SWITCHBOARD_TEST_FULL=1 runs every row on every subject,
 * test/support/long-runs.ts): a healthy server, a start that never answers and one that exits, a crash
 * mid-call and a crash with restart, answers out of order, over HTTP a crash and a 401, for the manager
 * a 2026-07-28 server and an expiring session, and the protected gateway with its authorization server
 * down. The long tool timeouts, the 50 MiB results, the 10,000-tool catalogs and the rest wait for the full run.
 */
export const SLICE_ROWS: readonly string[] = [
  'stdio/healthy',
  'stdio/no-initialize (startup_timeout_sec 3)',
  'stdio/exit-on-initialize',
  'stdio/exit-mid-call',
  'stdio/exit-after-calls 3 (restart after 300 ms)',
  'stdio/out-of-order',
  'stdio/modern',
  'http/exit-mid-call',
  'http/http-expire-session every 3 requests',
  'http/http-401 always',
  'http/authorization server down',
];

/** The gateway subjects: `gateway` (stdio, one client) and `gateway ×N` (HTTP, N clients). */
export function isGateway(subject: string): boolean {
  return subject.startsWith('gateway');
}

/** The rows a subject runs: every mode for the manager, GATEWAY_ROWS for the gateways. */
export function casesFor(subject: string, all = process.env.FAULT_MATRIX_ALL_ROWS === '1'): FaultCase[] {
  const unknown = GATEWAY_ROWS.filter((id) => !FAULT_CASES.some((c) => c.id === id));
  if (unknown.length > 0) throw new Error(`GATEWAY_ROWS names modes the matrix does not have: ${unknown.join(', ')}`);
  return isGateway(subject) && !all ? FAULT_CASES.filter((c) => GATEWAY_ROWS.includes(c.id)) : [...FAULT_CASES];
}

// The policy matrix of issue 31, as one table: every road a request can take (each method the two
// products register, the task methods the host adds, the notifications they take, and the few roads
// of the host itself) against every policy, saying what must hold there or why the policy does not
// apply. `roads()` expands it over the surfaces that serve each row, both revisions and both
// transports; the test files under test/policy/ check every cell that applies against real processes.
export const POLICIES = ['enabled_tools', 'disabled_tools', 'deny', 'rate', 'calls', 'audit', 'span', 'ceiling', 'bound', 'uri', 'view'] as const;
export type Policy = (typeof POLICIES)[number];


export type Era = 'legacy' | 'modern';
export type Transport = 'http' | 'stdio';
export type Surface = 'serve' | 'transparent' | 'tool-search' | 'mcp-server';
export const ERA_NAMES: Record<Era, string> = { legacy: '2025-11-25', modern: '2026-07-28' };

/** What must hold (`gap`: a known gap being closed, named so its failure is expected) or why it does not apply. */
export type Cell = { holds: string; gap?: string } | { na: string };
type CellSpec = Cell | { legacy: Cell; modern: Cell };

const holds = (text: string, gap?: string): Cell => (gap ? { holds: text, gap } : { holds: text });
const na = (reason: string): Cell => ({ na: reason });
const byEra = (legacy: Cell, modern: Cell): CellSpec => ({ legacy, modern });

/** A row: one road (a method, a task-augmented call, a notification, a road of the host's own) and its cells. */
export interface Row {
  road: string;
  /** The JSON-RPC method the road registers (null for a host road that is no method). */
  method: string | null;
  kind: 'request' | 'task-call' | 'notification' | 'host';
  eras: readonly Era[];
  transports: readonly Transport[];
  cells: Record<Policy, CellSpec>;
}

const BOTH = ['legacy', 'modern'] as const, LEGACY = ['legacy'] as const, MODERN = ['modern'] as const;
const ANY = ['http', 'stdio'] as const, HTTP = ['http'] as const;

// The cells many rows share.
const NOT_A_TOOL = na('the tool filter names tools; this road names none');
const NO_TASK = na('a filtered tool never gets a task (its tools/call+task row)');
const COUNTED = holds('counted: once the minute is spent it is refused with 429 and Retry-After');
const NO_SLOT = na('only a tools/call takes a call slot');
const RECORD = holds('one record: caller, method, outcome');
const SPAN = holds('a server span named for the method, in its revision');
const NO_ARGS = na('only codex and codex-reply take agent arguments');
export const SESSION_BOUND = "its session serves only the caller that opened it: another caller's request on it is refused (404)";
const SESSION = holds(SESSION_BOUND);
const ONE_ROUND = na('answered in one round: it carries no request state');
const BOUND = byEra(SESSION, ONE_ROUND);
const NO_URI = na('names no resource URI');
const OWN_ANSWER = na('answers with its own result; what the server sends outside a request is checked on the stream rows');
const NOT_A_REQUEST = na('a notification has no answer: audit records and spans are per request');
const OWN_TASK = holds("another caller's task id is refused like an unknown one");

function row(road: string, method: string | null, kind: Row['kind'], eras: readonly Era[], cells: Record<Policy, CellSpec>, transports: readonly Transport[] = ANY): Row {
  return { road, method, kind, eras, transports, cells };
}

/** The gateway's handler table (gateway-handlers.ts), served by `serve` and `serve --transparent`. */
export const GATEWAY_ROWS: readonly Row[] = [
  row('tools/list', 'tools/list', 'request', BOTH, {
    enabled_tools: holds('a tool not enabled is not listed'),
    disabled_tools: holds('a disabled tool is not listed'),
    deny: holds('a denied tool, and every tool of a server outside the view, is not listed'),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: BOUND, uri: NO_URI, view: OWN_ANSWER,
  }),
  row('tools/call', 'tools/call', 'request', BOTH, {
    enabled_tools: holds('a tool not enabled is refused'),
    disabled_tools: holds('a disabled tool is refused'),
    deny: holds('a denied tool is refused like an unknown one'),
    rate: COUNTED,
    calls: holds('a call beyond the caller\'s concurrent calls is refused with 429; the refusal is audited naming the tool'),
    audit: holds('one record naming the tool and its upstream'),
    span: holds('a server span for the tool, parent of the manager\'s span to the upstream'),
    ceiling: NO_ARGS,
    bound: byEra(SESSION, holds("another caller's retry with its requestState is refused")),
    uri: NO_URI,
    view: na('what a call hears comes from the server it called, which its caller sees'),
  }),
  row('tools/call+task', 'tools/call', 'task-call', BOTH, {
    enabled_tools: holds('a tool not enabled is refused; no task is created'),
    disabled_tools: holds('a disabled tool is refused; no task is created'),
    deny: holds('a denied tool is refused; no task is created'),
    rate: COUNTED,
    calls: holds('a running task takes a call slot: a call beyond the limit is refused with 429'),
    audit: holds('one record naming the tool and its upstream'),
    span: SPAN,
    ceiling: NO_ARGS,
    bound: byEra(SESSION, na('it answers with a task id: the tasks/* rows check that id is its caller\'s')),
    uri: NO_URI,
    view: na('a task\'s status and questions go to its own client (the tasks/* rows)'),
  }),
  row('resources/list', 'resources/list', 'request', BOTH, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: holds('a denied resource, and every resource of a server outside the view, is not listed'),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: BOUND,
    uri: na('a list: the caller spells no URI'), view: OWN_ANSWER,
  }),
  row('resources/templates/list', 'resources/templates/list', 'request', BOTH, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: holds('a denied template, and every template of a server outside the view, is not listed'),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: BOUND,
    uri: na('a list: the caller spells no URI'), view: OWN_ANSWER,
  }),
  row('resources/read', 'resources/read', 'request', BOTH, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: holds('a denied resource (listed or through a template) is not found'),
    rate: COUNTED, calls: NO_SLOT, audit: holds('one record naming the URI and its upstream'), span: SPAN, ceiling: NO_ARGS,
    bound: byEra(SESSION, holds("another caller's retry with its requestState is refused")),
    uri: holds('another spelling of a denied URI (case, dot segments, percent-encoding, 01 for 1) is not found'),
    view: OWN_ANSWER,
  }),
  row('resources/subscribe', 'resources/subscribe', 'request', LEGACY, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: holds('a denied resource cannot be subscribed'),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: SESSION,
    uri: holds('another spelling of a denied URI cannot be subscribed; the upstream is not subscribed'),
    view: na('its updates are checked when subscribing (deny, uri)'),
  }),
  row('resources/unsubscribe', 'resources/unsubscribe', 'request', LEGACY, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: na("it ends only the caller's own subscription: nothing of another's to reach"),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: SESSION,
    uri: na("it ends only the caller's own subscription, however spelled"), view: OWN_ANSWER,
  }),
  row('prompts/list', 'prompts/list', 'request', BOTH, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: holds('a denied prompt, and every prompt of a server outside the view, is not listed'),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: BOUND, uri: NO_URI, view: OWN_ANSWER,
  }),
  row('prompts/get', 'prompts/get', 'request', BOTH, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: holds('a denied prompt is refused like an unknown one'),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS,
    bound: byEra(SESSION, holds("another caller's retry with its requestState is refused")),
    uri: NO_URI, view: OWN_ANSWER,
  }),
  row('completion/complete', 'completion/complete', 'request', BOTH, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: holds('completing a denied prompt or template is refused'),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: BOUND,
    uri: na('a template is named by its exact text, which upstreams match verbatim: no spelling reaches another'),
    view: OWN_ANSWER,
  }),
  row('logging/setLevel', 'logging/setLevel', 'request', LEGACY, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: na("it sets the caller's own level: what passes it is filtered on the stream row"),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: SESSION, uri: NO_URI,
    view: na('what passes the level is checked on the session stream row'),
  }),
  row('notifications/roots/list_changed', 'notifications/roots/list_changed', 'notification', BOTH, {
    enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
    deny: na('it names nothing: every upstream that asks for roots is told'),
    rate: byEra(
      holds('a caller whose minute is spent has its notification refused, and no upstream hears it'),
      na('the 2026-07-28 revision has no such notification (a request carries its roots): the SDK takes it and drops it'),
    ),
    calls: NO_SLOT, audit: NOT_A_REQUEST, span: NOT_A_REQUEST, ceiling: NO_ARGS,
    bound: na('it carries no state'), uri: NO_URI, view: na('it is sent, not received'),
  }),
];

/** The task methods the host adds for a product with tasks (task-handlers.ts), and what holds on them. */
function taskRow(method: string, eras: readonly Era[], bound: Cell = OWN_TASK): Row {
  return row(method, method, 'request', eras, {
    enabled_tools: NO_TASK, disabled_tools: NO_TASK,
    deny: na("a denied tool never gets a task (tools/call+task); a task is its creator's (bound)"),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS,
    bound, uri: NO_URI, view: na("a task's status reaches only the session that created it"),
  });
}

export const TASK_ROWS: readonly Row[] = [
  taskRow('tasks/get', BOTH),
  taskRow('tasks/result', LEGACY),
  taskRow('tasks/list', LEGACY, holds("another caller's tasks are not listed")),
  taskRow('tasks/cancel', BOTH),
  taskRow('tasks/update', MODERN),
];

/** `serve --tool-search` serves its own tools/list and tools/call (tool-search-handlers.ts) in place of the gateway's. */
export const TOOL_SEARCH_ROWS: readonly Row[] = [
  row('tools/list', 'tools/list', 'request', BOTH, {
    enabled_tools: holds('a tool not enabled of an always_loaded server is not listed'),
    disabled_tools: holds('a disabled tool of an always_loaded server is not listed'),
    deny: holds('a denied tool of an always_loaded server is not listed'),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: BOUND, uri: NO_URI, view: OWN_ANSWER,
  }),
  row('tools/call search_tools', 'tools/call', 'request', BOTH, {
    enabled_tools: holds('a tool not enabled is not found'),
    disabled_tools: holds('a disabled tool is not found'),
    deny: holds('a denied tool, or one of a server outside the view, is not found'),
    rate: COUNTED, calls: holds('it takes a call slot like any tools/call: beyond the limit it is refused with 429, audited naming it'),
    audit: holds('one record naming search_tools'), span: SPAN, ceiling: NO_ARGS, bound: BOUND, uri: NO_URI, view: OWN_ANSWER,
  }),
  row('tools/call call_tool', 'tools/call', 'request', BOTH, {
    enabled_tools: holds('a tool not enabled is refused'),
    disabled_tools: holds('a disabled tool is refused'),
    deny: holds('a denied tool is refused like an unknown one, before its arguments are checked'),
    rate: COUNTED, calls: holds('a call beyond the limit is refused with 429, audited naming the real tool'),
    audit: holds('one record naming the real tool and its upstream'), span: SPAN, ceiling: NO_ARGS,
    bound: byEra(SESSION, holds("another caller's retry with its requestState is refused")), uri: NO_URI,
    view: na('what a call hears comes from the server it called, which its caller sees'),
  }),
  row('tools/call (listed tool)', 'tools/call', 'request', BOTH, {
    enabled_tools: holds('a tool not enabled is refused'),
    disabled_tools: holds('a disabled tool is refused'),
    deny: holds('a denied tool is refused like an unknown one'),
    rate: COUNTED, calls: holds('a call beyond the limit is refused with 429, audited naming the tool'),
    audit: holds('one record naming the tool and its upstream'), span: SPAN, ceiling: NO_ARGS, bound: BOUND, uri: NO_URI,
    view: na('what a call hears comes from the server it called, which its caller sees'),
  }),
  row('tools/call+task call_tool', 'tools/call', 'task-call', BOTH, {
    enabled_tools: holds('a tool not enabled is refused; no task is created'),
    disabled_tools: holds('a disabled tool is refused; no task is created'),
    deny: holds('a denied tool is refused; no task is created'),
    rate: COUNTED, calls: NO_SLOT, audit: holds('one record naming the real tool and its upstream'), span: SPAN, ceiling: NO_ARGS,
    bound: byEra(SESSION, na('it answers with a task id: the tasks/* rows check that id is its caller\'s')), uri: NO_URI,
    view: na("a task's status and questions go to its own client (the tasks/* rows)"),
  }),
];

const OWN_TOOLS = na("the agent server's own tools (codex, codex-reply) take no [mcp_servers] filter");
const NO_ASK = na('the agent server has no upstreams to name');

/** The agent server's handler table (codex-product.ts), served by `mcp-server`. */
export const CODEX_ROWS: readonly Row[] = [
  row('tools/list', 'tools/list', 'request', BOTH, {
    enabled_tools: OWN_TOOLS, disabled_tools: OWN_TOOLS,
    deny: holds("a tool outside the caller's rule is not listed"),
    rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: na('a list takes no arguments'), bound: BOUND, uri: NO_URI, view: OWN_ANSWER,
  }),
  row('tools/call', 'tools/call', 'request', BOTH, {
    enabled_tools: OWN_TOOLS, disabled_tools: OWN_TOOLS,
    deny: holds("a tool outside the caller's rule is refused like an unknown one"),
    rate: COUNTED,
    calls: holds('a call beyond the caller\'s concurrent calls is refused with 429; the refusal is audited naming the tool'),
    audit: holds('one record naming the tool'), span: SPAN,
    ceiling: holds("an argument beyond the caller's ceiling (a looser sandbox, a cwd outside the server's) is refused, naming it"),
    bound: byEra(
      holds("its session serves only its caller; another caller's codex-reply on its thread is refused"),
      holds("another caller's retry with its requestState (an approval) is refused, and so is its codex-reply on the thread"),
    ),
    uri: NO_URI, view: na("codex/event and approvals go on the call's own stream"),
  }),
  row('tools/call+task', 'tools/call', 'task-call', BOTH, {
    enabled_tools: OWN_TOOLS, disabled_tools: OWN_TOOLS,
    deny: holds("a tool outside the caller's rule is refused; no task is created"),
    rate: COUNTED, calls: holds('a running task takes a call slot: a call beyond the limit is refused with 429'),
    audit: holds('one record naming the tool'), span: SPAN,
    ceiling: holds("an argument beyond the caller's ceiling (a looser sandbox, a cwd outside the server's) fails the task, naming it"),
    bound: byEra(SESSION, na('it answers with a task id: the tasks/* rows check that id is its caller\'s')), uri: NO_URI,
    view: na("a task's events go to the session that created it"),
  }),
  ...['prompts/list', 'resources/list', 'resources/templates/list'].map((method) =>
    row(method, method, 'request', MODERN, {
      enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL, deny: na('always empty: the agent server offers none'),
      rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: ONE_ROUND, uri: NO_URI, view: OWN_ANSWER,
    }),
  ),
];

/** Roads of the host itself (serve.ts, the HTTP door): no product registers them, every request takes one. */
function hostRows(product: 'gateway' | 'codex'): Row[] {
  const instructions = product === 'gateway' ? holds('its instructions name only the servers the caller sees') : NO_ASK;
  const opening = { enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL, deny: na('what the caller may reach is checked per request'), rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, uri: NO_URI, view: instructions };
  const refusal = (what: string) => ({ ...NONE_AT_THE_DOOR, audit: holds(`the refusal is recorded (${what})`) });
  const rows = [
    row('initialize', 'initialize', 'host', LEGACY, { ...opening, bound: na('it opens the session') }),
    row('server/discover', 'server/discover', 'host', MODERN, { ...opening, bound: ONE_ROUND }),
    row('refusal: bad token (401, 403)', null, 'host', BOTH, refusal('with whatever identity is known'), HTTP),
    row("refusal: another caller's session", null, 'host', LEGACY, refusal("the caller and the session it tried"), HTTP),
    row('refusal: replayed requestState', null, 'host', MODERN, refusal('the caller that replayed it'), HTTP),
  ];
  if (product === 'codex') return rows;
  return [
    ...rows,
    row('subscriptions/listen', 'subscriptions/listen', 'host', MODERN, {
      enabled_tools: NOT_A_TOOL, disabled_tools: NOT_A_TOOL,
      deny: holds('updates of a denied resource never reach it; the upstream is not subscribed for it'),
      rate: COUNTED, calls: NO_SLOT, audit: RECORD, span: SPAN, ceiling: NO_ARGS, bound: na("a stream of its caller's own"),
      uri: holds('another spelling of a denied URI: no upstream subscription, no update'),
      view: holds('list changes of a server outside the view never reach it'),
    }),
    row('session stream (GET)', null, 'host', LEGACY, {
      ...NONE_ON_THE_STREAM,
      view: holds('log messages outside requests, status lines and list changes about a server outside the view never reach it'),
    }, HTTP),
  ];
}

const NONE_AT_THE_DOOR: Record<Policy, Cell> = Object.fromEntries(POLICIES.map((p) => [p, na('refused at the door, before any product policy')])) as Record<Policy, Cell>;
const NONE_ON_THE_STREAM: Record<Policy, Cell> = Object.fromEntries(POLICIES.map((p) => [p, na('a GET stream carries no request: only what it receives is checked')])) as Record<Policy, Cell>;

export const GATEWAY_HOST_ROWS: readonly Row[] = hostRows('gateway');
export const CODEX_HOST_ROWS: readonly Row[] = hostRows('codex');

// Probes of [server_auth] rules and canonical URIs on the gateway's resource, prompt and completion
// roads and on 2026-07-28 listen streams. Each refusal to a `team` caller is shown beside an `ops`
// caller (allowed everything) for whom the same request, the same spelling, is served.
import { expect } from 'vitest';
import { waitFor } from '../support/wait.js';
import type { Conn } from './conn.js';
import { listen } from './listener.js';
import type { Road } from './policy-matrix.js';
import { refusal, served, sleep, upstreamSeen, type Probe, type ProbeTable, type Target } from './policy-run.js';

type Resources = NonNullable<Target['names']['resource']>;

async function withConns<T>(t: Target, road: Road, work: (team: Conn, ops: Conn) => Promise<T>): Promise<T> {
  const [team, ops] = await Promise.all([t.open(road.era, 'team'), t.open(road.era, 'ops')]);
  try {
    return await work(team, ops);
  } finally {
    await Promise.all([team.close(), ops.close()]);
  }
}

const uris = async (conn: Conn, method: string, key: string, field: string) =>
  ((served(await conn.send(method), method)[key] ?? []) as Record<string, string>[]).map((r) => r[field]!);

const upstreamSubscriptions = async (t: Target) => (await upstreamSeen(t)).subscribed;

const read = (conn: Conn, uri: string) => conn.send('resources/read', { uri });

const deniedUris = (r: Resources) => [r.denied, r.deniedItem, ...(r.unseen ? [r.unseen] : [])];

const probes: Record<string, Probe> = {
  'resources/list': (t, road) =>
    withConns(t, road, async (team, ops) => {
      const r = t.names.resource!;
      expect(await uris(ops, 'resources/list', 'resources', 'uri')).toContain(r.denied);
      const mine = await uris(team, 'resources/list', 'resources', 'uri');
      expect(mine).toContain(r.asked);
      for (const uri of [r.denied, ...(r.unseen ? [r.unseen] : [])]) expect(mine, uri).not.toContain(uri);
    }),
  'resources/templates/list': (t, road) =>
    withConns(t, road, async (team, ops) => {
      const r = t.names.resource!;
      expect(await uris(ops, 'resources/templates/list', 'resourceTemplates', 'uriTemplate')).toContain(r.deniedTemplate);
      expect(await uris(team, 'resources/templates/list', 'resourceTemplates', 'uriTemplate')).not.toContain(r.deniedTemplate);
    }),
  'resources/read': (t, road) =>
    withConns(t, road, async (team, ops) => {
      const r = t.names.resource!;
      served(await read(team, r.readable), r.readable);
      for (const uri of deniedUris(r)) {
        served(await read(ops, uri), `ops reads ${uri}`);
        expect(refusal(await read(team, uri), uri)).toMatch(/not found/i);
      }
    }),
  'resources/subscribe': (t, road) =>
    withConns(t, road, async (team, ops) => {
      const r = t.names.resource!;
      served(await team.send('resources/subscribe', { uri: r.readable }), r.readable);
      for (const uri of deniedUris(r)) expect(refusal(await team.send('resources/subscribe', { uri }), uri)).toMatch(/not found/i);
      served(await ops.send('resources/subscribe', { uri: r.denied }), `ops subscribes ${r.denied}`);
      served(await ops.send('resources/unsubscribe', { uri: r.denied }), 'ops unsubscribes');
    }),
  'prompts/list': (t, road) =>
    withConns(t, road, async (team, ops) => {
      const p = t.names.prompt!;
      expect(await uris(ops, 'prompts/list', 'prompts', 'name')).toContain(p.denied);
      const mine = await uris(team, 'prompts/list', 'prompts', 'name');
      expect(mine).not.toContain(p.denied);
      expect(mine).toContain(p.asked);
    }),
  'prompts/get': (t, road) =>
    withConns(t, road, async (team, ops) => {
      const p = t.names.prompt!;
      served(await ops.send('prompts/get', { name: p.denied, arguments: { who: 'ada' } }), `ops gets ${p.denied}`);
      expect(refusal(await team.send('prompts/get', { name: p.denied, arguments: { who: 'ada' } }), p.denied)).toBe(`Unknown prompt: ${p.denied}`);
    }),
  'completion/complete': (t, road) =>
    withConns(t, road, async (team, ops) => {
      const { prompt: p, resource: r } = t.names;
      const asks = [
        { ref: { type: 'ref/prompt', name: p!.denied }, argument: { name: 'who', value: 'a' } },
        { ref: { type: 'ref/resource', uri: r!.deniedTemplate }, argument: { name: 'id', value: '1' } },
      ];
      for (const params of asks) {
        const values = (served(await ops.send('completion/complete', params), `ops completes ${JSON.stringify(params.ref)}`).completion as { values: string[] }).values;
        expect(values.length, `ops completes ${JSON.stringify(params.ref)}`).toBeGreaterThan(0);
        refusal(await team.send('completion/complete', params), JSON.stringify(params.ref));
      }
    }),
};

/** Other spellings of the denied URIs: the `ops` caller reads each (they name the resource), the `team` caller none. */
const uriRead: Probe = (t, road) =>
  withConns(t, road, async (team, ops) => {
    for (const uri of t.names.resource!.spellings) {
      served(await read(ops, uri), `ops reads ${uri}`);
      expect(refusal(await read(team, uri), uri), uri).toMatch(/not found/i);
    }
  });

/** Subscribing another spelling: refused, and the upstream never subscribed; `ops` subscribes it. */
const uriSubscribe: Probe = (t, road) =>
  withConns(t, road, async (team, ops) => {
    const r = t.names.resource!;
    // Earlier cells' subscriptions of it are gone once their sessions closed.
    await waitFor(async () => !(await upstreamSubscriptions(t)).includes(r.denied), `no subscription of ${r.denied} left upstream`, 20_000);
    for (const uri of r.spellings) expect(refusal(await team.send('resources/subscribe', { uri }), uri), uri).toMatch(/not found/i);
    expect(await upstreamSubscriptions(t)).not.toContain(r.denied);
    served(await ops.send('resources/subscribe', { uri: r.spellings[0]! }), `ops subscribes ${r.spellings[0]}`);
    expect(await upstreamSubscriptions(t)).toContain(r.denied);
    served(await ops.send('resources/unsubscribe', { uri: r.spellings[0]! }), 'ops unsubscribes');
  });

let marks = 0;
/** A listen stream for `uris` (and a marker it may subscribe): once the marker is subscribed upstream, `uris` were handled too. */
async function listening(t: Target, group: 'team' | 'ops', uris: string[]) {
  const r = t.names.resource!;
  const marker = r.subscribable(++marks);
  const { token } = await t.http!.token(group);
  const stream = await listen(t.http!.url, token, { resourceSubscriptions: [...uris, marker] });
  await waitFor(async () => (await upstreamSubscriptions(t)).includes(marker), `the upstream subscribed ${marker} for the stream`, 20_000);
  return stream;
}

/** A listen stream for a denied URI (or its other spellings): no upstream subscription, no update; `ops` hears the update. */
const listenProbe = (spelled: boolean): Probe => async (t) => {
  const r = t.names.resource!;
  const asked = spelled ? r.spellings.slice(0, 5) : [r.denied];
  await waitFor(async () => !(await upstreamSubscriptions(t)).includes(r.denied), `no subscription of ${r.denied} left upstream`, 20_000);
  const team = await listening(t, 'team', asked);
  try {
    expect(await upstreamSubscriptions(t), 'the upstream is not subscribed for the team').not.toContain(r.denied);
    const ops = await listening(t, 'ops', asked);
    try {
      await waitFor(async () => (await upstreamSubscriptions(t)).includes(r.denied), 'the upstream subscribed for ops', 20_000);
      const toucher = await t.open('legacy', 'ops');
      served(await toucher.send('tools/call', { name: r.touch, arguments: { uri: r.denied } }), 'touch');
      await toucher.close();
      // Spelled otherwise, the update (of the resource's one spelling) is matched by the listener's SDK on the text it asked for.
      if (!spelled) await waitFor(() => ops.notes.some((n) => n.params?.uri === r.denied), 'the update on the ops stream', 20_000);
      else await sleep(500);
      expect(team.notes.filter((n) => n.method === 'notifications/resources/updated'), 'updates on the team stream').toEqual([]);
    } finally {
      await ops.close();
    }
  } finally {
    await team.close();
  }
};

export const resourceProbes: ProbeTable = (policy, road) => {
  if (road.surface === 'mcp-server' || road.surface === 'tool-search') return undefined;
  const name = road.row.road;
  if (policy === 'deny') return name === 'subscriptions/listen' ? listenProbe(false) : probes[name];
  if (policy === 'uri') return name === 'resources/read' ? uriRead : name === 'resources/subscribe' ? uriSubscribe : name === 'subscriptions/listen' ? listenProbe(true) : undefined;
  return undefined;
};

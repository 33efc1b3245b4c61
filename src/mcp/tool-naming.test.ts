import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assignToolNames, nameMayBelongTo, type RawToolRef } from './tool-naming.js';

const sha12 = (s: string) => createHash('sha1').update(s).digest('hex').slice(0, 12);

function names(refs: RawToolRef[], max?: number): Record<string, string> {
  return Object.fromEntries(assignToolNames(refs, max).tools.map((t) => [`${t.server}/${t.tool}`, t.name]));
}

describe('assignToolNames', () => {
  it('keeps short unique names as mcp__server__tool, hyphens included', () => {
    expect(names([{ server: 'music-studio', tool: 'get-strudel-guide' }, { server: 'server1', tool: 'tool1' }])).toEqual({
      'music-studio/get-strudel-guide': 'mcp__music-studio__get-strudel-guide',
      'server1/tool1': 'mcp__server1__tool1',
    });
  });

  it('replaces characters outside [A-Za-z0-9_-] with _', () => {
    expect(names([{ server: 'server.one', tool: 'tool.two three' }])).toEqual({ 'server.one/tool.two three': 'mcp__server_one__tool_two_three' });
  });

  it('gives every member of a sanitised collision a sha1 suffix of its raw identity', () => {
    const result = names([
      { server: 's', tool: 'tool.name' },
      { server: 's', tool: 'tool_name' },
      { server: 's', tool: 'other' },
    ]);
    expect(result['s/tool.name']).toBe(`mcp__s__tool_name_${sha12('s\u0000tool.name')}`);
    expect(result['s/tool_name']).toBe(`mcp__s__tool_name_${sha12('s\u0000tool_name')}`);
    expect(result['s/other']).toBe('mcp__s__other');
  });

  it('truncates over-long names to exactly the limit with a suffix, and keeps them unique', () => {
    const refs = [
      { server: 'my_server', tool: 'extremely_lengthy_function_name_that_absolutely_surpasses_all_reasonable_limits' },
      { server: 'my_server', tool: 'extremely_lengthy_function_name_that_absolutely_surpasses_all_reasonable_limits_2' },
    ];
    const out = Object.values(names(refs));
    expect(out.every((n) => Buffer.byteLength(n) === 64 && /^[A-Za-z0-9_-]+$/.test(n))).toBe(true);
    expect(new Set(out).size).toBe(2);
    expect(out[0]!.slice(0, 51)).toBe('mcp__my_server__extremely_lengthy_function_name_tha');
    expect(out[0]![51]).toBe('_');
  });

  it('honours a configured limit', () => {
    const out = names([{ server: 'srv', tool: 'a'.repeat(200) }], 128);
    expect(Buffer.byteLength(Object.values(out)[0]!)).toBe(128);
  });

  it('does not depend on the order the pairs arrive in', () => {
    const refs: RawToolRef[] = [];
    for (let s = 0; s < 5; s++) for (let t = 0; t < 20; t++) refs.push({ server: s % 2 ? `srv-${s}` : `srv_${s}`, tool: `t.${t % 7}-${t}` });
    refs.push({ server: 'a-b', tool: 'x' }, { server: 'a_b', tool: 'x' }, { server: 'a.b', tool: 'x' });
    const forward = assignToolNames(refs).tools;
    const shuffled = [...refs].sort(() => Math.random() - 0.5);
    expect(assignToolNames(shuffled).tools).toEqual(forward);
    expect(assignToolNames([...refs].reverse()).tools).toEqual(forward);
    expect(new Set(forward.map((t) => t.name)).size).toBe(forward.length);
  });

  it('drops exact duplicates and reports them', () => {
    const result = assignToolNames([
      { server: 's', tool: 'x' },
      { server: 's', tool: 'x' },
    ]);
    expect(result.tools).toHaveLength(1);
    expect(result.duplicates).toEqual([{ server: 's', tool: 'x' }]);
  });

  it('never lets a suffixed name take a plain one', () => {
    // A plain name that happens to look like a suffixed one keeps it; the colliding pair moves.
    const a = { server: 's', tool: 'p.q' };
    const b = { server: 's', tool: 'p_q' };
    const squatter = { server: 's', tool: `p_q_${sha12('s\u0000p.q')}` };
    const out = names([a, b, squatter]);
    expect(out['s/' + squatter.tool]).toBe(`mcp__s__${squatter.tool}`);
    expect(new Set(Object.values(out)).size).toBe(3);
  });
});

describe('nameMayBelongTo', () => {
  it('holds for every name a server\'s tools get (plain, suffixed, long server names) and rules out other servers', () => {
    const long = 'a-very-long-server-name-that-alone-takes-most-of-the-budget';
    const refs: RawToolRef[] = [
      { server: 'tiny', tool: 'tool_1' },
      { server: 'tiny', tool: 'x'.repeat(80) },
      { server: 'tiny', tool: 'dup.name' },
      { server: 'tiny', tool: 'dup_name' },
      { server: 'srv.dot', tool: 'go' },
      { server: long, tool: 'read' },
      { server: long, tool: 'write' },
    ];
    for (const max of [32, 64]) {
      for (const t of assignToolNames(refs, max).tools) {
        expect(nameMayBelongTo(t.name, t.server, max), `${t.name} of ${t.server} (max ${max})`).toBe(true);
        if (t.server !== 'tiny') expect(nameMayBelongTo(t.name, 'tiny', max)).toBe(false);
      }
    }
    expect(nameMayBelongTo('mcp__nope__x', 'tiny')).toBe(false);
    expect(nameMayBelongTo('tool_1', 'tiny')).toBe(false);
  });
});

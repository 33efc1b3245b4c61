import { describe, expect, it } from 'vitest';
import { scanToml } from './toml-scan.js';

describe('scanToml', () => {
  it('finds headers and key/values, with values spanning lines', () => {
    const text = [
      '# comment [not.a.header]',
      'model = "gpt-5" # trailing',
      'notify = [',
      '  "a", # inside',
      '  "b]",',
      ']',
      'when = 1979-05-27 07:32:00Z',
      'doc = """',
      '[mcp_servers.fake]',
      'command = "x" """',
      "lit = '''",
      "x = ''''",
      '[ mcp_servers . "a.b" ]',
      'env = { A = "1", B = { C = "}" } }',
      '[[profiles.list]]',
      'x.y = 2',
      '',
    ].join('\n');
    const st = scanToml(text);
    expect(st.map((s) => [s.kind, s.path.join('|')])).toEqual([
      ['keyval', 'model'],
      ['keyval', 'notify'],
      ['keyval', 'when'],
      ['keyval', 'doc'],
      ['keyval', 'lit'],
      ['header', 'mcp_servers|a.b'],
      ['keyval', 'mcp_servers|a.b|env'],
      ['header', 'profiles|list'],
      ['keyval', 'profiles|list|x|y'],
    ]);
    const notify = st[1]!;
    expect(notify.kind === 'keyval' && text.slice(notify.valueStart, notify.valueEnd)).toBe('[\n  "a", # inside\n  "b]",\n]');
    const when = st[2]!;
    expect(when.kind === 'keyval' && text.slice(when.valueStart, when.valueEnd)).toBe('1979-05-27 07:32:00Z');
    const model = st[0]!;
    expect(text.slice(model.start, model.end)).toBe('model = "gpt-5" # trailing\n');
    expect(st[7]).toMatchObject({ kind: 'header', array: true });
  });

  it('handles CRLF line ends and a missing final newline', () => {
    const text = '[a]\r\nb = 1\r\n\r\n[c]\r\nd = "x"';
    const st = scanToml(text);
    expect(st.map((s) => text.slice(s.start, s.end))).toEqual(['[a]\r\n', 'b = 1\r\n', '[c]\r\n', 'd = "x"']);
  });

  it('decodes quoted keys', () => {
    const st = scanToml('"a\\u0041" = 1\n\'b.c\' = 2\n');
    expect(st.map((s) => s.path)).toEqual([['aA'], ['b.c']]);
  });
});

import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { ConfigDocument } from './edit.js';

const FILE = '/h/config.toml';

const HEAD = `# switchboard / codex config — hand-written, keep my comments!
model = "gpt-5"   # the default model
approval_policy = "on-request"

# Profiles ------------------------------------------------------------
[profiles.fast]
model = "gpt-5-mini"   # cheaper

`;
const DOCS = `# The docs server (comment directly above the table)
[mcp_servers.docs]
command = "docs-server"   # binary on PATH
args = [
  "--port", # inline comment in an array
  "4000",
]
# a comment inside the table
startup_timeout_sec = 20.0
`;
const DOCS_ENV = `
[mcp_servers.docs.env]
DOCS_TOKEN = "abc"   # secret
`;
const GITHUB = `
[mcp_servers.github]
url = "https://api.example.com/mcp"
bearer_token_env_var = "GH_TOKEN"
`;
const TAIL = `
# ---------------------------------------------------------------------
[tui]
notifications = true  # keep

[projects."/home/me/work"]
trust_level = "trusted"
`;
const COMMENTED = HEAD + DOCS + DOCS_ENV + GITHUB + TAIL;

function doc(text: string): ConfigDocument {
  return ConfigDocument.parse(text, FILE);
}

describe('ConfigDocument: header tables', () => {
  it('adds a new server after the last mcp_servers table, every other byte unchanged', () => {
    const d = doc(COMMENTED);
    expect(d.setServer('fs', { command: 'npx', args: ['-y', 'fs'], env: { ROOT: '/tmp' } })).toBe('added');
    const added = '\n[mcp_servers.fs]\ncommand = "npx"\nargs = [ "-y", "fs" ]\n\n[mcp_servers.fs.env]\nROOT = "/tmp"\n';
    expect(d.text).toBe(HEAD + DOCS + DOCS_ENV + GITHUB + added + TAIL);
  });

  it('replaces a server in place, removing its old sub-tables', () => {
    const d = doc(COMMENTED);
    expect(d.setServer('docs', { command: 'docs2', env: { A: '1' } })).toBe('replaced');
    const replaced = `# The docs server (comment directly above the table)
[mcp_servers.docs]
command = "docs2"

[mcp_servers.docs.env]
A = "1"
`;
    expect(d.text).toBe(HEAD + replaced + GITHUB + TAIL);
  });

  it('removes a server and its sub-tables; comments outside the table stay', () => {
    const d = doc(COMMENTED);
    expect(d.removeServer('docs')).toBe(true);
    expect(d.text).toBe(`${HEAD}# The docs server (comment directly above the table)\n${GITHUB}${TAIL}`);
    expect(d.removeServer('docs')).toBe(false);
    expect(d.removeServer('github')).toBe(true);
    expect(d.text).toBe(`${HEAD}# The docs server (comment directly above the table)\n${TAIL}`);
  });

  it('removes sub-tables that sit elsewhere in the file', () => {
    const text = '[mcp_servers.a]\ncommand = "x"\n\n[tui]\nx = 1\n\n[mcp_servers.a.env]\nK = "v"\n\n[other]\ny = 2\n';
    const d = doc(text);
    d.removeServer('a');
    expect(d.text).toBe('[tui]\nx = 1\n\n[other]\ny = 2\n');
  });

  it('appends to a file without mcp_servers, and to an empty file', () => {
    const d = doc('model = "o3"\n\n\n');
    d.setServer('a', { command: 'x' });
    expect(d.text).toBe('model = "o3"\n\n[mcp_servers.a]\ncommand = "x"\n');
    const e = doc('');
    e.setServer('a', { url: 'http://127.0.0.1:1/mcp' });
    expect(e.text).toBe('[mcp_servers.a]\nurl = "http://127.0.0.1:1/mcp"\n');
    const f = doc('model = "o3"');
    f.setServer('a', { command: 'x' });
    expect(f.text).toBe('model = "o3"\n\n[mcp_servers.a]\ncommand = "x"\n');
  });

  it('removing the last table of a file leaves one line end', () => {
    const d = doc('model = "o3"\n\n[mcp_servers.a]\ncommand = "x"\n\n');
    d.removeServer('a');
    expect(d.text).toBe('model = "o3"\n');
  });

  it('keeps CRLF line ends', () => {
    const text = 'model = "o3"\r\n\r\n[mcp_servers.a]\r\ncommand = "x"\r\n\r\n[tui]\r\nx = 1\r\n';
    const d = doc(text);
    d.setServer('b', { command: 'y', env: { K: 'v' } });
    expect(d.text).toBe(
      'model = "o3"\r\n\r\n[mcp_servers.a]\r\ncommand = "x"\r\n\r\n[mcp_servers.b]\r\ncommand = "y"\r\n\r\n[mcp_servers.b.env]\r\nK = "v"\r\n\r\n[tui]\r\nx = 1\r\n',
    );
    d.removeServer('a');
    expect(d.text).toBe('model = "o3"\r\n\r\n[mcp_servers.b]\r\ncommand = "y"\r\n\r\n[mcp_servers.b.env]\r\nK = "v"\r\n\r\n[tui]\r\nx = 1\r\n');
  });

  it('is not fooled by table-like text inside strings', () => {
    const text = 'base_instructions = """\n[mcp_servers.fake]\ncommand = "x"\n"""\n';
    const d = doc(text);
    expect(d.hasServer('fake')).toBe(false);
    d.setServer('fake', { command: 'real' });
    expect(d.text).toBe(`${text}\n[mcp_servers.fake]\ncommand = "real"\n`);
    d.removeServer('fake');
    expect(d.text).toBe(text);
  });

  it('quotes names that need it and keeps dates elsewhere intact', () => {
    const d = doc('created = 1979-05-27T07:32:00Z\n');
    d.setServer('a.b', { command: 'x' });
    expect(d.text).toBe('created = 1979-05-27T07:32:00Z\n\n[mcp_servers."a.b"]\ncommand = "x"\n');
  });
});

describe('ConfigDocument: dotted keys and inline tables', () => {
  it('replaces a server written as dotted keys under [mcp_servers] with one inline table in place', () => {
    const text = '[mcp_servers]\n# docs\n  docs.command = "a"\n  docs.args = ["1"]\nother.command = "b"\n\n[tui]\nx = 1\n';
    const d = doc(text);
    d.setServer('docs', { command: 'c', env: { K: 'v' } });
    expect(d.text).toBe('[mcp_servers]\n# docs\n  docs = { command = "c", env = { K = "v" } }\nother.command = "b"\n\n[tui]\nx = 1\n');
    d.removeServer('docs');
    expect(d.text).toBe('[mcp_servers]\n# docs\nother.command = "b"\n\n[tui]\nx = 1\n');
  });

  it('adds a header table after an [mcp_servers] table of inline servers', () => {
    const text = '[mcp_servers]\na = { command = "x" }\n\n[tui]\nx = 1\n';
    const d = doc(text);
    d.setServer('b', { command: 'y' });
    expect(d.text).toBe('[mcp_servers]\na = { command = "x" }\n\n[mcp_servers.b]\ncommand = "y"\n\n[tui]\nx = 1\n');
    expect(parseToml(d.text).mcp_servers).toEqual({ a: { command: 'x' }, b: { command: 'y' } });
  });

  it('rewrites only the value of a root `mcp_servers = { ... }`', () => {
    const text = 'mcp_servers = { a = { command = "x" } } # all of them\nmodel = "o3"\n';
    const d = doc(text);
    d.setServer('b', { command: 'y' });
    expect(d.text).toBe('mcp_servers = { a = { command = "x" }, b = { command = "y" } } # all of them\nmodel = "o3"\n');
    d.removeServer('a');
    expect(d.text).toBe('mcp_servers = { b = { command = "y" } } # all of them\nmodel = "o3"\n');
  });

  it('handles root-level dotted servers', () => {
    const text = 'mcp_servers.a.command = "x"\nmcp_servers.a.args = ["1"]\nmodel = "o3"\n\n[tui]\nx = 1\n';
    const d = doc(text);
    d.setServer('a', { command: 'z' });
    expect(d.text).toBe('mcp_servers.a = { command = "z" }\nmodel = "o3"\n\n[tui]\nx = 1\n');
    d.setServer('b', { command: 'y' });
    expect(d.text).toBe('mcp_servers.a = { command = "z" }\nmodel = "o3"\n\n[tui]\nx = 1\n\n[mcp_servers.b]\ncommand = "y"\n');
  });
});

describe('ConfigDocument: errors', () => {
  it('reports a syntax error with file, line and column', () => {
    let err: unknown;
    try {
      doc('model = "o3"\n[mcp_servers.a\ncommand = "x"\n');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toMatch(/^\/h\/config\.toml:2:\d+: invalid TOML/);
  });

  it('refuses to edit when mcp_servers is not a table', () => {
    const d = doc('[[mcp_servers]]\ncommand = "x"\n');
    expect(() => d.setServer('a', { command: 'y' })).toThrow('mcp_servers must be a table');
  });
});

describe('ConfigDocument: random edit sequences', () => {
  it('always matches a model of the servers and keeps the head and tail whole', () => {
    const names = fc.constantFrom('docs', 'github', 'a', 'b-c', 'x_1');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), name: names, withEnv: fc.boolean(), arg: fc.string({ maxLength: 6, unit: "binary" }) }),
      fc.record({ kind: fc.constant('remove' as const), name: names }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        const d = doc(COMMENTED);
        const model: Record<string, unknown> = parseToml(COMMENTED).mcp_servers as Record<string, unknown>;
        for (const o of ops) {
          if (o.kind === 'set') {
            const table = o.withEnv ? { command: 'c', args: [o.arg], env: { K: o.arg } } : { command: 'c', args: [o.arg] };
            d.setServer(o.name, table);
            model[o.name] = table;
          } else {
            expect(d.removeServer(o.name)).toBe(o.name in model);
            delete model[o.name];
          }
        }
        const parsed = parseToml(d.text);
        expect(JSON.parse(JSON.stringify(parsed.mcp_servers ?? {}))).toEqual(model);
        expect(d.text.startsWith(HEAD)).toBe(true);
        // The tail stays whole (new servers go to the end once no mcp_servers table is left to follow).
        expect(d.text.includes(TAIL.slice(1))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

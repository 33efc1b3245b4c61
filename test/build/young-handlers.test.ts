// The build's rewrite of function literals assigned to properties in the MCP SDK's modules
// (scripts/bundle-options.ts): what it rewrites, what it leaves, and that the SDK's own modules come
// out rewritten where the per-request server's transport is wired, and still parse.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { handlersFromConsts } from '../../scripts/bundle-options.js';

const run = promisify(execFile);

describe('handlersFromConsts', () => {
  it('makes each literal a const first, then assigns it: multi-line, one line, async', () => {
    const code = ['\tconnect(t) {', '\t\tthis._transport.onclose = () => {', '\t\t\tthis._onclose();', '\t\t};', '\t\tt.cleanup = async () => stop(t);', '\t}'].join('\n');
    const { code: out, rewritten } = handlersFromConsts(code);
    expect(rewritten).toBe(2);
    expect(out.split('\n')).toEqual([
      '\tconnect(t) {',
      '\t\tconst __onclose0 = () => {',
      '\t\t\tthis._onclose();',
      '\t\t};',
      '\t\tthis._transport.onclose = __onclose0;',
      '\t\tconst __cleanup1 = async () => stop(t);',
      '\t\tt.cleanup = __cleanup1;',
      '\t}',
    ]);
  });

  it('leaves an assignment that is not a statement of its own, and other assignments', () => {
    const code = ['if (ready)', '\tthis.onclose = () => done();', 'switch (k) {', '\tcase 1:', '\t\tthis.x = () => 1;', '}', 'this.value = compute();', 'handler = () => 2;'].join('\n');
    expect(handlersFromConsts(code)).toEqual({ code, rewritten: 0 });
  });

  it("rewrites the SDK's Protocol.connect wiring, and what it writes still parses", async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'young-handlers-'));
    try {
      let connectWired = 0;
      for (const pkg of ['server', 'client', 'core', 'node']) {
        const dir = path.join(process.cwd(), 'node_modules', '@modelcontextprotocol', pkg, 'dist');
        for (const file of (await readdir(dir)).filter((f) => f.endsWith('.mjs'))) {
          const { code, rewritten } = handlersFromConsts(await readFile(path.join(dir, file), 'utf8'));
          if (rewritten === 0) continue;
          if (/const __onmessage\d+ = \(message, extra\) => \{[\s\S]*?this\._transport\.onmessage = __onmessage\d+;/.test(code)) connectWired++;
          expect(code).not.toMatch(/^\s*this\._transport\.on(close|error|message) = \(/m);
          const out = path.join(tmp, `${pkg}-${file}`);
          await writeFile(out, code);
          await run(process.execPath, ['--check', out]);
        }
      }
      expect(connectWired).toBeGreaterThanOrEqual(2); // the server's Protocol and the client's
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});

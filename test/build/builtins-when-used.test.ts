// The build's rewrite of Node built-in imports (scripts/bundle-options.ts, builtinsByGetBuiltinModule):
// built-ins TAKEN_WHEN_USED are taken at their first call, not when the chunk runs; anything that
// cannot be deferred (a constant, a class) is taken as before. Each rewritten chunk is run by Node.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { builtinsByGetBuiltinModule } from '../../scripts/bundle-options.js';

const run = promisify(execFile);
const render = (code: string) => builtinsByGetBuiltinModule.renderChunk(code).code;

/** Runs `code` as an ES module; its stdout. `print` writes to it without making process.stdout, which loads net. */
async function evaluate(code: string): Promise<string> {
  const print = 'const print = (...values) => process.getBuiltinModule("node:fs").writeSync(1, values.join(" ") + "\\n");';
  return (await run(process.execPath, ['--input-type=module', '-e', `${print}\n${code}`])).stdout;
}

const loaded = (id: string) => `process.moduleLoadList.includes('NativeModule ${id}')`;

describe('built-ins taken when used', () => {
  it('takes fs/promises and net at the first call of a function named from them, not before', async () => {
    const chunk = render(
      [
        'import { readFile, stat as statOf } from "node:fs/promises";',
        'import { isIP } from "node:net";',
        `print(${loaded('internal/fs/promises')}, ${loaded('net')});`,
        'print(isIP("127.0.0.1"), (await statOf(".")).isDirectory(), typeof (await readFile(process.execPath)).length);',
        `print(${loaded('internal/fs/promises')}, ${loaded('net')});`,
      ].join('\n'),
    );
    expect(chunk).not.toMatch(/^import /m);
    expect((await evaluate(chunk)).split('\n')).toEqual(['false false', '4 true number', 'true true', '']);
  });

  it('takes a statement that names a constant or a class when the chunk runs, as before', async () => {
    const chunk = render(['import { constants, readFile } from "node:fs/promises";', 'import { Socket } from "node:net";', `print(${loaded('internal/fs/promises')}, ${loaded('net')}, typeof new Socket());`].join('\n'));
    expect(chunk).toContain('const { constants, readFile } = globalThis.process.getBuiltinModule("node:fs/promises");');
    expect(await evaluate(chunk)).toBe('true true object\n');
  });

  it('rewrites a default and named import of one built-in together', async () => {
    const chunk = render(['import fs, { writeSync } from "node:fs";', 'writeSync(1, String(typeof fs.readFileSync) + "\\n");'].join('\n'));
    expect(chunk).not.toMatch(/^import /m);
    expect(await evaluate(chunk)).toBe('function\n');
  });
});

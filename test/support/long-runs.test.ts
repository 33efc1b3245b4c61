// `npm test` takes slices of the long runs; CI's full run must cover every one of them: each test file
// that slices (imports long-runs.js, itself or through a helper) is named by `npm run test:reliability`, which .ci/run runs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli.js';
import { FULL_VAR } from './long-runs.js';

const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');

/** Whether `file` imports `module` (a path under test/, as `./x.js` or `../dir/x.js`). */
function imports(file: string, module: string): boolean {
  const rel = path.relative(path.dirname(file), module).replace(/\.ts$/, '.js');
  const spec = rel.startsWith('.') ? rel : `./${rel}`;
  return read(file).includes(`from '${spec}'`);
}

describe('the long runs', () => {
  it('npm run test:reliability runs every file that slices one, whole, and .ci/run runs it', () => {
    const script = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts['test:reliability']!;
    const modules = readdirSync(path.join(REPO, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join('test', f));
    // A file slices when it imports long-runs.js, or a helper of test/ that does (the policy matrix's policy-run.ts).
    const LONG_RUNS = 'test/support/long-runs.ts';
    const helpers = modules.filter((f) => !f.endsWith('.test.ts') && f !== LONG_RUNS && imports(f, LONG_RUNS));
    const slicing = modules.filter((f) => f.endsWith('.test.ts') && f !== 'test/support/long-runs.test.ts' && [LONG_RUNS, ...helpers].some((m) => imports(f, m)));
    expect(slicing).toContain('test/policy/serve-http.test.ts');
    const named = script.split(' ');
    for (const file of slicing) expect(named.some((n) => n === file || (n.endsWith('/') && file.startsWith(n))), `${file} slices a long run`).toBe(true);
    expect(script).toContain(`${FULL_VAR}=1 `);
    expect(read('.ci/run')).toMatch(/^npm run test:reliability$/m);
  });
});

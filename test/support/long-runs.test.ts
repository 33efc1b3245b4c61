// `npm test` takes slices of the long runs; CI's full run must cover every one of them: each test file
// that slices (imports long-runs.js) is named by `npm run test:reliability`, which .ci/run runs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './cli.js';
import { FULL_VAR } from './long-runs.js';

const read = (file: string) => readFileSync(path.join(REPO, file), 'utf8');

describe('the long runs', () => {
  it('npm run test:reliability runs every file that slices one, whole, and .ci/run runs it', () => {
    const script = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts['test:reliability']!;
    const slicing = readdirSync(path.join(REPO, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => path.join('test', f))
      .filter((f) => /from '(\.\.\/)+support\/long-runs\.js'/.test(read(f)));
    expect(slicing.length).toBeGreaterThan(0);
    for (const file of slicing) expect(script, `${file} slices a long run`).toContain(file);
    expect(script).toContain(`${FULL_VAR}=1 `);
    expect(read('.ci/run')).toMatch(/^npm run test:reliability$/m);
  });
});

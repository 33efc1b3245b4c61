// The README's main command: `npm run demo` (the build is done by `npm test` before vitest runs)
// must keep working end to end against the real third-party servers it configures.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('npm run demo', () => {
  it('lists, starts and calls server-everything (stdio and HTTP) and server-filesystem, then warm-starts', async () => {
    const child = spawn(process.execPath, [path.join(REPO, 'scripts/demo.mjs')], { cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, out }).toMatchObject({ code: 0 });
    expect(out).toContain('Echo: hello from switchboard');
    expect(out).toContain('42');
    expect(out).toContain('Hello from the switchboard demo.');
    expect(out).toMatch(/warm start: .* in \d+ ms/);
  }, 120_000);
});

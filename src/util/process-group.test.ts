import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signalGroup, terminateGroup } from './process-group.js';

/** A shell leading its own process group, with a child that ignores SIGTERM when `stubborn`. */
async function group(stubborn: boolean): Promise<number> {
  const trap = stubborn ? "trap '' TERM; " : '';
  const child = spawn('sh', ['-c', `${trap}sleep 30 & echo ready; wait`], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return child.pid!;
}

/** Members of the group that are still running (zombies excluded: containers may not reap orphans). */
function running(pgid: number): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z' ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

describe.skipIf(process.platform !== 'linux')('process groups', () => {
  it('SIGTERM ends a group that honours it, without waiting for the grace', async () => {
    const pgid = await group(false);
    expect(running(pgid)).toHaveLength(2);
    const started = Date.now();
    await terminateGroup(pgid, 5_000);
    expect(running(pgid)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('SIGKILL follows the grace when a member ignores SIGTERM', async () => {
    const pgid = await group(true);
    const started = Date.now();
    await terminateGroup(pgid, 300);
    expect(running(pgid)).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('signalling a group that is gone reports false', () => {
    // A pid above the kernel's pid_max never names a group.
    expect(signalGroup(2 ** 22 + 1, 'SIGTERM')).toBe(false);
    expect(signalGroup(2 ** 22 + 1, 0)).toBe(false);
  });
});

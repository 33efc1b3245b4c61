// The /proc readings the bench's CPU rows rest on (bench/gateway-peers-procs.ts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuTimeMs } from './process-tree.js';
import { waitFor } from './wait.js';

describe('cpuTimeMs', () => {
  it("reads a process's CPU time, which grows while it computes, and 0 once it has exited", async () => {
    // Computes until it has used 400 ms of CPU (however busy the machine), then idles.
    const busy = spawn(process.execPath, ['-e', 'while (process.cpuUsage().user < 400_000); setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      const early = cpuTimeMs(busy.pid!);
      const later = await waitFor(() => {
        const ms = cpuTimeMs(busy.pid!);
        return ms >= 400 && ms;
      }, 'the busy child to reach 400 ms of CPU');
      expect(later).toBeGreaterThan(early);
    } finally {
      busy.kill('SIGKILL');
      await once(busy, 'exit');
    }
    expect(cpuTimeMs(busy.pid!)).toBe(0);
  });
});

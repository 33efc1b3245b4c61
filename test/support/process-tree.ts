// The processes below this one (Linux /proc): what a test started and did not clean up. Zombies do
// not count (they are exited; their parent just has not reaped them yet).
import { readdir, readFile } from 'node:fs/promises';
import { waitUntil } from './fixture-processes.js';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** The command line, NULs replaced by spaces. */
  command: string;
}

async function readProcess(pid: number): Promise<ProcessInfo | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid ...`; comm may itself contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    const command = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replace(/\0/g, ' ').trim();
    return { pid, ppid: Number(fields[1]), command };
  } catch {
    return undefined; // exited while we looked
  }
}

/** Every live process whose parent chain leads to `root` (default: this process). */
export async function descendants(root: number = process.pid): Promise<ProcessInfo[]> {
  const all: ProcessInfo[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = await readProcess(Number(entry));
    if (info) all.push(info);
  }
  const children = new Map<number, ProcessInfo[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcessInfo[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

/**
 * Waits (up to `timeoutMs`: a killed process needs a moment to be reaped) until no descendant is
 * left, and returns what was still there when it gave up: empty means clean.
 */
export async function leftoverDescendants(timeoutMs = 3_000): Promise<ProcessInfo[]> {
  let last: ProcessInfo[] = [];
  try {
    await waitUntil('no child processes', async () => {
      last = await descendants();
      return last.length === 0 ? true : undefined;
    }, timeoutMs);
    return [];
  } catch {
    return last;
  }
}

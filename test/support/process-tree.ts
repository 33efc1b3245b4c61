// Processes as Linux /proc shows them: alive or not, children, group members, the processes below
// this one (what a test started and did not clean up), and those whose command line carries a
// marker. Zombies never count (they have exited; their parent just has not reaped them yet).
import { readdirSync, readFileSync } from 'node:fs';
import { waitFor } from './wait.js';

/** `state ppid pgrp ...` from /proc/<pid>/stat (after `pid (comm) `; comm may hold spaces and parentheses). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function livePids(): number[] {
  return readdirSync('/proc').filter((e) => /^\d+$/.test(e)).map(Number);
}

/** Live processes whose stat fields satisfy `test` (a process that exits while we look is skipped). */
function liveWhere(test: (fields: string[]) => boolean): number[] {
  const out: number[] = [];
  for (const pid of livePids()) {
    try {
      const fields = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (fields[0] !== 'Z' && test(fields)) out.push(pid);
    } catch {
      // exited while we looked
    }
  }
  return out;
}

/** True when the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))[0] !== 'Z';
  } catch {
    return false;
  }
}

/** CPU time (user + system, ms) the process has used so far; 0 once it has exited. */
export function cpuTimeMs(pid: number): number {
  const stat = procFile(pid, 'stat');
  if (stat === undefined) return 0;
  const fields = statFields(stat);
  // utime and stime (stat's 14th and 15th fields), in clock ticks of 10 ms on Linux.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Pids of live processes whose parent is `ppid`. */
export function childrenOf(ppid: number): number[] {
  return liveWhere((fields) => Number(fields[1]) === ppid);
}

/** Pids of live processes in process group `pgid`. */
export function groupMembers(pgid: number): number[] {
  return liveWhere((fields) => Number(fields[2]) === pgid);
}

/** Kill leftovers a failed test may leave (by pid, never by name). */
export function killQuietly(pids: number[], signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** The text of a /proc file, or undefined when the process exited while we looked. */
function procFile(pid: string | number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return undefined;
  }
}

// The scans below read /proc synchronously: tests poll them every few milliseconds while processes
// exit, and with hundreds of processes on the machine the asynchronous reads (one thread-pool trip
// per file) cost about ten times the CPU. A process's state is read only when its command matches.

/** PIDs of live processes whose command line contains `marker`. */
export async function findProcessesByMarker(marker: string): Promise<number[]> {
  return livePids().filter((pid) => procFile(pid, 'cmdline')?.includes(marker) === true && isAlive(pid));
}

/** SIGKILLs every process carrying `marker` and waits until none is left; returns how many there were. */
export async function killProcessesByMarker(marker: string): Promise<number> {
  const pids = await findProcessesByMarker(marker);
  killQuietly(pids);
  await waitFor(async () => (await findProcessesByMarker(marker)).length === 0, `processes marked ${marker} to exit`);
  return pids.length;
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** The command line, NULs replaced by spaces. */
  command: string;
}

function readProcess(pid: number): ProcessInfo | undefined {
  const stat = procFile(pid, 'stat');
  if (stat === undefined) return undefined;
  const fields = statFields(stat);
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  const command = procFile(pid, 'cmdline');
  return command === undefined ? undefined : { pid, ppid: Number(fields[1]), command: command.replace(/\0/g, ' ').trim() };
}

/** Every live process whose parent chain leads to `root` (default: this process). */
export async function descendants(root: number = process.pid): Promise<ProcessInfo[]> {
  const all = livePids().flatMap((pid) => readProcess(pid) ?? []);
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
    await waitFor(async () => {
      last = await descendants();
      return last.length === 0;
    }, 'no child processes', timeoutMs);
    return [];
  } catch {
    return last;
  }
}

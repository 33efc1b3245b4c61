// Observing a process tree through Linux /proc: RSS, open file descriptors and descendants of a pid,
// and the processes that carry the soak's marker in their command line (for leftovers and cleanup).
import { readdir, readFile, readlink } from 'node:fs/promises';

/** Resident set size of one process in MiB (VmRSS), or null when it is gone. */
export async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  return kb === undefined ? null : Math.round((Number(kb) / 1024) * 10) / 10;
}

/** Open descriptors of pid by kind (socket, pipe, anon_inode, file). */
export async function openFds(pid) {
  const kinds = { socket: 0, pipe: 0, anon_inode: 0, file: 0 };
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const kind = /^(socket|pipe|anon_inode):/.exec(target)?.[1] ?? 'file';
    kinds[kind]++;
  }
  return { total: fds.length, ...kinds };
}

/** Every live (non-zombie) descendant of root, breadth first. */
export async function descendants(root) {
  const parents = new Map();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const s = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = s.slice(s.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') parents.set(Number(entry), Number(fields[1]));
    } catch {
      // gone
    }
  }
  const out = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [pid, ppid] of parents) {
      if (ppid !== parent) continue;
      out.push(pid);
      queue.push(pid);
    }
  }
  return out;
}

/** Live processes whose command line contains marker. */
export async function processesWithMarker(marker) {
  const found = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes(marker)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') found.push(Number(entry));
  }
  return found;
}

export async function killMarked(marker) {
  for (const pid of await processesWithMarker(marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/**
 * One sample of the measured process (the gateway, or this script for the manager subject): its RSS,
 * heap when it is this process, descriptors, and its descendants minus `exclude` with their summed RSS.
 */
export async function sampleTree(label, pid, { exclude = [], since = 0 } = {}) {
  const children = (await descendants(pid)).filter((p) => !exclude.includes(p));
  let childRss = 0;
  for (const c of children) childRss += (await rssMiB(c)) ?? 0;
  const self = pid === process.pid;
  const fds = await openFds(pid);
  return {
    label,
    atSeconds: Math.round((performance.now() - since) / 1000),
    rssMiB: await rssMiB(pid),
    ...(self ? { heapMiB: Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 10) / 10 } : {}),
    fds: fds.total,
    fdKinds: `${fds.socket} sockets, ${fds.pipe} pipes, ${fds.anon_inode} anon, ${fds.file} files`,
    childProcesses: children.length,
    childrenRssMiB: Math.round(childRss),
  };
}

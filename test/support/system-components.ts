// The programs some tests need beyond Node and npm, each probed the way its tests use it. A test that
// needs one carries its id as a vitest tag; vitest.config.ts skips the tags of missing components and
// the skip summary (skip-summary-reporter.ts) names them at the end of the run. The packages that
// provide them are listed in one place, scripts/setup-system.sh (`npm run setup:system`).
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { nginxBinary } from '../../scripts/cluster/cluster.mjs';
// The sandbox module itself, not core's index: the config loads this file, and all of core costs seconds.
import { installedJemalloc, jemallocPaths } from '../../src/cli/server-allocator.js';
import { BwrapSandbox } from '../../src/core/sandbox/bwrap.js';
import { POSTGRES_NOT_FOUND, postgresBinDir } from './postgres.js';
import { SSHD } from './test-sshd.js';

/** Hides components on a machine that has them, to try the skip path: `chromium,postgresql`, or `all`. */
export const HIDE_VAR = 'SWITCHBOARD_TEST_HIDE';
/** Set by .ci/run: a skipped test fails the run instead of being reported. */
export const NO_SKIP_VAR = 'SWITCHBOARD_TEST_NO_SKIP';
/** The one command that installs every component (Debian/Ubuntu; elsewhere it names the packages). */
export const INSTALL_COMMAND = 'npm run setup:system';

export interface SystemComponent {
  /** The vitest tag of the tests that need it. */
  id: ComponentId;
  /** What it is, for the summary. */
  what: string;
  /** Why the tests cannot use it here, or null when they can. */
  probe(): Promise<string | null> | string | null;
}

export type ComponentId = 'bubblewrap' | 'chromium' | 'firefox' | 'postgresql' | 'nginx' | 'sshd' | 'netns' | 'openssl' | 'jemalloc';

/** `which`: the path of `command` on PATH, or null. */
function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return null;
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

const file = (p: string, hint: string) => (existsSync(p) ? null : `${p} not found${hint}`);
const command = (name: string) => (onPath(name) ? null : `${name} is not on PATH`);

export const COMPONENTS: readonly SystemComponent[] = [
  {
    id: 'bubblewrap',
    what: 'bubblewrap, the Linux sandbox of the shell tool',
    // Not spawned when absent: a failed spawn is slow to report. Then the product's own probe.
    probe: async () =>
      command('bwrap') ??
      new BwrapSandbox().ensureAvailable().then(
        () => null,
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      ),
  },
  { id: 'chromium', what: "Chromium, the status page's first browser", probe: () => file(CHROMIUM, ' (or set CHROMIUM_PATH)') },
  { id: 'firefox', what: "Firefox ESR, the status page's second browser", probe: () => file(FIREFOX, ' (or set FIREFOX_PATH)') },
  {
    id: 'postgresql',
    what: 'PostgreSQL, the shared store (a throwaway server per test file)',
    probe: () => (postgresBinDir() ? null : POSTGRES_NOT_FOUND),
  },
  { id: 'nginx', what: "nginx, the cluster's load balancer", probe: () => (nginxBinary() ? null : 'nginx not found (looked in $SWITCHBOARD_NGINX, /usr/sbin, /usr/local/sbin, /usr/bin)') },
  { id: 'sshd', what: 'OpenSSH server and client, for the ssh launcher', probe: () => file(SSHD, '') ?? command('ssh') ?? command('ssh-keygen') },
  {
    id: 'netns',
    what: 'network namespaces (iproute2, run as root), for the exec-server across a veth pair',
    probe: () => {
      if (process.platform !== 'linux') return 'network namespaces need Linux';
      return command('ip') ?? (process.getuid?.() === 0 ? null : 'network namespaces need root (run the tests as root)');
    },
  },
  { id: 'openssl', what: "openssl, the exec-server TLS test's throwaway certificate", probe: () => command('openssl') },
  // Where the launcher looks for it (src/cli/server-allocator.ts).
  { id: 'jemalloc', what: 'jemalloc, the allocator a server command preloads where installed', probe: () => (installedJemalloc() !== undefined ? null : `libjemalloc.so.2 is in none of ${jemallocPaths(process.arch).join(', ')}`) },
];

/** The components named by $SWITCHBOARD_TEST_HIDE; an unknown name is an error that lists the known ones. */
export function hiddenComponents(value = process.env[HIDE_VAR] ?? ''): Set<ComponentId> {
  const ids = COMPONENTS.map((c) => c.id);
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.includes('all')) return new Set(ids);
  const unknown = names.filter((n) => !(ids as string[]).includes(n));
  if (unknown.length > 0) throw new Error(`${HIDE_VAR} names ${unknown.join(', ')}, which is not a system component; use some of: ${ids.join(', ')}, or all`);
  return new Set(names as ComponentId[]);
}

/** Every missing component and why, hidden ones included (in the table's order). */
export async function missingComponents(): Promise<Partial<Record<ComponentId, string>>> {
  const hidden = hiddenComponents();
  const reasons = await Promise.all(COMPONENTS.map(async (c) => (hidden.has(c.id) ? `hidden by ${HIDE_VAR}` : await c.probe())));
  const missing: Partial<Record<ComponentId, string>> = {};
  COMPONENTS.forEach((c, i) => {
    if (reasons[i] !== null) missing[c.id] = reasons[i];
  });
  return missing;
}

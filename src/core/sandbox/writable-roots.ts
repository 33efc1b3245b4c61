// What a policy lets a command write: the writable roots (cwd, /tmp, TMPDIR, configured roots) with
// their protected sub-paths, and the path check apply_patch uses to decide when to ask.
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { SandboxPolicy } from '../../protocol/index.js';
import { assertNever } from '../../util/index.js';
import type { SandboxWrapOptions, WritableRoot } from './sandbox.js';

/** Sub-paths of a writable root that stay read-only, as in Codex (`.git` holds hooks and config). */
export const PROTECTED_SUBPATHS = ['.git'] as const;

/**
 * Resolve a path through symlinks as far as it exists, so a link inside the workspace that points
 * elsewhere is judged by where it really leads. Missing tails are appended unchanged.
 */
export function resolveRealPath(p: string): string {
  const abs = path.resolve(p);
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return rest.length === 0 ? real : path.join(real, ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return abs;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

export function isWithin(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function writableRoot(root: string): WritableRoot {
  const readOnlySubpaths: string[] = [];
  for (const sub of PROTECTED_SUBPATHS) {
    const candidate = path.join(root, sub);
    try {
      lstatSync(candidate);
      readOnlySubpaths.push(candidate);
    } catch {
      // absent: nothing to protect
    }
  }
  return { root, readOnlySubpaths };
}

/**
 * The wrap options for `policy` run from `cwd`. Reads the disk (realpath, `.git` presence), which is
 * why it is separate from the pure `Sandbox.wrap`. Roots that do not exist are skipped: bubblewrap
 * cannot bind them, and a missing folder cannot be written through a read-only parent anyway.
 */
export function sandboxOptionsFor(
  policy: SandboxPolicy,
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): SandboxWrapOptions {
  const cwd = resolveRealPath(opts.cwd);
  switch (policy.type) {
    case 'read-only':
      return { cwd, writableRoots: [], networkAccess: false };
    case 'danger-full-access':
      return { cwd, writableRoots: [], networkAccess: true };
    case 'workspace-write': {
      const env = opts.env ?? process.env;
      const candidates = [cwd, ...policy.writable_roots.map((r) => path.resolve(cwd, r))];
      if (!policy.exclude_slash_tmp) candidates.push('/tmp');
      if (!policy.exclude_tmpdir_env_var && env.TMPDIR) candidates.push(env.TMPDIR);
      const seen = new Set<string>();
      const roots: WritableRoot[] = [];
      for (const candidate of candidates) {
        if (!existsSync(candidate)) continue;
        const real = resolveRealPath(candidate);
        if (seen.has(real)) continue;
        seen.add(real);
        roots.push(writableRoot(real));
      }
      return { cwd, writableRoots: roots, networkAccess: policy.network_access };
    }
    default:
      return assertNever(policy, 'sandbox policy');
  }
}

/** Whether a sandboxed command could write `absPath` under `policy` (apply_patch asks otherwise). */
export function isWritablePath(absPath: string, policy: SandboxPolicy, options: SandboxWrapOptions): boolean {
  switch (policy.type) {
    case 'danger-full-access':
      return true;
    case 'read-only':
      return false;
    case 'workspace-write': {
      const real = resolveRealPath(absPath);
      // Protected sub-paths are re-bound read-only after every writable root, so they win over any
      // root that contains them (e.g. /tmp containing a workspace's .git).
      const protectedPaths = options.writableRoots.flatMap((r) => [
        ...r.readOnlySubpaths,
        ...PROTECTED_SUBPATHS.map((sub) => path.join(r.root, sub)),
      ]);
      if (protectedPaths.some((p) => isWithin(real, p))) return false;
      return options.writableRoots.some((r) => isWithin(real, r.root));
    }
    default:
      return assertNever(policy, 'sandbox policy');
  }
}

// The sandbox inputs the bwrap and Seatbelt unit tests share: a workspace with a read-only .git and a
// writable temp folder, and a plain workspace-write policy.
import type { SandboxPolicy } from '../../src/protocol/index.js';
import type { SandboxWrapOptions } from '../../src/core/index.js';

/** The wrap options for a workspace `repo` (its .git read-only) and the temp folder `tmp`, network off. */
export function workspaceOptions(repo: string, tmp: string): SandboxWrapOptions {
  return {
    cwd: repo,
    writableRoots: [
      { root: repo, readOnlySubpaths: [`${repo}/.git`] },
      { root: tmp, readOnlySubpaths: [] },
    ],
    networkAccess: false,
  };
}

/** workspace-write with every switch at its default. */
export const WORKSPACE_WRITE: SandboxPolicy & { type: 'workspace-write' } = {
  type: 'workspace-write',
  writable_roots: [],
  network_access: false,
  exclude_tmpdir_env_var: false,
  exclude_slash_tmp: false,
};

// Pending questions to the user and their answers: exec / patch approvals and MCP elicitations wait
// here for the matching Op; `approved_for_session` answers are remembered for the thread's lifetime.
import path from 'node:path';
import type { ReviewDecision } from '../../protocol/index.js';
import type { McpElicitationResult } from '../mcp-tool-source.js';
import type { ApprovalRequest } from '../tools/tool.js';
import { turnAborted } from '../tools/mcp-tools.js';

type Kind = 'exec' | 'patch';

interface Pending<T> {
  resolve(value: T): void;
  reject(err: unknown): void;
  turnId: string;
}

function isUnder(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export class ApprovalBroker {
  private readonly approvals = new Map<string, Pending<ReviewDecision>>();
  private readonly elicitations = new Map<string, Pending<McpElicitationResult>>();
  private readonly sessionCommands = new Set<string>();
  private readonly sessionPaths = new Set<string>();
  private readonly sessionRoots = new Set<string>();

  /** Wait for the Op answering approval `id`; an abort of `signal` rejects with `turn_aborted`. */
  waitForApproval(kind: Kind, id: string, turnId: string, signal: AbortSignal): Promise<ReviewDecision> {
    return this.wait(this.approvals, `${kind}\u0000${id}`, turnId, signal);
  }

  /** Deliver a decision; false when nothing waits for it (unknown id, stale turn, already answered). */
  resolveApproval(kind: Kind, id: string, decision: ReviewDecision, turnId?: string): boolean {
    const key = `${kind}\u0000${id}`;
    const pending = this.approvals.get(key);
    if (!pending || (turnId !== undefined && turnId !== pending.turnId)) return false;
    this.approvals.delete(key);
    pending.resolve(decision);
    return true;
  }

  waitForElicitation(server: string, id: string | number, turnId: string, signal: AbortSignal): Promise<McpElicitationResult> {
    return this.wait(this.elicitations, `${server}\u0000${String(id)}`, turnId, signal);
  }

  resolveElicitation(server: string, id: string | number, result: McpElicitationResult): boolean {
    const key = `${server}\u0000${String(id)}`;
    const pending = this.elicitations.get(key);
    if (!pending) return false;
    this.elicitations.delete(key);
    pending.resolve(result);
    return true;
  }

  remember(request: ApprovalRequest): void {
    if (request.kind === 'exec') {
      this.sessionCommands.add(JSON.stringify(request.command));
      return;
    }
    for (const file of Object.keys(request.changes)) this.sessionPaths.add(path.resolve(file));
    if (request.grantRoot) this.sessionRoots.add(path.resolve(request.grantRoot));
  }

  /** Exec: the same argv was approved for the session. Patch: every touched path was (or lies under an approved root). */
  isApprovedForSession(request: ApprovalRequest): boolean {
    if (request.kind === 'exec') return this.sessionCommands.has(JSON.stringify(request.command));
    const files = Object.entries(request.changes).flatMap(([file, change]) =>
      change.type === 'update' && change.move_path ? [file, change.move_path] : [file],
    );
    if (files.length === 0) return false;
    return files.every((f) => {
      const abs = path.resolve(f);
      return this.sessionPaths.has(abs) || [...this.sessionRoots].some((root) => isUnder(abs, root));
    });
  }

  private wait<T>(map: Map<string, Pending<T>>, key: string, turnId: string, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(turnAborted(signal.reason));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (map.get(key) === entry) map.delete(key);
        reject(turnAborted(signal.reason));
      };
      const entry: Pending<T> = {
        turnId,
        resolve: (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        reject,
      };
      map.set(key, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

// The ids of tasks a server hands its 2026-07-28 clients (the tasks extension): unguessable (144
// random bits), and naming the replica whose process holds the task, under an HMAC of the shared
// request-state key, so that another replica can forward a task request there (as it forwards a
// retry) and no one can point a replica at an address of their choosing.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RetryHolders } from '../http/retry-forward.js';
import type { InputFlows } from './input-flows.js';
import { randomRequestStateKey, type RequestStateKey } from './request-state.js';

const PREFIX = 't1';
const MAC_BYTES = 16;
/** The methods of the tasks extension that name a task by `params.taskId`. */
export const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

export class TaskIds {
  private readonly source: RequestStateKey;
  private key: Promise<Uint8Array> | undefined;
  /** This process's internal origin, once listening. */
  private self: string | undefined;

  /** `source`: the key replicas share (default: random per process, whose ids no other replica trusts). */
  constructor(source: RequestStateKey | undefined) {
    this.source = source ?? randomRequestStateKey();
  }

  listeningAt(origin: string): void {
    this.self = origin;
  }

  /** A new task id: `t1.<random>.<holder>.<mac>` (the holder empty before the process listens). */
  async mint(): Promise<string> {
    const body = `${PREFIX}.${randomBytes(18).toString('base64url')}.${Buffer.from(this.self ?? '').toString('base64url')}`;
    return `${body}.${(await this.mac(body)).toString('base64url')}`;
  }

  /** The replica holding the task `id` names, when it is another one; undefined for ids held here, naming no holder, or not minted by this cluster. */
  async holderElsewhere(id: string): Promise<string | undefined> {
    const parts = id.split('.');
    if (parts.length !== 4 || parts[0] !== PREFIX) return undefined;
    const body = parts.slice(0, 3).join('.');
    const given = Buffer.from(parts[3]!, 'base64url');
    const expected = await this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const holder = Buffer.from(parts[2]!, 'base64url').toString('utf8');
    return holder !== '' && holder !== this.self ? holder : undefined;
  }

  private async mac(body: string): Promise<Buffer> {
    this.key ??= this.source.key();
    // Domain-separated from requestState, which the same key seals.
    return createHmac('sha256', await this.key).update(`switchboard task id\u0000${body}`).digest().subarray(0, MAC_BYTES);
  }
}

/** Where a product's held work lives: input-required retries (its flows) and tasks (its task ids). */
export function retryHolders(flows: InputFlows, ids: TaskIds): RetryHolders {
  return {
    listeningAt(origin) {
      flows.listeningAt(origin);
      ids.listeningAt(origin);
    },
    holderElsewhere: (state, method, binding) => flows.holderElsewhere(state, method, binding),
    taskHolderElsewhere: (id) => ids.holderElsewhere(id),
  };
}

// The ids of tasks a server hands its clients: unguessable (144 random bits) and sealed (sealed-box.ts)
// with the replica whose process holds the task inside, so that another replica can forward a task
// request there (as it forwards a retry), no one can point a replica at an address of their
// choosing, and the id reveals nothing about where it was minted.
import { randomBytes } from 'node:crypto';
import type { RetryHolders } from '../http/retry-forward.js';
import type { InputFlows } from './input-flows.js';
import { randomRequestStateKey, type RequestStateKey } from './request-state.js';
import { SealedBox } from './sealed-box.js';

const PREFIX = 't2.';
const RANDOM_BYTES = 18;
/** The methods of the tasks extension that name a task by `params.taskId`. */
export const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

export class TaskIds {
  private readonly box: SealedBox;
  /** This process's internal origin, once listening. */
  private self: string | undefined;

  /** `source`: the key replicas share (default: random per process, whose ids no other replica opens). */
  constructor(source: RequestStateKey | undefined) {
    this.box = new SealedBox(source ?? randomRequestStateKey(), 'task id');
  }

  listeningAt(origin: string): void {
    this.self = origin;
  }

  /** A new task id: `t2.<sealed random bytes and holder>` (the holder empty before the process listens). */
  async mint(): Promise<string> {
    return PREFIX + (await this.box.seal(Buffer.concat([randomBytes(RANDOM_BYTES), Buffer.from(this.self ?? '')])));
  }

  /** The replica holding the task `id` names, when it is another one; undefined for ids held here, naming no holder, or not minted by this cluster. */
  async holderElsewhere(id: string): Promise<string | undefined> {
    if (!id.startsWith(PREFIX)) return undefined;
    const plain = await this.box.open(id.slice(PREFIX.length));
    if (!plain || plain.length < RANDOM_BYTES) return undefined;
    const holder = plain.subarray(RANDOM_BYTES).toString('utf8');
    return holder !== '' && holder !== this.self ? holder : undefined;
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

// A thread's event fan-out: every events() caller gets each event emitted after it subscribed;
// events emitted while nobody listens are held for the next subscriber (so session_configured,
// emitted before a front-end can subscribe, is never lost).
import type { Event } from '../../protocol/index.js';
import { AsyncQueue } from '../../util/index.js';

export class EventHub {
  private readonly subscribers = new Set<AsyncQueue<Event>>();
  private backlog: Event[] = [];
  private closed = false;

  emit(event: Event): void {
    if (this.closed) return;
    if (this.subscribers.size === 0) {
      this.backlog.push(event);
      return;
    }
    for (const q of this.subscribers) q.push(event);
  }

  /** Subscribes immediately (not on first next()), so nothing emitted after this call is missed. */
  subscribe(): AsyncIterable<Event> {
    const queue = new AsyncQueue<Event>();
    for (const e of this.backlog) queue.push(e);
    this.backlog = [];
    if (this.closed) queue.close();
    else this.subscribers.add(queue);
    const unsubscribe = () => {
      queue.close();
      this.subscribers.delete(queue);
    };
    return {
      [Symbol.asyncIterator]: () => ({
        next: () => queue.next(),
        return: async () => {
          unsubscribe();
          return { value: undefined, done: true };
        },
      }),
    };
  }

  /** Ends every subscription after its queued events are read. */
  close(): void {
    this.closed = true;
    for (const q of this.subscribers) q.close();
    this.subscribers.clear();
  }
}

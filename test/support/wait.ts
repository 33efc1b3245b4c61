// Waiting in tests, one way for each kind of wait: poll what another process changes (`waitFor`), or
// re-check on every change the test itself records (`Changes`). Both fail saying what was awaited.
import { setTimeout as sleep } from 'node:timers/promises';

/** What a check returns once it holds: anything but undefined, null or false. */
export type Met<T> = Exclude<T, undefined | null | false>;

function met<T>(value: T): value is Met<T> {
  return value !== undefined && value !== null && value !== false;
}

/**
 * Polls `check` every 25 ms until it holds (returns anything but undefined, null or false) and
 * resolves with that value; fails with `what` after `timeoutMs`.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<Met<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (met(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * The pause between the calls of a client that keeps traffic going while a test waits out one of the
 * product's timers: a steady stream of calls without burning the cores the rest of the run shares.
 */
export function steadyPause(): Promise<void> {
  return sleep(20);
}

/**
 * Change notifications from something a test records (events, notifications, outcomes): a waiter
 * checks at once and again after each `notify()`, instead of polling.
 */
export class Changes {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Resolves with `find()`'s first value that holds; after `timeoutMs` fails with `describe()`, built then. */
  until<T>(find: () => T, describe: () => string, timeoutMs: number): Promise<Met<T>> {
    return new Promise<Met<T>>((resolve, reject) => {
      const check = () => {
        const found = find();
        if (!met(found)) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(describe()));
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }
}

/** Events as they arrive, and waits for the first one (already seen or still to come) that matches. */
export class EventLog<E> {
  readonly events: E[] = [];
  private readonly changes = new Changes();

  push(event: E): void {
    this.events.push(event);
    this.changes.notify();
  }

  waitFor(match: (event: E) => boolean, timeoutMs = 20_000, what = 'matching event'): Promise<E> {
    return this.changes.until(
      () => this.events.find(match),
      () => `no ${what} within ${timeoutMs} ms; saw ${JSON.stringify(this.events)}`,
      timeoutMs,
    ) as Promise<E>;
  }
}

// A first-in, first-out queue whose push and shift cost the same however long it is. Array#shift
// moves every element on a long array, and a Map's first key (`keys().next()`) walks past every
// entry deleted before it until V8 compacts the table, so "drop the oldest" on either grows with size.

/** Compacts once this many slots at the front are spent and they are over half the array. */
const COMPACT_AFTER = 1024;

export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  /** The oldest item, removed; undefined when empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** The oldest item, left in place; undefined when empty. */
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  get length(): number {
    return this.items.length - this.head;
  }

  /** Replaces the contents with `items`, oldest first. */
  reset(items: Iterable<T> = []): void {
    this.items = [...items];
    this.head = 0;
  }
}

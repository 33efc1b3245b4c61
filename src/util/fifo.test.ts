import { describe, expect, it } from 'vitest';
import { Fifo } from './fifo.js';

describe('Fifo', () => {
  it('gives items back oldest first, across its compactions', () => {
    const q = new Fifo<number>();
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) {
      q.push(i);
      if (i % 3 !== 0) out.push(q.shift()!);
    }
    while (q.length > 0) out.push(q.shift()!);
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(q.shift()).toBeUndefined();
  });

  it('reset replaces the contents', () => {
    const q = new Fifo<string>();
    q.push('a');
    q.reset(['b', 'c']);
    expect([q.shift(), q.shift(), q.shift()]).toEqual(['b', 'c', undefined]);
    expect(q.length).toBe(0);
  });
});

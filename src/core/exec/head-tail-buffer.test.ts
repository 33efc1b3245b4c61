import { describe, expect, it } from 'vitest';
import { HeadTailBuffer } from './head-tail-buffer.js';

describe('HeadTailBuffer', () => {
  it('keeps everything under the budget, even split mid-character', () => {
    const b = new HeadTailBuffer(100);
    const bytes = Buffer.from('héllo wörld');
    b.push(bytes.subarray(0, 2));
    b.push(bytes.subarray(2));
    expect(b.text()).toBe('héllo wörld');
    expect(b.omittedBytes).toBe(0);
  });

  it('drops the middle beyond the budget and marks it', () => {
    const b = new HeadTailBuffer(10);
    for (const c of ['aaaaa', 'bbbbb', 'ccccc', 'ddddd']) b.push(Buffer.from(c));
    expect(b.omittedBytes).toBe(10);
    expect(b.text()).toBe('aaaaa\n[... 10 bytes not kept ...]\nddddd');
  });
});

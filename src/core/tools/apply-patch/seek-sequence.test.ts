import { describe, expect, it } from 'vitest';
import { seekSequence } from './seek-sequence.js';

describe('seekSequence', () => {
  it('matches exactly first, then tolerates trailing, then surrounding whitespace, then punctuation', () => {
    expect(seekSequence(['foo', 'bar', 'baz'], ['bar', 'baz'], 0, false)).toBe(1);
    expect(seekSequence(['foo   ', 'bar\t'], ['foo', 'bar'], 0, false)).toBe(0);
    expect(seekSequence(['   foo  ', '  bar'], ['foo', 'bar'], 0, false)).toBe(0);
    expect(seekSequence(['x \u2013 y \u201cq\u201d'], ['x - y "q"'], 0, false)).toBe(0);
  });

  it('prefers an exact match over an earlier tolerant one', () => {
    expect(seekSequence(['a ', 'a'], ['a'], 0, false)).toBe(1);
  });

  it('respects the start index, end-of-file and impossible lengths', () => {
    expect(seekSequence(['a', 'b', 'a'], ['a'], 1, false)).toBe(2);
    expect(seekSequence(['end', 'x', 'end'], ['end'], 0, true)).toBe(2);
    expect(seekSequence(['one'], ['too', 'many'], 0, false)).toBe(-1);
    expect(seekSequence(['a'], [], 0, false)).toBe(0);
  });
});

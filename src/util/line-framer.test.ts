import { describe, expect, it } from 'vitest';
import { LineFramer } from './line-framer.js';

function feed(framer: LineFramer, chunks: (string | Buffer)[]): { lines: string[]; fits: boolean[] } {
  const lines: string[] = [];
  const fits = chunks.map((c) => framer.push(typeof c === 'string' ? Buffer.from(c) : c, (l) => void lines.push(l)));
  return { lines, fits };
}

describe('LineFramer', () => {
  it('splits at \\n across and within chunks, dropping one trailing \\r', () => {
    const framer = new LineFramer();
    const { lines } = feed(framer, ['a\nb', 'c\r\n', '\n', 'd\r\r\ne']);
    expect(lines).toEqual(['a', 'bc', '', 'd\r']);
    expect(framer.pendingBytes).toBe(1);
  });

  it('decodes UTF-8 only once a line is whole', () => {
    const bytes = Buffer.from('€uro\n');
    const { lines } = feed(new LineFramer(), [bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)]);
    expect(lines).toEqual(['€uro']);
  });

  it('stops reading a chunk when the callback returns false', () => {
    const framer = new LineFramer();
    const lines: string[] = [];
    expect(framer.push(Buffer.from('one\ntwo\nthree\n'), (l) => (lines.push(l), l !== 'two'))).toBe(true);
    expect(lines).toEqual(['one', 'two']);
  });

  it('reports a line over the bound, whether it is still open or already complete, and starts empty', () => {
    const open = new LineFramer(8);
    expect(feed(open, ['12345', '6789']).fits).toEqual([true, false]);
    expect(open.pendingBytes).toBe(0);
    expect(feed(open, ['ok\n']).lines).toEqual(['ok']);

    expect(feed(new LineFramer(8), ['123456789\n']).fits).toEqual([false]);
    expect(feed(new LineFramer(8), ['12345', '6789\n']).fits).toEqual([true, false]);
    const exact = feed(new LineFramer(8), ['1234', '5678\n']);
    expect(exact).toEqual({ lines: ['12345678'], fits: [true, true] });
  });
});

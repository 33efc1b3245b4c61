import { describe, expect, it } from 'vitest';
import { MODEL_FORMAT_MAX_BYTES, truncateForModel } from './truncate-output.js';

describe('truncateForModel', () => {
  it('leaves output within the limits alone', () => {
    const text = 'line\n'.repeat(100);
    expect(truncateForModel(text)).toEqual({ text, totalLines: 100, truncated: false });
  });

  it('too many lines: keeps head and tail lines and says how many lines and bytes were cut', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `l${i}\n`).join('');
    const out = truncateForModel(text);
    expect(out.truncated).toBe(true);
    expect(out.totalLines).toBe(1000);
    expect(out.text.startsWith('l0\nl1\n')).toBe(true);
    expect(out.text.endsWith('l998\nl999\n')).toBe(true);
    const m = /\[\.\.\. omitted (\d+) of 1000 lines \((\d+) bytes\) \.\.\.\]/.exec(out.text);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBe(1000 - 256);
    const kept = out.text.split('\n').filter((l) => /^l\d+$/.test(l)).length;
    expect(kept + Number(m![1])).toBe(1000);
  });

  it('too many bytes in few lines: cut on byte budget, never inside a UTF-8 character', () => {
    const text = 'é'.repeat(20_000);
    const out = truncateForModel(text);
    expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(MODEL_FORMAT_MAX_BYTES);
    expect(out.text).toMatch(/\[\.\.\. omitted \d+ of 40000 bytes \.\.\.\]/);
    expect(out.text).not.toContain('\uFFFD');
  });
});

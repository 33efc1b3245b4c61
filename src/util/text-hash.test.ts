import { describe, expect, it } from 'vitest';
import { textHash64 } from './text-hash.js';

describe('textHash64', () => {
  it('is FNV-1a 64 (the published test vectors), 16 hex digits', () => {
    expect(textHash64('')).toBe('cbf29ce484222325');
    expect(textHash64('a')).toBe('af63dc4c8601ec8c');
    expect(textHash64('foobar')).toBe('85944171f73967e8');
  });

  it('hashes the UTF-8 bytes, and tells texts one character apart', () => {
    expect(textHash64('é')).not.toBe(textHash64('e'));
    expect(textHash64('{"a":1}')).not.toBe(textHash64('{"a":2}'));
    expect(textHash64('x'.repeat(10_000))).toMatch(/^[0-9a-f]{16}$/);
  });
});

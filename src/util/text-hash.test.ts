import { describe, expect, it } from 'vitest';
import { textHash64 } from './text-hash.js';

/** FNV-1a 64 in BigInt arithmetic, straight from its definition: what the limb arithmetic must equal. */
function reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}

describe('textHash64', () => {
  it('is FNV-1a 64 (the published test vectors), 16 hex digits', () => {
    expect(textHash64('')).toBe('cbf29ce484222325');
    expect(textHash64('a')).toBe('af63dc4c8601ec8c');
    expect(textHash64('foobar')).toBe('85944171f73967e8');
  });

  it('equals FNV-1a 64 computed in 64-bit integers, for every byte value and for long mixed texts', () => {
    for (let code = 0; code < 0x800; code++) {
      const text = `k${String.fromCharCode(code)}`;
      expect(textHash64(text)).toBe(reference(text));
    }
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 200; i++) {
      const text = Array.from({ length: random() % 300 }, () => String.fromCodePoint(random() % 0x2ffff)).join('');
      expect(textHash64(text)).toBe(reference(text));
    }
  });

  it('hashes the UTF-8 bytes, and tells texts one character apart', () => {
    expect(textHash64('é')).not.toBe(textHash64('e'));
    expect(textHash64('{"a":1}')).not.toBe(textHash64('{"a":2}'));
    expect(textHash64('x'.repeat(10_000))).toMatch(/^[0-9a-f]{16}$/);
  });
});

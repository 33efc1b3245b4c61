// A 64-bit FNV-1a hash of a text's UTF-8 bytes, as 16 hex digits: a key for cached plain data (a
// server's config naming its tool snapshot), where what matters is that a changed text gets another
// key, not that nobody could forge one. Plain JavaScript, so that a command answering from its
// caches does not load node:crypto (about 11 ms of a warm `mcp tools --no-wait`: docs/performance.md).

const OFFSET_BASIS = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;
const UTF8 = new TextEncoder();

export function textHash64(text: string): string {
  let hash = OFFSET_BASIS;
  for (const byte of UTF8.encode(text)) hash = ((hash ^ BigInt(byte)) * PRIME) & MASK;
  return hash.toString(16).padStart(16, '0');
}

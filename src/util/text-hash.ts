// A 64-bit FNV-1a hash of a text's UTF-8 bytes, as 16 hex digits: a key for cached plain data (a
// server's config naming its tool snapshot), where what matters is that a changed text gets another
// key, not that nobody could forge one. Plain JavaScript, so that a command answering from its
// caches does not load node:crypto (about 11 ms of a warm `mcp tools --no-wait`: docs/performance.md).
// The 64-bit state is kept as four 16-bit limbs in plain numbers: every product and carry stays
// below 2^31, so the arithmetic is exact without a BigInt per byte (which cost about 2 ms of that
// command for ten servers' configs). The bytes are read by index: `for...of` over them made an
// iterator result per byte until the loop was optimized, 145 KB for a cold start's twenty hashes.

const UTF8 = new TextEncoder();
const PRIME_LOW = 0x1b3; // the FNV prime is 2^40 + 0x1b3

export function textHash64(text: string): string {
  // The offset basis 0xcbf29ce484222325, lowest limb first.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const bytes = UTF8.encode(text);
  for (let i = 0; i < bytes.length; i++) {
    h0 ^= bytes[i]!;
    // h * (2^40 + 0x1b3) mod 2^64: h * 0x1b3 limb by limb, plus h shifted left by 40 bits (h0 << 8 into
    // the third limb, whose carry takes h0's high byte on; h1 << 8 into the fourth; the rest falls off).
    const t0 = h0 * PRIME_LOW;
    const t1 = h1 * PRIME_LOW + (t0 >>> 16);
    const t2 = h2 * PRIME_LOW + (h0 << 8) + (t1 >>> 16);
    const t3 = h3 * PRIME_LOW + (h1 << 8) + (t2 >>> 16);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  return hex4(h3) + hex4(h2) + hex4(h1) + hex4(h0);
}

function hex4(limb: number): string {
  return limb.toString(16).padStart(4, '0');
}

// The bearer-token check every listener runs before anything else. node:crypto is taken at the first
// check, not at import (docs/architecture.md, conventions).

/**
 * True when the Authorization header is exactly `Bearer <token>`. Both sides are hashed first, so
 * the comparison takes the same time whatever the presented value's length or content.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const { createHash, timingSafeEqual } = process.getBuiltinModule('node:crypto');
  const presented = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(token, 'utf8').digest();
  return timingSafeEqual(a, b) && presented.length > 0;
}

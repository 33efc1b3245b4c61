// Random hex for names that must not collide (temporary files, lock files). node:crypto is taken at
// the first name, not at import (docs/architecture.md, conventions).

/** `bytes` random bytes as hex (12 characters by default). */
export function randomHex(bytes = 6): string {
  return process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex');
}

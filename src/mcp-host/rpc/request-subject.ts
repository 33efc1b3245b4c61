// What a request names: its tool, prompt or resource (never its arguments). The audit trail records
// it, and 2026-07-28 request state is bound to it.

/** `params.name`, `params.uri`, or the name or URI of `params.ref` (completion); undefined for none. */
export function requestSubject(params: unknown): string | undefined {
  const p = params as { name?: unknown; uri?: unknown; ref?: { name?: unknown; uri?: unknown } } | undefined;
  const value = p?.name ?? p?.uri ?? p?.ref?.name ?? p?.ref?.uri;
  return typeof value === 'string' ? value.slice(0, 512) : undefined;
}

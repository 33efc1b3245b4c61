// Levenshtein distance and "did you mean" picks, for hints on misspelt names (tools, config keys).

/** The number of single-character edits that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** The candidate closest to `name` when it is at most `maxEdits` edits away (case ignored), else undefined. */
export function closestName(name: string, candidates: Iterable<string>, maxEdits = 2): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d <= maxEdits && (!best || d < best.d)) best = { name: c, d };
  }
  return best?.name;
}

// Finds the line of a key in TOML text, so validation errors can point at it (best effort).

function headerMatches(line: string, path: string[]): boolean {
  const m = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/.exec(line);
  if (!m) return false;
  const parts = m[1]!.split('.').map((p) => p.trim().replace(/^["']|["']$/g, ''));
  return parts.length === path.length && parts.every((p, i) => p === path[i]);
}

/** Returns {line, column} (1-based) of `path` in `text`, or undefined when it cannot be found. */
export function locateKey(text: string, path: string[]): { line: number; column: number } | undefined {
  const lines = text.split(/\r?\n/);
  for (let cut = path.length; cut >= 1; cut--) {
    const tablePath = path.slice(0, cut);
    const rest = path.slice(cut);
    const start = lines.findIndex((l) => headerMatches(l, tablePath));
    if (start < 0) continue;
    if (rest.length === 0) return { line: start + 1, column: 1 };
    const key = rest[0]!;
    const keyRe = new RegExp(`^(\\s*)["']?${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']?\\s*=`);
    for (let i = start + 1; i < lines.length; i++) {
      if (/^\s*\[/.test(lines[i]!)) break;
      const m = keyRe.exec(lines[i]!);
      if (m) return { line: i + 1, column: m[1]!.length + 1 };
    }
    return { line: start + 1, column: 1 };
  }
  return undefined;
}

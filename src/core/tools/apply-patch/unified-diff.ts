// A unified diff of two line lists (for `FileChange.update.unified_diff`): common prefix and suffix
// trimmed, an LCS over the rest when it is small enough, hunks with three lines of context.

type Op = { kind: ' ' | '-' | '+'; line: string };

const MAX_LCS_CELLS = 4_000_000;
const CONTEXT = 3;

function middleOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > MAX_LCS_CELLS) {
    return [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))];
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], stored row-major.
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) {
      ops.push({ kind: '-', line: a[i++]! });
    } else {
      ops.push({ kind: '+', line: b[j++]! });
    }
  }
  while (i < n) ops.push({ kind: '-', line: a[i++]! });
  while (j < m) ops.push({ kind: '+', line: b[j++]! });
  return ops;
}

function range(start: number, count: number): string {
  if (count === 1) return `${start}`;
  return `${count === 0 ? start - 1 : start},${count}`;
}

export function unifiedDiff(oldLines: readonly string[], newLines: readonly string[]): string {
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) {
    suffix++;
  }
  const ops: Op[] = [
    ...oldLines.slice(0, prefix).map((line) => ({ kind: ' ' as const, line })),
    ...middleOps(oldLines.slice(prefix, oldLines.length - suffix), newLines.slice(prefix, newLines.length - suffix)),
    ...oldLines.slice(oldLines.length - suffix).map((line) => ({ kind: ' ' as const, line })),
  ];

  let out = '';
  let k = 0;
  // Line numbers (1-based) of ops[k] in the old and new files.
  let oldNo = 1;
  let newNo = 1;
  while (k < ops.length) {
    if (ops[k]!.kind === ' ') {
      k++;
      oldNo++;
      newNo++;
      continue;
    }
    // A hunk: back up to CONTEXT lines before, extend while changes are within 2*CONTEXT.
    const lead = Math.min(CONTEXT, k, oldNo - 1);
    const start = k - lead;
    let end = k;
    let gap = 0;
    while (end < ops.length) {
      gap = ops[end]!.kind === ' ' ? gap + 1 : 0;
      if (gap > 2 * CONTEXT) break;
      end++;
    }
    // Keep at most CONTEXT unchanged lines after the last change.
    let trailing = 0;
    while (trailing < end - k && ops[end - 1 - trailing]!.kind === ' ') trailing++;
    end -= Math.max(0, trailing - CONTEXT);
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    const oldStart = oldNo - lead;
    const newStart = newNo - lead;
    out += `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n`;
    for (const o of hunk) out += `${o.kind}${o.line}\n`;
    for (let x = k; x < end; x++) {
      if (ops[x]!.kind !== '+') oldNo++;
      if (ops[x]!.kind !== '-') newNo++;
    }
    k = end;
  }
  return out;
}

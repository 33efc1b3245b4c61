import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unified-diff.js';

describe('unifiedDiff', () => {
  it('one changed line', () => {
    expect(unifiedDiff(['original content'], ['modified content'])).toBe('@@ -1 +1 @@\n-original content\n+modified content\n');
  });

  it('three lines of context and separate hunks for distant changes', () => {
    const old = Array.from({ length: 20 }, (_, i) => `l${i + 1}`);
    const now = old.map((l) => (l === 'l2' ? 'L2' : l === 'l18' ? 'L18' : l));
    expect(unifiedDiff(old, now)).toBe(
      '@@ -1,5 +1,5 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n' + '@@ -15,6 +15,6 @@\n l15\n l16\n l17\n-l18\n+L18\n l19\n l20\n',
    );
  });

  it('pure insertion and deletion', () => {
    expect(unifiedDiff(['a', 'b'], ['a', 'x', 'b'])).toBe('@@ -1,2 +1,3 @@\n a\n+x\n b\n');
    expect(unifiedDiff(['a'], [])).toBe('@@ -1 +0,0 @@\n-a\n');
    expect(unifiedDiff([], [])).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { PatchParseError, parsePatch } from './parser.js';

describe('parsePatch', () => {
  it('parses every hunk kind, a move, @@ context lines and an end-of-file marker', () => {
    const hunks = parsePatch(
      '*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n' +
        '*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n' +
        '@@\n last\n+tail\n*** End of File\n*** End Patch',
    );
    expect(hunks).toEqual([
      { type: 'add', path: 'path/add.py', contents: 'abc\ndef\n' },
      { type: 'delete', path: 'path/delete.py' },
      {
        type: 'update',
        path: 'path/update.py',
        movePath: 'path/update2.py',
        chunks: [
          { context: 'def f():', oldLines: ['    pass'], newLines: ['    return 123'], endOfFile: false },
          { context: null, oldLines: ['last'], newLines: ['last', 'tail'], endOfFile: true },
        ],
      },
    ]);
  });

  it('allows the first chunk of an update without @@', () => {
    expect(parsePatch('*** Begin Patch\n*** Update File: f\n import foo\n+bar\n*** End Patch')).toEqual([
      { type: 'update', path: 'f', movePath: null, chunks: [{ context: null, oldLines: ['import foo'], newLines: ['import foo', 'bar'], endOfFile: false }] },
    ]);
  });

  it.each([
    ['bad', "invalid patch: The first line of the patch must be '*** Begin Patch'"],
    ['*** Begin Patch\nbad', "invalid patch: The last line of the patch must be '*** End Patch'"],
    ['*** Begin Patch\n*** Update File: t.py\n*** End Patch', "invalid hunk at line 2, Update file hunk for path 't.py' is empty"],
    ['*** Begin Patch\n*** Add File: a\n+x\nbogus\n*** End Patch', "invalid hunk at line 4, 'bogus' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'"],
    ['*** Begin Patch\n*** Update File: f\n@@\n-a\n@@\n*** End Patch', 'invalid hunk at line 6, Update hunk does not contain any lines'],
    ['*** Begin Patch\n*** Update File: f\n@@\n-a\nx\n*** End Patch', "invalid hunk at line 5, Expected update hunk to start with a @@ context marker, got: 'x'"],
    ['*** Begin Patch\n*** Update File: f\n@@\nno marker\n*** End Patch', "invalid hunk at line 4, Unexpected line found in update hunk: 'no marker'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)"],
  ])('%j fails with an exact message', (patch, message) => {
    expect(() => parsePatch(patch)).toThrow(PatchParseError);
    expect(() => parsePatch(patch)).toThrow(message);
  });
});

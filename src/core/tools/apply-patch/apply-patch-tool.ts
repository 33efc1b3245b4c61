// The `apply_patch` function tool ({input: string}), as Codex exposes it to models that call tools
// with JSON arguments.
import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../tool.js';
import { runPatch } from './run-patch.js';

const DESCRIPTION = `Use the \`apply_patch\` tool to edit files.
The patch format is a small, file-oriented diff that is easy to write and safe to apply:

*** Begin Patch
[one or more file sections]
*** End Patch

Each file section starts with one of three headers:
*** Add File: <path> - create a file; every following line starts with + and is the new content.
*** Delete File: <path> - remove a file; nothing follows.
*** Update File: <path> - change a file in place; optionally followed by "*** Move to: <new path>" to rename it.

An update holds one or more hunks. A hunk starts with "@@" (optionally "@@ <a line just above the change>",
such as a class or function signature, to say where it goes), then lines starting with " " (unchanged
context), "-" (removed) or "+" (added). Give about three lines of context above and below each change, and
no line numbers. End a hunk that touches the end of the file with "*** End of File".

Example:
*** Begin Patch
*** Add File: hello.txt
+Hello world
*** Update File: src/app.py
*** Move to: src/main.py
@@ def greet():
-    print("Hi")
+    print("Hello, world!")
*** Delete File: obsolete.txt
*** End Patch

Paths are relative to the working directory (never absolute). Either every change applies, or none does.`;

const ArgsSchema = z.object({ input: z.string() });

/** The `apply_patch` tool: applies a patch in Codex's format, all or nothing, asking for approval per the thread's policy. */
export function createApplyPatchTool(): Tool {
  return {
    name: 'apply_patch',
    description: DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        input: { type: 'string', description: 'The entire contents of the apply_patch command' },
      },
      required: ['input'],
      additionalProperties: false,
    },
    async run(args: unknown, ctx: ToolContext): Promise<ToolResult> {
      const parsed = ArgsSchema.safeParse(args);
      if (!parsed.success) {
        return { output: `failed to parse function arguments: ${z.prettifyError(parsed.error)}`, success: false };
      }
      return runPatch(parsed.data.input, ctx);
    },
  };
}

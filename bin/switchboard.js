#!/usr/bin/env node
// Entry shim: the compiled CLI lives in dist/ (run `npm run build` after a fresh clone). Node's module
// compile cache (22.1+) keeps compiled code of switchboard and its dependencies between runs, so a
// warm start skips most parsing; it is imported after the cache is on, hence the dynamic import.
import module from 'node:module';

module.enableCompileCache?.();
const { main } = await import('../dist/cli/main.js');

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`switchboard: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
